// libFuzzer target: a bot's stdout, however malformed, must give a valid move or a forfeit
// with a reason, never a crash or an exception.
#include "runner/game/protocol.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    gol::runner::Move reply = gol::runner::parse_reply(text);
    if (reply.ok() && reply.cells.size() > gol::runner::max_cells_per_move) std::abort();
    if (!reply.ok() && gol::runner::name(reply.forfeit->kind).empty()) std::abort();
    return 0;
}
