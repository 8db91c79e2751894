// The 2014 arena's type-length-value protocol (docs/arena.md): one writer and one incremental
// reader, for the server and any client of it. It knows no sockets: bytes in, messages out.
#pragma once

#include "engine/board.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner::tlv {

inline constexpr std::size_t max_identification = 250;
inline constexpr std::size_t max_pairs = 30;
inline constexpr std::size_t header_size = 2;  // type, length

enum class Type : char {
    identification = 'I',  // client -> server: who plays, UTF-8, 1 to 250 bytes
    start = 'S',           // server -> client: the opponent's identification
    move = 'M',            // both ways: 0 to 30 pairs of 16-bit X then Y, network order
    generation = 'G',      // server -> client: evolve one generation
    turn = 'T',            // server -> client: answer with one M
    bye = 'B',             // server -> client: your live cells, the opponent's
};

struct Message {
    Type type = Type::generation;
    std::string text;                       // I, S
    std::vector<Cell> cells;                // M, in the order sent
    std::array<std::uint32_t, 2> counts{};  // B: the receiver's cells, then the opponent's
    friend bool operator==(const Message&, const Message&) = default;
};

// A message that breaks the protocol: what is wrong, in words a client's author can act on.
struct ProtocolError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The writer. Each returns the message's bytes. They throw std::invalid_argument for what the
// protocol cannot carry (a text of other lengths than its type allows or not UTF-8, more than 30
// cells, a coordinate outside 0..65535), so nothing invalid is ever sent.
std::string identification(std::string_view text);
std::string start(std::string_view opponent);
std::string move(std::span<const Cell> cells);
std::string generation();
std::string turn();
std::string bye(std::uint32_t own, std::uint32_t other);
std::string encode(const Message& message);

// The reader: bytes go in as they arrive, cut anywhere; whole messages come out, each checked
// against its type's rules (docs/arena.md). After a ProtocolError the reader is spent and keeps
// throwing it: a connection that broke the protocol is closed.
class Reader {
public:
    void feed(std::string_view bytes);
    // The next whole message, or none while its bytes are not all here.
    std::optional<Message> next();
    // Bytes received and not yet taken as a message: a connection that closes or stalls with
    // some held stopped in the middle of one.
    std::size_t held() const { return buffer_.size() - taken_; }

private:
    std::string buffer_;
    std::size_t taken_ = 0;
    std::optional<std::string> error_;
};

}  // namespace gol::runner::tlv
