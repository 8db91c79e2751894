// The address the arena's limits count a connection under: IPv4 as it is, IPv6 by its /64.
#include "runner/arena/client_address.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>

using namespace gol::runner;

namespace {

sockaddr_storage v4(const char* text, int port) {
    sockaddr_storage s{};
    auto& a = reinterpret_cast<sockaddr_in&>(s);
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    REQUIRE(::inet_pton(AF_INET, text, &a.sin_addr) == 1);
    return s;
}

sockaddr_storage v6(const char* text, int port) {
    sockaddr_storage s{};
    auto& a = reinterpret_cast<sockaddr_in6&>(s);
    a.sin6_family = AF_INET6;
    a.sin6_port = htons(static_cast<std::uint16_t>(port));
    REQUIRE(::inet_pton(AF_INET6, text, &a.sin6_addr) == 1);
    return s;
}

}  // namespace

TEST_CASE("client address: IPv4 as it is, IPv6 by its /64, an IPv4-mapped one as IPv4") {
    CHECK(client_address(v4("192.0.2.7", 4711)) == "192.0.2.7");
    CHECK(client_peer(v4("192.0.2.7", 4711)) == "192.0.2.7:4711");
    // Two hosts of one /64 are one address to the limits.
    CHECK(client_address(v6("2001:db8:1:2:aaaa::1", 1)) == "2001:db8:1:2::/64");
    CHECK(client_address(v6("2001:db8:1:2:bbbb:cccc:dddd:eeee", 2)) == "2001:db8:1:2::/64");
    CHECK(client_address(v6("2001:db8:1:3::1", 3)) == "2001:db8:1:3::/64");
    CHECK(client_peer(v6("2001:db8:1:2::1", 4711)) == "[2001:db8:1:2::1]:4711");
    CHECK(client_address(v6("::ffff:198.51.100.4", 5)) == "198.51.100.4");
}
