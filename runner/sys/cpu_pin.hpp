// Keeping a game on one CPU. A move is a hand-off between the runner and one bot, never both
// at once; on one CPU that hand-off is a plain context switch, while across CPUs it costs a
// wake-up of the other CPU, several times slower (scripts/bench/overhead: about 7x for
// persistent bots here). Bots inherit the CPU of the thread that starts them.
#pragma once

namespace gol::runner {

// Pins the calling thread to the CPU it runs on now.
void pin_to_current_cpu();

// Pins the calling thread to the n-th (modulo their number) of the CPUs it may run on.
void pin_to_nth_cpu(int n);

}  // namespace gol::runner
