// Fills its half of the board (seat 1 the top, seat 2 the bottom) with blocks, 7 a tick, on a
// lattice of period 4, where no empty cell ever has three live neighbours: nothing is born and
// nothing dies. Where the next blocks go depends on how many of its own cells it counts on the
// board, so a board that arrived cut short changes its moves. The board is the last argument,
// or stdin when there is none (the stdin protocol).
#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
    std::string board = argc > 1 ? std::string(argv[argc - 1])
                                 : std::string(std::istreambuf_iterator<char>(std::cin), {});
    auto field = [&](const std::string& key) {
        std::size_t at = board.find("\"" + key + "\":");
        return at == std::string::npos ? -1 : std::stoi(board.substr(at + key.size() + 3));
    };
    const int height = field("y_size"), width = field("x_size"), me = field("bot_id");
    const std::string mine = ")\":" + std::to_string(me);
    long own = 0;
    for (std::size_t at = board.find(mine); at != std::string::npos; at = board.find(mine, at + 1)) ++own;
    const int columns = width / 4, rows = height / 8;
    const long first = own / 4;
    std::string reply = "[";
    for (long slot = first; slot < first + 7 && slot < long(rows) * columns; ++slot) {
        const int y = int(slot / columns) * 4 + (me == 2 ? height / 2 : 0), x = int(slot % columns) * 4;
        for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx)
                reply += (reply.size() > 1 ? ",[" : "[") + std::to_string(y + dy) + "," + std::to_string(x + dx) + "]";
    }
    std::cout << reply << "]\n";
}
