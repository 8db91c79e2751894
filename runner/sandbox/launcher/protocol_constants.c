/* Writes a warm interpreter's script with the launcher's protocol in it, so that launch_protocol.h
 * is the protocol's one definition: the line `# @LAUNCH_PROTOCOL@` of the template becomes the
 * constants, the request's and the reply's layouts and their fields' places, in the script's
 * language, indented as the marker was. Run at build time:
 *   gol-protocol-constants python|ruby TEMPLATE OUTPUT */
#include "launch_protocol.h"

#include <stdio.h>
#include <string.h>

struct field {
    const char* name;
    const char* python;
    const char* ruby;
    size_t size;
};

#define GOL_FIELD_ENTRY(type, name, python, ruby) {#name, python, ruby, sizeof(type)},
static const struct field request_fields[] = {GOL_LAUNCH_REQUEST_FIELDS(GOL_FIELD_ENTRY)};
static const struct field reply_fields[] = {GOL_WARM_REPLY_FIELDS(GOL_FIELD_ENTRY)};
#undef GOL_FIELD_ENTRY

static const struct {
    const char* name;
    long value;
} constants[] = {
    {"CONTROL_FD", GOL_LAUNCH_CONTROL_FD}, {"MAX_FDS", GOL_LAUNCH_MAX_FDS},
    {"STDIN_FLAG", GOL_LAUNCH_STDIN},      {"NPROC_FLAG", GOL_LAUNCH_NPROC},
    {"READY", GOL_LAUNCH_READY},           {"STARTED", GOL_LAUNCH_STARTED},
    {"FAILED", GOL_LAUNCH_FAILED},         {"ENDED", GOL_LAUNCH_ENDED},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* One layout: its format and its field names, checked against the C struct's size. */
static int write_layout(FILE* out, const char* indent, int python, const char* name, const struct field* fields,
                        size_t count, size_t c_size) {
    size_t size = 0;
    fprintf(out, python ? "%s%s = struct.Struct(\"=" : "%s%s = \"", indent, name);
    for (size_t i = 0; i < count; ++i) {
        fputs(python ? fields[i].python : fields[i].ruby, out);
        size += fields[i].size;
    }
    fprintf(out, python ? "\")\n" : "\"\n");
    if (!python) fprintf(out, "%s%s_SIZE = %zu\n", indent, name, c_size);
    /* Each field's place in what unpacking gives, by its name: REQUEST_ARGC = 3. */
    for (size_t i = 0; i < count; ++i) {
        fprintf(out, "%s%s_", indent, name);
        for (const char* c = fields[i].name; *c; ++c) fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, out);
        fprintf(out, " = %zu\n", i);
    }
    if (size != c_size) {
        fprintf(stderr, "gol-protocol-constants: %s's fields take %zu bytes, the struct %zu\n", name, size, c_size);
        return -1;
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 4 || (strcmp(argv[1], "python") != 0 && strcmp(argv[1], "ruby") != 0)) {
        fprintf(stderr, "usage: gol-protocol-constants python|ruby TEMPLATE OUTPUT\n");
        return 2;
    }
    const int python = strcmp(argv[1], "python") == 0;
    FILE* in = fopen(argv[2], "r");
    FILE* out = in ? fopen(argv[3], "w") : NULL;
    if (!in || !out) {
        perror("gol-protocol-constants");
        return 1;
    }
    char line[4096];
    int found = 0, failed = 0;
    while (fgets(line, sizeof line, in)) {
        const char* marker = strstr(line, "# @LAUNCH_PROTOCOL@");
        if (!marker) {
            fputs(line, out);
            continue;
        }
        found = 1;
        char indent[256];
        const size_t width = (size_t)(marker - line) < sizeof indent ? (size_t)(marker - line) : sizeof indent - 1;
        memcpy(indent, line, width);
        indent[width] = '\0';
        fprintf(out, "%s# The launcher's protocol, written from launch_protocol.h at build time.\n", indent);
        for (size_t i = 0; i < COUNT(constants); ++i)
            fprintf(out, "%s%s = %ld\n", indent, constants[i].name, constants[i].value);
        failed |= write_layout(out, indent, python, "REQUEST", request_fields, COUNT(request_fields),
                               sizeof(struct gol_launch_request));
        failed |= write_layout(out, indent, python, "REPLY", reply_fields, COUNT(reply_fields),
                               sizeof(struct gol_warm_reply));
    }
    fclose(in);
    if (!found) fprintf(stderr, "gol-protocol-constants: %s has no line # @LAUNCH_PROTOCOL@\n", argv[2]);
    if (fclose(out) != 0 || !found || failed) {
        remove(argv[3]);
        return 1;
    }
    return 0;
}
