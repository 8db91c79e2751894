#include "runner/sys/interrupt.hpp"

#include <signal.h>

#include <cstdio>
#include <cstdlib>

namespace gol::runner {

namespace {

sigset_t stop_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

}  // namespace

InterruptWatcher::InterruptWatcher(ProcessRegistry& registry) : registry_(registry) {
    sigset_t set = stop_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    thread_ = std::thread([this, set] {
        for (;;) {
            int sig = 0;
            if (sigwait(&set, &sig) != 0) continue;
            if (closing_.load()) return;
            signal_.store(sig);
            stop_.request_stop();
            registry_.kill_all();
            // The runner stops at once wherever it is: work that does not come back in time (a
            // read that blocks, a walk of a huge folder) is left, as a second signal leaves it.
            // What was stored stays stored; the next run removes what was left in the work area.
            timespec grace{kStopGraceSeconds, 0};
            siginfo_t info{};
            const int again = sigtimedwait(&set, &info, &grace);
            if (closing_.load()) return;
            std::fprintf(stderr, "runner: %s\n",
                         again > 0 ? "stopped by a second signal" : "still busy after the stop was asked for: stopped");
            std::_Exit(128 + sig);
        }
    });
}

InterruptWatcher::~InterruptWatcher() {
    closing_.store(true);
    pthread_kill(thread_.native_handle(), SIGTERM);
    thread_.join();
    sigset_t set = stop_signals();
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace gol::runner
