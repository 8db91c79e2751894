// Keeping a game on one CPU. A move is a hand-off between the runner and one bot, never both
// at once; on one CPU that hand-off is a plain context switch, while across CPUs it costs a
// wake-up of the other CPU, several times slower (scripts/bench/overhead: about 7x for
// persistent bots here). Bots inherit the CPU of the thread that starts them.
#pragma once

#include <string>

namespace gol::runner {

// Pins the calling thread to the CPU it runs on now.
void pin_to_current_cpu();

// The CPUs the calling thread may run on, as a cpuset list ("3", "0,2"); empty when unknown.
std::string allowed_cpus();

// Pins the calling thread to the n-th (modulo their number) of the CPUs it may run on.
void pin_to_nth_cpu(int n);

}  // namespace gol::runner
