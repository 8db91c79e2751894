#include "runner/game/replay.hpp"
#include "runner/game/protocol.hpp"
#include "runner/text/json_text.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <climits>
#include <optional>

namespace gol::runner {

using nlohmann::json;

namespace {

constexpr std::string_view kFormat = "gol-replay";
constexpr int kVersion = 1;

int int_field(const json& j, const char* key, int lo, int hi) { return static_cast<int>(integer(field(j, key), key, lo, hi)); }

// Replays one seat's recorded moves, tick by tick, encoding nothing.
class RecordedMover : public Mover {
public:
    RecordedMover(const Replay& replay, int seat) : replay_(replay), seat_(seat) {}
    MoveReport move(const Board&, int, int tick) override {
        // A result that does not end the game it records: playing on without moves could last
        // up to the generation limit, so re-simulation stops here.
        if (static_cast<std::size_t>(tick) >= replay_.ticks.size())
            throw ReplayError("the game does not end after its " + std::to_string(replay_.ticks.size()) +
                              " recorded ticks, as the recorded result says: there is no move for tick " +
                              std::to_string(tick));
        MoveReport r;
        static_cast<Move&>(r) = replay_.ticks[static_cast<std::size_t>(tick)][seat_ - 1];
        return r;
    }

private:
    const Replay& replay_;
    int seat_;
};

}  // namespace

void to_json(json& j, const ReplayHeader& h) {
    j = {{"format", kFormat},
         {"version", kVersion},
         {"rules", h.rules},
         {"bots", {{{"name", h.bots[0]}, {"seat", 1}, {"hash", h.hashes[0]}},
                   {{"name", h.bots[1]}, {"seat", 2}, {"hash", h.hashes[1]}}}},
         {"width", h.config.width},
         {"height", h.config.height},
         {"generations", h.config.generations},
         {"seed", h.seed},
         {"time_limit_ms", h.time_limit_ms}};
    if (h.config.clock_s > 0) j["clock_s"] = h.config.clock_s;
    if (h.config.time_bank_s > 0) j["time_bank_s"] = h.config.time_bank_s;
    if (h.gol_seed) j["gol_seed"] = *h.gol_seed;
    if (h.startup_limit_ms) j["startup_limit_ms"] = *h.startup_limit_ms;
    if (h.cpu_time) j["time_mode"] = *h.cpu_time ? "cpu" : "wall";
}

void from_json(const json& j, ReplayHeader& h) {
    if (j.value("format", "") != kFormat) throw RecordError("not a gol-replay file");
    if (j.value("version", 0) != kVersion)
        throw RecordError("replay version " + std::to_string(j.value("version", 0)) + " is not supported");
    for (int s = 0; s < 2; ++s) {
        h.bots[s] = j.at("bots").at(s).at("name").get<std::string>();
        h.hashes[s] = j.at("bots").at(s).value("hash", "");
    }
    h.config.width = int_field(j, "width", 1, Board::max_side);
    h.config.height = int_field(j, "height", 1, Board::max_side);
    h.config.generations = int_field(j, "generations", 1, GameConfig::max_generations);
    // Only an arena game with --clock has one.
    h.config.clock_s = j.contains("clock_s") ? int_field(j, "clock_s", 1, 86400) : 0;
    // Only a game with a time bank has one.
    h.config.time_bank_s = j.contains("time_bank_s") ? int_field(j, "time_bank_s", 1, GameConfig::max_time_bank_s) : 0;
    h.seed = j.value("seed", std::uint64_t{0});
    h.time_limit_ms = j.value("time_limit_ms", 1000);
    h.rules = j.value("rules", "");
    if (j.contains("gol_seed")) {
        // A JSON reader keeps a non-negative integer unsigned: the whole range of a seed.
        if (!j["gol_seed"].is_number_unsigned()) throw RecordError("\"gol_seed\" must be an integer from 0 to 2^64-1");
        h.gol_seed = j["gol_seed"].get<std::uint64_t>();
    }
    if (j.contains("startup_limit_ms")) h.startup_limit_ms = int_field(j, "startup_limit_ms", 0, 600'000);
    if (j.contains("time_mode")) {
        const std::string mode = string_value(j["time_mode"], "time_mode");
        if (mode != "wall" && mode != "cpu") throw RecordError("\"time_mode\" is \"" + mode + "\", not \"wall\" or \"cpu\"");
        h.cpu_time = mode == "cpu";
    }
}

void to_json(json& j, const Move& m) {
    if (m.forfeit) {
        j = {{"forfeit", name(m.forfeit->kind)}, {"detail", m.forfeit->detail}};
        return;
    }
    j = json::array();
    for (const Cell& c : m.cells) j.push_back({c.y, c.x});
}

void from_json(const json& j, Move& m) {
    m = {};
    if (j.is_object()) {
        const std::string kind = string_value(field(j, "forfeit"), "forfeit");
        const std::optional<ForfeitKind> known = forfeit_kind_from_name(kind);
        if (!known) throw RecordError("unknown forfeit \"" + kind + "\"");
        m.forfeit = Forfeit{*known, j.contains("detail") ? string_value(j["detail"], "detail") : ""};
        return;
    }
    if (!j.is_array()) throw RecordError("a move must be a list of cells or a forfeit");
    if (j.size() > max_cells_per_move)
        throw RecordError("a move of " + std::to_string(j.size()) + " cells; a move places at most " +
                          std::to_string(max_cells_per_move));
    for (const json& c : j) {
        if (!c.is_array() || c.size() != 2) throw RecordError("a cell must be a pair [y, x]");
        m.cells.push_back({static_cast<int>(integer(c[0], "y", INT_MIN, INT_MAX)),
                           static_cast<int>(integer(c[1], "x", INT_MIN, INT_MAX))});
    }
}

void to_json(json& j, const GameResult& r) {
    j = {{"winner", r.verdict.winner_seat == 0 ? json(nullptr) : json(r.verdict.winner_seat)},
         {"reason", name(r.verdict.reason)},
         {"generations", r.generations},
         {"cells", r.cells},
         {"forfeits", r.forfeits}};
}

void from_json(const json& j, GameResult& r) {
    r = {};
    const std::string reason = string_value(field(j, "reason"), "reason");
    const std::optional<EndReason> known = end_reason_from_name(reason);
    if (!known) throw RecordError("\"reason\" is \"" + reason + "\", not \"extinction\", \"generations\" or \"forfeit\"");
    r.verdict.reason = *known;
    const json& winner = field(j, "winner");
    if (!winner.is_null() && !(winner.is_number_integer() && (winner == 1 || winner == 2)))
        throw RecordError("\"winner\" is " + json_text(winner) + ", not 1, 2 or null");
    r.verdict.winner_seat = winner.is_null() ? 0 : winner.get<int>();
    // Whether these fit the game is for the reader of the whole, which knows the game.
    r.generations = static_cast<int>(integer(field(j, "generations"), "generations", INT_MIN, INT_MAX));
    for (int s = 0; s < 2; ++s) {
        r.cells[s] = integer(seat_pair(j, "cells")[s], "cells", INT64_MIN, INT64_MAX);
        r.forfeits[s] = static_cast<int>(integer(seat_pair(j, "forfeits")[s], "forfeits", INT_MIN, INT_MAX));
    }
}

std::string replay_text(const Replay& replay) {
    std::string text = json_text(replay.header) + "\n";
    for (std::size_t t = 0; t < replay.ticks.size(); ++t) {
        // Written by hand for the order of its keys, "t" first, as a reader of the file expects.
        text += "{\"t\":" + std::to_string(t) + ",\"moves\":[";
        text += json_text(replay.ticks[t][0]);
        text += ',';
        text += json_text(replay.ticks[t][1]);
        text += "]}\n";
    }
    return text + json_text({{"result", replay.result}}) + "\n";
}

void ReplayRecorder::on_move(int, int seat, const MoveReport& move) {
    if (seat == 1) replay_.ticks.emplace_back();
    replay_.ticks.back()[seat - 1] = move;
}

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
                replay.header = j.get<ReplayHeader>();
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
                std::array<Move, 2> tick = {j.at("moves").at(0).get<Move>(), j.at("moves").at(1).get<Move>()};
                // What a file's move must also be: on the board the header names.
                for (const Move& m : tick)
                    for (const Cell& c : m.cells)
                        if (c.y < 0 || c.y >= config.height || c.x < 0 || c.x >= config.width)
                            throw ReplayError("the cell [" + std::to_string(c.y) + ", " + std::to_string(c.x) +
                                              "] is not on the header's " + std::to_string(config.width) + "x" +
                                              std::to_string(config.height) + " board");
                replay.ticks.push_back(std::move(tick));
            } else if (j.contains("result")) {
                replay.result = j.at("result").get<GameResult>();
                integer(replay.result.generations, "generations", 1, config.generations);
                have_result = true;
            } else {
                throw ReplayError("unknown record");
            }
        } catch (const std::exception& e) {  // json's own, ReplayError, RecordError
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
    if (r.verdict.reason == EndReason::clock && config.clock_s == 0)
        throw ReplayError("the result says the game's clock ran out, but the header gives it no clock");
    if (r.verdict.reason == EndReason::forfeit) {
        const auto loser_disconnected = [&] {
            const std::optional<Forfeit>& last = replay.ticks.back()[2 - r.verdict.winner_seat].forfeit;
            return last && last->kind == ForfeitKind::disconnected;
        };
        if (r.verdict.winner_seat == 0 || !loser_disconnected())
            throw ReplayError("the result says the game ended by forfeit, but its last tick holds no disconnection of "
                              "the losing seat");
    }
    return replay;
}

