#include "runner/sys/cpu_pin.hpp"

#include <sched.h>

namespace gol::runner {

namespace {

void pin_to(int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    // Best effort: where pinning is refused the game is only slower.
    sched_setaffinity(0, sizeof one, &one);
}

}  // namespace

void pin_to_current_cpu() {
    if (int cpu = sched_getcpu(); cpu >= 0) pin_to(cpu);
}

std::string allowed_cpus() {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return "";
    std::string list;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &allowed)) list += (list.empty() ? "" : ",") + std::to_string(cpu);
    return list;
}

void pin_to_nth_cpu(int n) {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
    const int count = CPU_COUNT(&allowed);
    if (count == 0) return;
    for (int cpu = 0, seen = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &allowed) && seen++ == n % count) return pin_to(cpu);
}

}  // namespace gol::runner
