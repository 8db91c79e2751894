// Times as people read them, in progress lines and reports.
#pragma once

#include <chrono>
#include <string>

namespace gol::runner {

// "1h02m", "3m05s", "12s".
std::string format_duration(std::chrono::seconds s);

// "18.2 ms".
std::string format_ms(std::chrono::microseconds t);

// A time in UTC by strftime's `format`: by default as records keep a start
// ("2026-11-27T03:17:02Z").
std::string utc_timestamp(std::chrono::system_clock::time_point t, const char* format = "%Y-%m-%dT%H:%M:%SZ");

}  // namespace gol::runner
