#include "runner/sys/interrupt.hpp"

#include <signal.h>

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
