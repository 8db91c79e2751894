#include "runner/game/replay.hpp"
#include "runner/text/json_text.hpp"
#include "runner/text/terminal_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace gol::runner {

using nlohmann::json;

namespace {

constexpr std::string_view kFormat = "gol-replay";
constexpr int kVersion = 1;

// `v` as an integer within [lo, hi]; `what` names it in the error.
int int_in(const json& v, const std::string& what, int lo, int hi) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
        throw ReplayError(what + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    return v.get<int>();
}

int int_field(const json& j, const char* key, int lo, int hi) {
    return int_in(j.at(key), "\"" + std::string(key) + "\"", lo, hi);
}

ReplayHeader read_header(const json& j) {
    if (j.value("format", "") != kFormat) throw ReplayError("not a gol-replay file");
    if (j.value("version", 0) != kVersion)
        throw ReplayError("replay version " + std::to_string(j.value("version", 0)) + " is not supported");
    ReplayHeader h;
    for (int s = 0; s < 2; ++s) {
        h.bots[s] = j.at("bots").at(s).at("name").get<std::string>();
        h.hashes[s] = j.at("bots").at(s).value("hash", "");
    }
    h.config.width = int_field(j, "width", 1, Board::max_side);
    h.config.height = int_field(j, "height", 1, Board::max_side);
    h.config.generations = int_field(j, "generations", 1, GameConfig::max_generations);
    h.seed = j.value("seed", std::uint64_t{0});
    h.time_limit_ms = j.value("time_limit_ms", 1000);
    h.rules = j.value("rules", "");
    return h;
}

// A move as a game records it: a forfeit, or at most 30 cells, each on the board.
RecordedMove read_move(const json& j, const GameConfig& config) {
    RecordedMove m;
    if (j.is_object()) {
        ForfeitKind kind{};
        if (!forfeit_kind_from_name(j.at("forfeit").get<std::string>(), kind))
            throw ReplayError("unknown forfeit \"" + j.at("forfeit").get<std::string>() + "\"");
        m.forfeit = Forfeit{kind, j.value("detail", "")};
        return m;
    }
    if (!j.is_array()) throw ReplayError("a move must be a list of cells or a forfeit");
    if (j.size() > max_cells_per_move)
        throw ReplayError("a move of " + std::to_string(j.size()) + " cells; a move places at most " +
                          std::to_string(max_cells_per_move));
    for (const json& c : j) {
        if (!c.is_array() || c.size() != 2) throw ReplayError("a cell must be a pair [y, x]");
        m.applied.push_back({int_in(c[0], "a cell's y", 0, config.height - 1),
                             int_in(c[1], "a cell's x", 0, config.width - 1)});
    }
    return m;
}

GameResult read_result(const json& r, const GameConfig& config) {
    GameResult result;
    const json& winner = r.at("winner");
    result.verdict.winner_seat = winner.is_null() ? 0 : int_field(r, "winner", 1, 2);
    const std::string reason = r.at("reason").get<std::string>();
    if (reason != name(EndReason::extinction) && reason != name(EndReason::generations))
        throw ReplayError("unknown reason \"" + reason + "\"");
    result.verdict.reason = reason == name(EndReason::extinction) ? EndReason::extinction : EndReason::generations;
    result.generations = int_field(r, "generations", 1, config.generations);
    result.cells = {r.at("cells").at(0).get<std::int64_t>(), r.at("cells").at(1).get<std::int64_t>()};
    result.forfeits = {r.at("forfeits").at(0).get<int>(), r.at("forfeits").at(1).get<int>()};
    return result;
}

// Replays one seat's recorded moves, tick by tick.
class RecordedMover : public Mover {
public:
    RecordedMover(const Replay& replay, int seat) : replay_(replay), seat_(seat) {}
    MoveResult move(const std::string&) override {
        MoveResult r;
        // A result that does not end the game it records: playing on without moves could last
        // up to the generation limit, so re-simulation stops here.
        if (tick_ >= replay_.ticks.size())
            throw ReplayError("the game does not end after its " + std::to_string(replay_.ticks.size()) +
                              " recorded ticks, as the recorded result says: there is no move for tick " +
                              std::to_string(tick_));
        const RecordedMove& m = replay_.ticks[tick_++][seat_ - 1];
        if (m.forfeit) {
            r.forfeit = *m.forfeit;
        } else {
            r.ok = true;
            r.cells = m.applied;
        }
        return r;
    }

private:
    const Replay& replay_;
    int seat_;
    std::size_t tick_ = 0;
};

}  // namespace

json move_json(const std::vector<Cell>& applied, const std::optional<Forfeit>& forfeit) {
    if (forfeit) return {{"forfeit", name(forfeit->kind)}, {"detail", forfeit->detail}};
    json a = json::array();
    for (const Cell& c : applied) a.push_back({c.y, c.x});
    return a;
}

