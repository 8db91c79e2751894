#include "runner/text/time_text.hpp"

#include <cstdio>
#include <ctime>

namespace gol::runner {

std::string format_duration(std::chrono::seconds s) {
    long t = s.count();
    char buf[32];
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    else std::snprintf(buf, sizeof buf, "%lds", t);
    return buf;
}

std::string format_ms(std::chrono::microseconds t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f ms", t.count() / 1000.0);
    return buf;
}

std::string utc_timestamp(std::chrono::system_clock::time_point t, const char* format) {
    const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[64];
    return std::string(text, std::strftime(text, sizeof text, format, &tm));
}

}  // namespace gol::runner
