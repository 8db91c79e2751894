// The floor for the argv protocol: spawn a program and wait for it, N times, alternating two
// programs, with nothing else. The runner is measured against this. It keeps to the CPU it
// starts on, as the runner's game thread does (built with runner/sys/cpu_pin.cpp).
//   spawn_loop A B COUNT ARG_BYTES: the program gets one argument of ARG_BYTES bytes.
//   spawn_loop A B COUNT ARG_BYTES --memfd: an argument too long for argv; each time the loop
//     writes ARG_BYTES bytes to a new memfd that the program inherits as descriptor 3, and passes
//     a short argument.
#include "runner/sys/cpu_pin.hpp"

#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern char** environ;

int main(int argc, char** argv) {
    const bool memfd = argc == 6 && std::strcmp(argv[5], "--memfd") == 0;
    if (argc != 5 && !memfd) {
        std::fprintf(stderr, "usage: spawn_loop PROGRAM_A PROGRAM_B COUNT ARG_BYTES [--memfd]\n");
        return 2;
    }
    gol::runner::pin_to_current_cpu();
    const long count = std::atol(argv[3]);
    std::string arg(static_cast<std::size_t>(std::atol(argv[4])), 'x');
    std::string placeholder = "placeholder";
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < count; ++i) {
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 0x1 /* O_WRONLY */, 0);
        int fd = -1;
        if (memfd) {
            fd = memfd_create("board", MFD_CLOEXEC);
            if (fd < 0 || write(fd, arg.data(), arg.size()) != static_cast<ssize_t>(arg.size())) return 1;
            lseek(fd, 0, SEEK_SET);
            posix_spawn_file_actions_adddup2(&actions, fd, 3);
        }
        char* program = argv[1 + (i % 2)];
        char* args[] = {program, memfd ? placeholder.data() : arg.data(), nullptr};
        pid_t pid;
        if (posix_spawn(&pid, program, &actions, nullptr, args, environ) != 0) return 1;
        int status;
        waitpid(pid, &status, 0);
        if (fd >= 0) close(fd);
        posix_spawn_file_actions_destroy(&actions);
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%.3f\n", secs);
}
