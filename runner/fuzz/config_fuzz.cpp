// libFuzzer target: manifests and tournament files, however broken, must be accepted or
// refused with their own error type, never crash or throw anything else.
#include "runner/bots/bot.hpp"
#include "runner/league/tournament.hpp"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        gol::runner::parse_manifest(text, "/nonexistent/fuzz-bot");
    } catch (const gol::runner::BotError&) {
    }
    try {
        gol::runner::parse_tournament(text, "/nonexistent/fuzz.json");
    } catch (const gol::runner::TournamentError&) {
    }
    return 0;
}
