// An argv bot's board longer than Linux takes for one argument (MAX_ARG_STRLEN, 128 KiB): the
// runner passes a placeholder instead, the board in a memfd, and the preload library built with
// the runner (runner/sandbox/preload/long_argument.c) puts it back in the argument's place before the
// bot's main() runs. Their names and sizes are one C header both compile (preload/long_argument.h).
#pragma once

#include "runner/sandbox/preload/long_argument.h"
#include "runner/sys/unique_fd.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

// Whether `text` needs the library to travel as one argument: Linux refuses one longer than
// GOL_MAX_ARGUMENT_BYTES (MAX_ARG_STRLEN, its NUL included).
inline bool too_long_for_argv(std::string_view text) { return text.size() + 1 > GOL_MAX_ARGUMENT_BYTES; }

// What the bot's argv holds until the library replaces it.
inline constexpr const char* long_argument_placeholder = GOL_LONG_ARGUMENT_PLACEHOLDER;

// The descriptor number the memfd has in the bot's process.
inline constexpr int long_argument_fd = 3;

// The library, the runner's libgol_long_argument.so (helper_programs.hpp), when it is there.
std::optional<std::filesystem::path> long_argument_library();

// The environment that has the library (at `library`, as the bot's process sees it) deliver
// fd long_argument_fd as the last argument of the bot's argv: named by its place from the end,
// which stays the same when the kernel runs a script through its `#!` line (and puts the
// interpreter in front of the arguments).
std::vector<std::string> long_argument_environment(const std::filesystem::path& library);

// One move's board in a memfd (close-on-exec here; the spawner gives it to the bot as
// long_argument_fd).
class LongArgument {
public:
    explicit LongArgument(std::string_view text);  // throws std::runtime_error if no memfd

    int fd() const { return fd_.get(); }
    // The library read all of it: the offset, shared with the bot's descriptor, is at the end.
    bool taken() const;

private:
    UniqueFd fd_;
    std::size_t size_;
};

}  // namespace gol::runner