GameResult resimulate(const Replay& replay, GameObserver& observer) {
    RecordedMover one(replay, 1), two(replay, 2);
    if (replay.result.verdict.reason != EndReason::clock) return play_game(one, two, replay.header.config, observer);
    // A clock's end is where the record says it came: played again as a limit of generations.
    Board board(replay.header.config.height, replay.header.config.width);
    GameResult result = play_game(board, one, two, replay.result.generations, observer);
    if (result.verdict.reason == EndReason::generations) result.verdict.reason = EndReason::clock;
    return result;
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
    Board board(replay.header.config.height, replay.header.config.width);
    if (generation == 0) return board;
    // The game played again with its limit at `generation`: before it no side was extinct, or
    // the game would have ended there.
    RecordedMover one(replay, 1), two(replay, 2);
    GameObserver none;
    play_game(board, one, two, generation, none);
    return board;
}

std::string board_sent(const Replay& replay, int tick, int seat) {
    const int ticks = std::min<int>(replay.result.generations, static_cast<int>(replay.ticks.size()));
    if (tick < 0 || tick >= ticks)
        throw ReplayError("tick " + std::to_string(tick) + " is not in the game: it has ticks 0.." +
                          std::to_string(ticks - 1));
    if (seat != 1 && seat != 2) throw ReplayError("seat " + std::to_string(seat) + ": a seat is 1 or 2");
    const Move& first = replay.ticks[static_cast<std::size_t>(tick)][0];
    // The game loop does not ask seat 2 once seat 1 is disconnected: it was sent nothing.
    if (seat == 2 && first.forfeit && first.forfeit->kind == ForfeitKind::disconnected) return "";
    // Seat 2 sees seat 1's cells of the tick, placed as the game loop places them.
    Board board = board_at(replay, tick);
    if (seat == 2) board.place(Player::one, first.cells);
    std::string json;
    encode_board(board, seat, tick, json);
    return json;
}

