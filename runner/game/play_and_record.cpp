#include "runner/game/play_and_record.hpp"

namespace gol::runner {

PlayedGame play_and_record(Mover& seat1, Mover& seat2, const ReplayHeader& header, GameObserver& also,
                           std::stop_token stop) {
    PlayedGame game;
    ReplayRecorder recorder(header);
    Observers all({&recorder, &game.stats, &game.counts, &also});
    recorder.finish(play_game(seat1, seat2, header.config, all, stop));
    game.record = std::move(recorder.record());
    return game;
}

}  // namespace gol::runner
