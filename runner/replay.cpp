#include "runner/replay.hpp"
#include "runner/json_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace gol::runner {

using nlohmann::json;

namespace {

constexpr std::string_view kFormat = "gol-replay";
constexpr int kVersion = 1;

RecordedMove read_move(const json& j) {
    RecordedMove m;
    if (j.is_object()) {
        ForfeitKind kind{};
        if (!forfeit_kind_from_name(j.at("forfeit").get<std::string>(), kind))
            throw ReplayError("unknown forfeit \"" + j.at("forfeit").get<std::string>() + "\"");
        m.forfeit = Forfeit{kind, j.value("detail", "")};
        return m;
    }
    for (const json& c : j) m.applied.push_back({c.at(0).get<int>(), c.at(1).get<int>()});
    return m;
}

// Replays one seat's recorded moves, tick by tick.
class RecordedMover : public Mover {
public:
    RecordedMover(const Replay& replay, int seat) : replay_(replay), seat_(seat) {}
    MoveResult move(const std::string&) override {
        MoveResult r;
        if (tick_ >= replay_.ticks.size()) {
            r.forfeit = {ForfeitKind::protocol, "the replay has no move for this tick"};
            return r;
        }
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
    bool have_result = false;
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        try {
            json j = json::parse(line);
            if (line_no == 1) {
                if (j.value("format", "") != kFormat) throw ReplayError("not a gol-replay file");
                if (j.value("version", 0) != kVersion)
                    throw ReplayError("replay version " + std::to_string(j.value("version", 0)) + " is not supported");
                ReplayHeader& h = replay.header;
                for (int s = 0; s < 2; ++s) {
                    h.bots[s] = j.at("bots").at(s).at("name").get<std::string>();
                    h.hashes[s] = j.at("bots").at(s).value("hash", "");
                }
                h.config.width = j.at("width").get<int>();
                h.config.height = j.at("height").get<int>();
                h.config.generations = j.at("generations").get<int>();
                h.seed = j.value("seed", std::uint64_t{0});
                h.time_limit_ms = j.value("time_limit_ms", 1000);
                h.rules = j.value("rules", "");
            } else if (j.contains("t")) {
                if (j.at("t").get<std::size_t>() != replay.ticks.size())
                    throw ReplayError("tick " + std::to_string(j.at("t").get<long>()) + " is out of order");
                replay.ticks.push_back({read_move(j.at("moves").at(0)), read_move(j.at("moves").at(1))});
            } else if (j.contains("result")) {
                const json& r = j.at("result");
                replay.result.verdict.winner_seat = r.at("winner").is_null() ? 0 : r.at("winner").get<int>();
                replay.result.verdict.reason =
                    r.at("reason").get<std::string>() == "extinction" ? EndReason::extinction : EndReason::generations;
                replay.result.generations = r.at("generations").get<int>();
                replay.result.cells = {r.at("cells").at(0).get<std::int64_t>(), r.at("cells").at(1).get<std::int64_t>()};
                replay.result.forfeits = {r.at("forfeits").at(0).get<int>(), r.at("forfeits").at(1).get<int>()};
                have_result = true;
            } else {
                throw ReplayError("unknown record");
            }
        } catch (const json::exception& e) {
            throw ReplayError("line " + std::to_string(line_no) + ": " + e.what());
        } catch (const ReplayError& e) {
            throw ReplayError("line " + std::to_string(line_no) + ": " + e.what());
        }
    }
    if (line_no == 0) throw ReplayError("empty file");
    if (!have_result) throw ReplayError("no result line: the game did not finish");
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
