#include "runner/sys/stop_event.hpp"

#include <sys/eventfd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

namespace gol::runner {

StopEvent::StopEvent(std::stop_token stop) : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)), stop_(stop) {
    if (!fd_) throw std::system_error(errno, std::generic_category(), "eventfd");
    callback_.emplace(stop_, Signal{fd_.get()});
}

void StopEvent::Signal::operator()() const {
    const std::uint64_t one = 1;
    // Readable from now on, and no reader ever takes the count away.
    [[maybe_unused]] const ssize_t n = ::write(fd, &one, sizeof one);
}

}  // namespace gol::runner
