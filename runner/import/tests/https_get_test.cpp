// The HTTP client without the network: a file:// URL, and a local port nobody listens on.
#include "runner/import/https_get.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/sys/unique_fd.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <fstream>

using namespace gol::runner;

namespace {

// A loopback port that was free a moment ago: bound, then closed.
int closed_port() {
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    REQUIRE(fd);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    socklen_t len = sizeof addr;
    REQUIRE(::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    return ntohs(addr.sin_port);
}

}  // namespace

TEST_CASE("https_get: a file:// URL gives the file's bytes") {
    TempDir dir("https-get-file");
    const std::string text = "{\"items\":[],\"has_more\":false}\n";
    std::ofstream(dir.path() / "page.json", std::ios::binary) << text;
    const HttpResponse r = https_get("file://" + (dir.path() / "page.json").string());
    CHECK(r.body == text);
    CHECK_THROWS_AS(https_get("file://" + (dir.path() / "missing.json").string()), FetchError);
}

TEST_CASE("https_get: nobody answering is a FetchError naming the URL and the reason") {
    const std::string url = "https://127.0.0.1:" + std::to_string(closed_port()) + "/answers";
    try {
        https_get(url);
        FAIL("no error");
    } catch (const FetchError& e) {
        const std::string message = e.what();
        CHECK(message.starts_with("cannot fetch " + url + ": "));
        CHECK(message.ends_with("(offline, or the host is down?)"));
    }
    // Plain http is refused before any connection.
    CHECK_THROWS_WITH_AS(https_get("http://127.0.0.1:" + std::to_string(closed_port()) + "/x"),
                         doctest::Contains("Protocol \"http\" not supported"), FetchError);
}
