// The floor for the argv protocol: spawn a program with one argument and wait for it, N times,
// alternating two programs, with nothing else. The runner's duel is measured against this.
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

extern char** environ;

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: spawn_loop PROGRAM_A PROGRAM_B COUNT ARG_BYTES\n");
        return 2;
    }
    const long count = std::atol(argv[3]);
    std::string arg(static_cast<std::size_t>(std::atol(argv[4])), 'x');
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 0x1 /* O_WRONLY */, 0);
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < count; ++i) {
        char* program = argv[1 + (i % 2)];
        char* args[] = {program, arg.data(), nullptr};
        pid_t pid;
        if (posix_spawn(&pid, program, &actions, nullptr, args, environ) != 0) return 1;
        int status;
        waitpid(pid, &status, 0);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%.3f\n", secs);
    posix_spawn_file_actions_destroy(&actions);
}
