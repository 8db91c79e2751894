#include "runner/game/play_and_record.hpp"

namespace gol::runner {

PlayedGame play_and_record(Mover& seat1, Mover& seat2, const ReplayHeader& header, GameObserver& also,
                           std::stop_token stop) {
    PlayedGame game;
    ReplayRecorder recorder(header);
    std::vector<GameObserver*> observers = {&recorder, &game.stats, &game.counts, &also};
    seat1.begin(1, header.bots[1]);
    seat2.begin(2, header.bots[0]);
    for (Mover* m : {&seat1, &seat2})
        if (GameObserver* w = m->watcher()) observers.push_back(w);
    Observers all(std::move(observers));
    const GameResult result = play_game(seat1, seat2, header.config, all, stop);
    seat1.end(result);
    seat2.end(result);
    recorder.finish(result);
    game.record = std::move(recorder.record());
    return game;
}

}  // namespace gol::runner
