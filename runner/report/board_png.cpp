#include "runner/report/board_png.hpp"

#include <png.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gol::runner {

namespace {

using Rgb = std::array<std::uint8_t, 3>;
// The viewer's colours: the dark board, the lines between cells, seat 1, seat 2.
constexpr Rgb kBackground{16, 20, 26}, kGrid{30, 36, 45}, kSeat1{77, 163, 255}, kSeat2{255, 122, 69};

}  // namespace

int png_cell_size(const Board& board) { return std::clamp(2000 / std::max(board.width(), board.height()), 1, 16); }

std::string board_png(const Board& board) {
    const int scale = png_cell_size(board);
    // From 4 pixels a cell up, a line between cells keeps neighbours apart.
    const int gap = scale >= 4 ? 1 : 0;
    const std::size_t width = static_cast<std::size_t>(board.width()) * scale;
    const std::size_t height = static_cast<std::size_t>(board.height()) * scale;
    std::vector<std::uint8_t> pixels(width * height * 3);
    // Cell (y, x)'s square, the line's pixels on its right and below left as they are.
    auto paint = [&](std::size_t y, std::size_t x, Rgb colour) {
        for (std::size_t py = y * scale; py < (y + 1) * scale - gap; ++py)
            for (std::size_t px = x * scale; px < (x + 1) * scale - gap; ++px)
                std::copy(colour.begin(), colour.end(), &pixels[(py * width + px) * 3]);
    };
    for (std::size_t i = 0; i < pixels.size(); i += 3) std::copy(kGrid.begin(), kGrid.end(), &pixels[i]);
    for (int y = 0; y < board.height(); ++y)
        for (int x = 0; x < board.width(); ++x) paint(y, x, kBackground);
    std::vector<LiveCell> cells;
    board.live_cells(cells);
    for (const LiveCell& c : cells) paint(c.y, c.x, c.owner == Player::one ? kSeat1 : kSeat2);

    png_image image{};
    // libpng's own state for the image, released however we leave.
    const std::unique_ptr<png_image, void (*)(png_imagep)> release(&image, &png_image_free);
    image.version = PNG_IMAGE_VERSION;
    image.width = static_cast<png_uint_32>(width);
    image.height = static_cast<png_uint_32>(height);
    image.format = PNG_FORMAT_RGB;
    png_alloc_size_t size = 0;
    // First call: the size needed; second: the bytes.
    if (!png_image_write_to_memory(&image, nullptr, &size, 0, pixels.data(), 0, nullptr))
        throw std::runtime_error(std::string("libpng: ") + image.message);
    std::string out(size, '\0');
    if (!png_image_write_to_memory(&image, out.data(), &size, 0, pixels.data(), 0, nullptr))
        throw std::runtime_error(std::string("libpng: ") + image.message);
    out.resize(size);
    return out;
}

}  // namespace gol::runner
