#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <signal.h>

#include "runner/sys/process.hpp"

int main(int argc, char** argv) {
    // As the runner does: bots' orphans are ours to reap, and a bot closing a pipe early
    // must not kill us.
    gol::runner::become_subreaper();
    ::signal(SIGPIPE, SIG_IGN);
    doctest::Context context(argc, argv);
    return context.run();
}
