// Times as people read them, in progress lines and reports.
#pragma once

#include <chrono>
#include <string>

namespace gol::runner {

// "1h02m", "3m05s", "12s".
std::string format_duration(std::chrono::seconds s);

// "18.2 ms".
std::string format_ms(std::chrono::microseconds t);

}  // namespace gol::runner
