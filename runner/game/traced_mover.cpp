#include "runner/game/traced_mover.hpp"

#include "runner/game/protocol.hpp"
#include "runner/text/count_text.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/time_text.hpp"

namespace gol::runner {

TracedMover::TracedMover(Mover& inner, const std::string& name, std::ostream& out)
    : WrappingMover(inner), name_(terminal_line(name)), out_(out) {}

MoveReport TracedMover::move(const Board& board, int seat, int tick) {
    const std::string who = "tick " + std::to_string(tick) + " seat " + std::to_string(seat) + " (" + name_ + ")";
    encode_board(board, seat, tick, json_);
    out_ << who << ": board " << board.width() << "x" << board.height() << ", "
         << board.population(Player::one) + board.population(Player::two) << " live cells, " << json_.size()
         << " bytes of JSON" << std::endl;
    MoveReport report = inner_.move(board, seat, tick);
    out_ << who << ": reply in " << format_ms(report.elapsed) << ": ";
    if (report.forfeit) {
        // The detail can quote the bot's output.
        out_ << "forfeit " << name(report.forfeit->kind) << ": " << terminal_line(report.forfeit->detail);
    } else {
        out_ << count_text(static_cast<long long>(report.cells.size()), "cell");
        for (std::size_t i = 0; i < report.cells.size(); ++i)
            out_ << (i == 0 ? " [" : ", ") << "[" << report.cells[i].y << "," << report.cells[i].x << "]"
                 << (i + 1 == report.cells.size() ? "]" : "");
    }
    out_ << std::endl;
    return report;
}

}  // namespace gol::runner
