// Widths: the terminal's, a text's, and text cut to a width with a mark, never inside a character.
#include "runner/sys/unique_fd.hpp"
#include "runner/text/text_width.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/ioctl.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

using namespace gol::runner;

namespace {

// $COLUMNS set (or unset) for one test, and put back after it.
class ColumnsEnv {
public:
    explicit ColumnsEnv(const char* value) {
        if (const char* old = std::getenv("COLUMNS")) old_ = old;
        if (value) ::setenv("COLUMNS", value, 1);
        else ::unsetenv("COLUMNS");
    }
    ~ColumnsEnv() {
        if (old_) ::setenv("COLUMNS", old_->c_str(), 1);
        else ::unsetenv("COLUMNS");
    }

private:
    std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("text_width counts an ASCII byte as one column and any other character as two") {
    CHECK(text_width("") == 0);
    CHECK(text_width("short") == 5);
    CHECK(text_width("a\xc3\xa9z") == 4);             // é: two bytes, two columns
    CHECK(text_width("\xe6\x97\xa5") == 2);           // 日: three bytes, two columns
    CHECK(text_width("ab\xf0\x9f\x98\x80") == 4);     // an emoji: four bytes, two columns
    CHECK(text_width("\xff") == 2);                   // a byte that is no character is as wide as one
}

TEST_CASE("cut_text cuts at the width, never inside a UTF-8 character, counting one as two columns") {
    CHECK(cut_text("short", 80) == "short");
    CHECK(cut_text("0123456789", 4) == "0123");
    CHECK(cut_text("0123456789", 0).empty());
    // "é" is two bytes; counted as two columns, it fits in 3 after "a" but not in 2.
    CHECK(cut_text("a\xc3\xa9z", 3) == "a\xc3\xa9");
    CHECK(cut_text("a\xc3\xa9z", 2) == "a");
    // A four-byte character is kept whole or left out, never cut.
    CHECK(cut_text("ab\xf0\x9f\x98\x80", 3) == "ab");
    CHECK(cut_text("ab\xf0\x9f\x98\x80", 4) == "ab\xf0\x9f\x98\x80");
}

TEST_CASE("cut_text marks a cut within the width, and leaves text that fits whole") {
    CHECK(cut_text("0123456789", 10, "...") == "0123456789");
    CHECK(cut_text("0123456789", 9, "...") == "012345...");
    CHECK(cut_text("0123456789", 5, "~") == "0123~");
    CHECK(cut_text("abc\xc3\xa9zzz", 7, "...") == "abc...");  // the mark leaves 4 columns; "é" would make 5
    // No room for any text: the mark alone says something was there.
    CHECK(cut_text("0123456789", 2, "...") == "...");
}

TEST_CASE("terminal_columns reads the terminal's width, then $COLUMNS, then takes 80") {
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file{std::tmpfile(), &std::fclose};
    REQUIRE(file);
    {
        ColumnsEnv env(nullptr);
        CHECK(terminal_columns(::fileno(file.get())) == 80);
    }
    {
        ColumnsEnv env("132");
        CHECK(terminal_columns(::fileno(file.get())) == 132);
    }
    {
        ColumnsEnv env("wide");
        CHECK(terminal_columns(::fileno(file.get())) == 80);
    }
    // A pseudo-terminal 37 columns wide wins over $COLUMNS.
    UniqueFd master(::posix_openpt(O_RDWR | O_NOCTTY));
    REQUIRE(master);
    REQUIRE(::grantpt(master.get()) == 0);
    REQUIRE(::unlockpt(master.get()) == 0);
    UniqueFd tty(::open(::ptsname(master.get()), O_RDWR | O_NOCTTY));
    REQUIRE(tty);
    winsize size{};
    size.ws_row = 24;
    size.ws_col = 37;
    REQUIRE(::ioctl(tty.get(), TIOCSWINSZ, &size) == 0);
    ColumnsEnv env("132");
    CHECK(terminal_columns(tty.get()) == 37);
}
