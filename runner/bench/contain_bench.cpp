// What SpawnSpec::contain costs per spawn, side by side in one run: PROGRAM started with one
// argument and waited for SPAWNS times each way, in interleaved rounds of 100 so that drift in
// the machine's load touches both alike. scripts/bench/contain runs it on a trivial C bot.
// Usage: contain-bench PROGRAM SPAWNS. Prints one JSON line.
#include "runner/sys/process.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    using namespace gol::runner;
    using Clock = std::chrono::steady_clock;
    if (argc != 3) {
        std::fprintf(stderr, "usage: contain-bench PROGRAM SPAWNS\n");
        return 2;
    }
    become_subreaper();  // as the runner does
    if (!containment_available()) {
        std::fprintf(stderr, "contain-bench: contained spawns are not available here\n");
        return 2;
    }
    const long spawns = std::atol(argv[2]);
    SpawnSpec spec;
    spec.argv = {argv[1], "{}"};
    double seconds[2] = {0, 0};
    for (long done = 0; done < spawns; done += 100) {
        for (int contain = 0; contain < 2; ++contain) {
            spec.contain = contain == 1;
            const auto start = Clock::now();
            for (long i = 0; i < std::min(100L, spawns - done); ++i) {
                RunOutcome r = run_process(spec);
                if (r.kind != RunOutcome::Kind::exited || r.exit_status != 0) {
                    std::fprintf(stderr, "contain-bench: %s\n", describe(r).c_str());
                    return 1;
                }
            }
            seconds[contain] += std::chrono::duration<double>(Clock::now() - start).count();
        }
    }
    std::printf("{\"spawns\":%ld,\"plain_us\":%.1f,\"contained_us\":%.1f,\"ratio\":%.3f}\n", spawns,
                seconds[0] * 1e6 / static_cast<double>(spawns), seconds[1] * 1e6 / static_cast<double>(spawns),
                seconds[1] / seconds[0]);
    return 0;
}
