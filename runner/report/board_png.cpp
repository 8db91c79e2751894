#include "runner/report/board_png.hpp"

#include <png.h>

#include <algorithm>
#include <array>
#include <cstdint>
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
    auto paint = [&](std::size_t x0, std::size_t y0, std::size_t size, Rgb colour) {
        for (std::size_t y = y0; y < y0 + size; ++y)
            for (std::size_t x = x0; x < x0 + size; ++x) std::copy(colour.begin(), colour.end(), &pixels[(y * width + x) * 3]);
    };
    for (std::size_t y = 0; y < height; ++y)
        for (std::size_t x = 0; x < width; ++x) {
            const bool line = gap && (x % scale == static_cast<std::size_t>(scale - 1) || y % scale == static_cast<std::size_t>(scale - 1));
            std::copy_n((line ? kGrid : kBackground).begin(), 3, &pixels[(y * width + x) * 3]);
        }
    std::vector<LiveCell> cells;
    board.live_cells(cells);
    for (const LiveCell& c : cells)
        paint(static_cast<std::size_t>(c.x) * scale, static_cast<std::size_t>(c.y) * scale, scale - gap,
              c.owner == Player::one ? kSeat1 : kSeat2);

    png_image image{};
    // libpng's own state for the image, released however we leave.
    struct Release {
        png_image& image;
        ~Release() { png_image_free(&image); }
    } release{image};
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