json header_json(const ReplayHeader& h) {
    return {{"format", kFormat},
                   {"version", kVersion},
                   {"rules", h.rules},
                   {"bots", {{{"name", h.bots[0]}, {"seat", 1}, {"hash", h.hashes[0]}},
                             {{"name", h.bots[1]}, {"seat", 2}, {"hash", h.hashes[1]}}}},
                   {"width", h.config.width},
                   {"height", h.config.height},
                   {"generations", h.config.generations},
                   {"seed", h.seed},
                   {"time_limit_ms", h.time_limit_ms}};
}

json result_json(const GameResult& r) {
    return {{"winner", r.verdict.winner_seat == 0 ? json(nullptr) : json(r.verdict.winner_seat)},
            {"reason", name(r.verdict.reason)},
            {"generations", r.generations},
            {"cells", {r.cells[0], r.cells[1]}},
            {"forfeits", {r.forfeits[0], r.forfeits[1]}}};
}

ReplayRecorder::ReplayRecorder(const ReplayHeader& header) : text_(json_text(header_json(header)) + "\n") {}

void ReplayRecorder::on_move(int tick, int seat, const SeatMove& move) {
    if (seat == 1) {
        tick_line_ = "{\"t\":" + std::to_string(tick) + ",\"moves\":[" + json_text(move_json(move.applied, move.forfeit));
        return;
    }
    text_ += tick_line_;
    text_ += ',';
    text_ += json_text(move_json(move.applied, move.forfeit));
    text_ += "]}\n";
}

void ReplayRecorder::finish(const GameResult& r) { text_ += json_text({{"result", result_json(r)}}) + "\n"; }

Replay read_replay(std::istream& in) {
    Replay replay;
    const GameConfig& config = replay.header.config;
    bool have_header = false, have_result = false;
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        try {
            json j = json::parse(line);
            if (!have_header) {
                replay.header = read_header(j);
                have_header = true;
            } else if (have_result) {
                throw ReplayError("a record after the result");
            } else if (j.contains("t")) {
                if (j.at("t").get<std::size_t>() != replay.ticks.size())
                    throw ReplayError("tick " + std::to_string(j.at("t").get<long>()) + " is out of order");
                // Each tick is one generation: a file cannot hold more than the header allows.
                if (replay.ticks.size() == static_cast<std::size_t>(config.generations))
                    throw ReplayError("more ticks than the header's " + std::to_string(config.generations) +
                                      " generations");
                replay.ticks.push_back({read_move(j.at("moves").at(0), config), read_move(j.at("moves").at(1), config)});
            } else if (j.contains("result")) {
                replay.result = read_result(j.at("result"), config);
                have_result = true;
            } else {
                throw ReplayError("unknown record");
            }
        } catch (const json::exception& e) {
            throw ReplayError("line " + std::to_string(line_no) + ": " + terminal_line(e.what()));
        } catch (const ReplayError& e) {
            throw ReplayError("line " + std::to_string(line_no) + ": " + terminal_line(e.what()));
        }
    }
    if (!have_header) throw ReplayError("empty file");
    if (!have_result) throw ReplayError("no result line: the game did not finish");
    // Every tick is one generation, and a game stopped by its limit played all of them.
    const GameResult& r = replay.result;
    if (replay.ticks.size() != static_cast<std::size_t>(r.generations))
        throw ReplayError("the result says " + std::to_string(r.generations) + " generations, but the file records " +
                          std::to_string(replay.ticks.size()) + " ticks");
    if (r.verdict.reason == EndReason::generations && r.generations != config.generations)
        throw ReplayError("the result says the game reached its generation limit after " +
                          std::to_string(r.generations) + " generations, but the header's limit is " +
                          std::to_string(config.generations));
    return replay;
}

GameResult resimulate(const Replay& replay, GameObserver& observer) {
    RecordedMover one(replay, 1), two(replay, 2);
    return play_game(one, two, replay.header.config, observer);
}

GameResult resimulate(const Replay& replay) {
    GameObserver none;
    return resimulate(replay, none);
}

Board board_at(const Replay& replay, int generation) {
    const int last = std::min<int>(replay.result.generations, static_cast<int>(replay.ticks.size()));
    if (generation < 0 || generation > last)
        throw ReplayError("generation " + std::to_string(generation) + " is not in the game: it has generations 0.." +
                          std::to_string(last));
    // The same order as play_game: seat 1 places, seat 2 places, then one generation.
    Board board(replay.header.config.height, replay.header.config.width);
    for (int t = 0; t < generation; ++t) {
        for (int seat = 1; seat <= 2; ++seat) {
            const RecordedMove& m = replay.ticks[t][seat - 1];
            if (!m.forfeit) board.place(seat == 1 ? Player::one : Player::two, m.applied);
        }
        board.step();
    }
    return board;
}

bool same_result(const GameResult& a, const GameResult& b) {
    return a.verdict.winner_seat == b.verdict.winner_seat && a.verdict.reason == b.verdict.reason &&
           a.generations == b.generations && a.cells == b.cells && a.forfeits == b.forfeits;
}

}  // namespace gol::runner
