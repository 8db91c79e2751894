// Times as the progress lines and `runner check` print them.
#include "runner/text/time_text.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;
using namespace std::chrono;

TEST_CASE("format_duration: seconds, then minutes and seconds, then hours and minutes") {
    CHECK(format_duration(seconds(0)) == "0s");
    CHECK(format_duration(seconds(59)) == "59s");
    CHECK(format_duration(seconds(60)) == "1m00s");
    CHECK(format_duration(seconds(185)) == "3m05s");
    CHECK(format_duration(seconds(3599)) == "59m59s");
    CHECK(format_duration(seconds(3600 + 2 * 60 + 59)) == "1h02m");
}

TEST_CASE("format_ms: milliseconds with one decimal") {
    CHECK(format_ms(microseconds(0)) == "0.0 ms");
    CHECK(format_ms(microseconds(18240)) == "18.2 ms");
    CHECK(format_ms(microseconds(1234567)) == "1234.6 ms");
}
