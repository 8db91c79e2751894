#include "runner/report/timing_summary.hpp"

#include "runner/text/time_text.hpp"

namespace gol::runner {

std::string timing_summary(const LeagueTable& table) {
    std::string text;
    bool timed_out = false;
    for (const Standing& s : table.standings) {
        if (!s.timing || s.timing->moves == 0) continue;
        const MoveTiming& t = *s.timing;
        const std::string moves = " of its " + std::to_string(t.moves) + " moves";
        // A spent time bank's moves never ran: they are not among its moves.
        if (s.time_bank_forfeits > 0)
            text += "league: " + s.bot + " spent its time bank (--time-bank): " +
                    std::to_string(s.time_bank_forfeits) + " more of its turns were forfeited without running it\n";
        if (s.forfeits - s.time_bank_forfeits >= t.moves) {
            text += "league: " + s.bot + " forfeited every one" + moves + " (its forfeits: the games' logs)\n";
        } else if (t.timeouts > 0) {
            timed_out = true;
            text += "league: " + s.bot + " timed out on " + std::to_string(t.timeouts) + moves + ", and took over 80% of " +
                    "the limit on " + std::to_string(t.near_timeouts) + " more (longest move " + format_ms(t.wall_max) + ")\n";
        } else if (t.near_timeouts > 0) {
            text += "league: " + s.bot + " took over 80% of the time limit on " + std::to_string(t.near_timeouts) + moves +
                    " (longest move " + format_ms(t.wall_max) + ")\n";
        }
    }
    if (timed_out)
        text += "league: timeouts depend on the machine's load: fewer games at once (-j), or --time-mode cpu, "
                "which counts CPU time (docs/rules.md)\n";
    return text;
}

}  // namespace gol::runner
