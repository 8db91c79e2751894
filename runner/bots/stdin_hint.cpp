#include "runner/bots/stdin_hint.hpp"

#include <algorithm>
#include <array>

namespace gol::runner {

std::optional<std::string> stdin_hint(Protocol protocol, std::string_view err) {
    if (protocol != Protocol::argv) return std::nullopt;
    // What each language says when it parses the empty stdin an argv bot gets, or reads past its end.
    static constexpr std::array<std::string_view, 8> signs = {
        "Expecting value: line 1 column 1 (char 0)",  // Python's json.load(sys.stdin)
        "EOFError",                                   // Python's input()
        "sys.stdin",
        "STDIN",                                      // Ruby's STDIN.read, Perl's <STDIN>
        "$stdin",
        "unexpected end of input",                    // Ruby's JSON.parse("")
        "Unexpected end of JSON input",               // Node's JSON.parse("")
        "readFileSync(0",                             // Node reading stdin
    };
    if (std::none_of(signs.begin(), signs.end(), [&](std::string_view s) { return err.find(s) != err.npos; }))
        return std::nullopt;
    return std::string("it seems to read the board from stdin, which an argv bot gets empty: the board is its last "
                       "command-line argument (Python: sys.argv[1]); or give it a bot.json with \"protocol\": \"stdin\" "
                       "(docs/protocol.md)");
}

}  // namespace gol::runner
