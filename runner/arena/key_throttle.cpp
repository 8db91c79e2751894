#include "runner/arena/key_throttle.hpp"

#include <algorithm>
#include <limits>

namespace gol::runner {

// Names are bounded by the keys file: none is forgotten, so that no flood of names lifts a guard.
KeyThrottle::KeyThrottle(KeyThrottleLimits limits)
    : limits_(limits), names_(limits.window, std::numeric_limits<std::size_t>::max()) {}

std::optional<std::string> KeyThrottle::refusal(const std::string& address, const std::string& name,
                                                Clock::time_point now) const {
    const auto a = addresses_.find(address);
    if (a != addresses_.end() && now < a->second.locked_until)
        return "too many wrong secrets from " + address + ": not checked for " +
               std::to_string(std::chrono::ceil<std::chrono::seconds>(a->second.locked_until - now).count()) + " s";
    const bool guarded = names_.count(name, now) >= limits_.name_tries;
    // An address never wrong is checked still: the name's owner is not locked out by its guessers.
    if (guarded && a != addresses_.end() && a->second.wrong > 0 && now < a->second.last + limits_.window)
        return "the secret of \"" + name + "\" is being guessed: not checked for addresses that were wrong lately";
    return std::nullopt;
}

void KeyThrottle::wrong(const std::string& address, const std::string& name, bool known_name, Clock::time_point now) {
    // Full: the address heard from least lately is forgotten.
    if (!addresses_.contains(address) && addresses_.size() >= limits_.max_addresses && !addresses_.empty())
        addresses_.erase(std::min_element(addresses_.begin(), addresses_.end(), [](const auto& x, const auto& y) {
            return std::max(x.second.last, x.second.locked_until) < std::max(y.second.last, y.second.locked_until);
        }));
    Address& a = addresses_[address];
    // An address quiet for a window starts again.
    if (now >= a.last + limits_.window && now >= a.locked_until) a.wrong = 0;
    ++a.wrong;
    a.last = now;
    if (a.wrong > limits_.free_tries) {
        const int doublings = std::min(a.wrong - limits_.free_tries - 1, 20);
        a.locked_until = now + std::min<std::chrono::milliseconds>(limits_.max_lockout, limits_.first_lockout * (1 << doublings));
    }
    if (!known_name) return;
    names_.add(name, now);
}

}  // namespace gol::runner