bool same_result(const GameResult& a, const GameResult& b) {
    return a.verdict.winner_seat == b.verdict.winner_seat && a.verdict.reason == b.verdict.reason &&
           a.generations == b.generations && a.cells == b.cells && a.forfeits == b.forfeits;
}

std::vector<ForfeitRun> forfeit_runs(const std::vector<std::array<Move, 2>>& ticks) {
    std::vector<ForfeitRun> runs;
    for (int seat = 1; seat <= 2; ++seat)
        for (int tick = 0; tick < static_cast<int>(ticks.size()); ++tick) {
            const std::optional<Forfeit>& f = ticks[static_cast<std::size_t>(tick)][static_cast<std::size_t>(seat - 1)].forfeit;
            if (!f) continue;
            // The run of the tick before, of the same seat and reason, goes on.
            ForfeitRun* last = runs.empty() ? nullptr : &runs.back();
            if (last && last->seat == seat && last->last_tick == tick - 1 && last->forfeit.kind == f->kind) ++last->last_tick;
            else runs.push_back({seat, tick, tick, *f});
        }
    std::stable_sort(runs.begin(), runs.end(), [](const ForfeitRun& a, const ForfeitRun& b) {
        return a.first_tick != b.first_tick ? a.first_tick < b.first_tick : a.seat < b.seat;
    });
    return runs;
}

std::string ticks_text(const ForfeitRun& run) {
    if (run.first_tick == run.last_tick) return "tick " + std::to_string(run.first_tick);
    return "ticks " + std::to_string(run.first_tick) + "-" + std::to_string(run.last_tick);
}

}  // namespace gol::runner
