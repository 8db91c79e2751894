// libFuzzer target: any bytes, cut anywhere, give the arena's reader the same messages or the same
// refusal as in one piece, every message it takes is written back as the bytes it came from,
// and nothing crashes.
#include "runner/tlv/tlv.hpp"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using gol::runner::tlv::Message;

struct Outcome {
    std::vector<Message> messages;
    std::optional<std::string> error;
    std::size_t held = 0;
};

// The first byte chooses the chunk sizes: the reader sees the rest cut at those places.
Outcome read(std::string_view input, unsigned cut) {
    gol::runner::tlv::Reader reader;
    Outcome out;
    std::size_t at = 0, step = 0;
    try {
        while (at < input.size()) {
            const std::size_t chunk = cut == 0 ? input.size() : 1 + ((cut >> (step++ % 8)) & 7);
            reader.feed(input.substr(at, chunk));
            at += chunk;
            while (auto m = reader.next()) out.messages.push_back(std::move(*m));
        }
        out.held = reader.held();
    } catch (const gol::runner::tlv::ProtocolError& e) {
        out.error = e.what();
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
    const Outcome whole = read(input, 0);
    const Outcome cut = read(input, data[0] | 1u);
    if (whole.messages != cut.messages || whole.error != cut.error || whole.held != cut.held) std::abort();
    std::string again;
    for (const Message& m : whole.messages) again += gol::runner::tlv::encode(m);
    if (input.substr(0, again.size()) != again) std::abort();
    return 0;
}
