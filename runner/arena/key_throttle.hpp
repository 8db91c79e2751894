// --keys against guessing (docs/arena.md, "Limits"): an address whose secrets were wrong a few
// times is locked out for a time that doubles with each further wrong one, and a name whose
// secret is being guessed is checked only for addresses that have never been wrong, so the
// owner, connecting from its own address, still plays. What is remembered is bounded.
#pragma once

#include "runner/arena/window_counts.hpp"

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace gol::runner {

struct KeyThrottleLimits {
    int free_tries = 5;                              // wrong secrets an address has before a lockout
    std::chrono::milliseconds first_lockout{1000};  // then doubled with each wrong one, up to
    std::chrono::milliseconds max_lockout{300'000};
    int name_tries = 10;                             // wrong secrets for a name within `window`
    std::chrono::milliseconds window{60'000};        // before its name is guarded
    std::size_t max_addresses = 65'536;              // remembered; the oldest are forgotten
};

class KeyThrottle {
public:
    using Clock = std::chrono::steady_clock;

    explicit KeyThrottle(KeyThrottleLimits limits = {});

    // Why an identification for `name` from `address` is not even checked now, or none.
    std::optional<std::string> refusal(const std::string& address, const std::string& name,
                                       Clock::time_point now = Clock::now()) const;
    // Its secret was wrong (`name` as claimed; one not in the keys file counts for the address only).
    void wrong(const std::string& address, const std::string& name, bool known_name,
               Clock::time_point now = Clock::now());

private:
    struct Address {
        int wrong = 0;
        Clock::time_point last{};
        Clock::time_point locked_until{};
    };

    KeyThrottleLimits limits_;
    std::map<std::string, Address> addresses_;
    WindowCounts names_;  // wrong secrets by name, only names of the keys file: bounded by it
};

}  // namespace gol::runner
