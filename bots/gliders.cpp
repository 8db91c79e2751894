// Launches gliders at the enemy: up to six a turn, aimed from its own side at the enemy's
// centre of mass, at launch spots that change every turn so they never run into each other.
// No JSON library: the board's format is fixed, so a small scanner reads it.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

struct State {
    int h = 0, w = 0, me = 1, tick = 0;
    std::set<std::pair<int, int>> mine, theirs;
};

long number_after(const std::string& s, const char* key) {
    std::size_t at = s.find(key);
    return at == std::string::npos ? 0 : std::strtol(s.c_str() + at + std::string(key).size(), nullptr, 10);
}

State parse(const std::string& s) {
    State st;
    st.h = static_cast<int>(number_after(s, "\"y_size\":"));
    st.w = static_cast<int>(number_after(s, "\"x_size\":"));
    st.me = static_cast<int>(number_after(s, "\"bot_id\":"));
    st.tick = static_cast<int>(number_after(s, "\"tick_id\":"));
    std::size_t at = s.find("\"board\":{");
    if (at == std::string::npos) return st;
    const char* p = s.c_str() + at + 9;
    while (*p == '"') {  // "(y,x)":id
        char* end;
        long y = std::strtol(p + 2, &end, 10);
        long x = std::strtol(end + 1, &end, 10);
        long id = std::strtol(end + 3, &end, 10);
        (id == st.me ? st.mine : st.theirs).insert({static_cast<int>(y), static_cast<int>(x)});
        p = end;
        if (*p == ',') ++p;
    }
    return st;
}

std::pair<double, double> centre(const std::set<std::pair<int, int>>& cells, std::pair<double, double> otherwise) {
    if (cells.empty()) return otherwise;
    double y = 0, x = 0;
    for (auto [cy, cx] : cells) y += cy, x += cx;
    return {y / cells.size(), x / cells.size()};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const State st = parse(argv[1]);
    const std::pair<double, double> home = st.me == 1 ? std::pair{st.h * 0.2, st.w * 0.2}
                                                      : std::pair{st.h * 0.8, st.w * 0.8};
    const auto [oy, ox] = centre(st.mine, home);
    const auto [ey, ex] = centre(st.theirs, std::pair{st.h - home.first, st.w - home.second});
    const int dy = ey >= oy ? 1 : -1, dx = ex >= ox ? 1 : -1;
    // A glider moving (+1, +1), mirrored into the direction wanted.
    const int base[5][2] = {{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}};
    auto occupied = [&](int y, int x) { return st.mine.count({y, x}) > 0 || st.theirs.count({y, x}) > 0; };
    std::vector<std::pair<int, int>> move;
    // Launch spots: a line across the line of fire, shifted every turn.
    for (int k = -3; k <= 3 && move.size() < 30; ++k) {
        const int lateral = k * 7 + (st.tick % 7);
        const int y0 = static_cast<int>(oy) + dy * 6 + lateral * dx;
        const int x0 = static_cast<int>(ox) + dx * 6 - lateral * dy;
        if (y0 < 0 || x0 < 0 || y0 + 2 >= st.h || x0 + 2 >= st.w) continue;
        // Room around it, or it collides at birth.
        bool clear = true;
        for (int y = y0 - 2; y <= y0 + 4 && clear; ++y)
            for (int x = x0 - 2; x <= x0 + 4 && clear; ++x) clear = !occupied(y, x);
        if (!clear) continue;
        for (auto& c : base) move.push_back({y0 + (dy > 0 ? c[0] : 2 - c[0]), x0 + (dx > 0 ? c[1] : 2 - c[1])});
    }
    std::string out = "[";
    for (std::size_t i = 0; i < move.size(); ++i)
        out += (i ? ",[" : "[") + std::to_string(move[i].first) + "," + std::to_string(move[i].second) + "]";
    std::puts((out + "]").c_str());
}
