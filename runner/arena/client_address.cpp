#include "runner/arena/client_address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <algorithm>

namespace gol::runner {

namespace {

std::string text_of(int family, const void* address) {
    char host[INET6_ADDRSTRLEN] = "?";
    ::inet_ntop(family, address, host, sizeof host);
    return host;
}

}  // namespace

std::string client_address(const sockaddr_storage& addr) {
    if (addr.ss_family == AF_INET) return text_of(AF_INET, &reinterpret_cast<const sockaddr_in&>(addr).sin_addr);
    in6_addr a = reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr;
    if (IN6_IS_ADDR_V4MAPPED(&a)) return text_of(AF_INET, &a.s6_addr[12]);
    std::fill(a.s6_addr + 8, a.s6_addr + 16, 0);
    return text_of(AF_INET6, &a) + "/64";
}

std::string client_peer(const sockaddr_storage& addr) {
    if (addr.ss_family == AF_INET) {
        const auto& a = reinterpret_cast<const sockaddr_in&>(addr);
        return text_of(AF_INET, &a.sin_addr) + ":" + std::to_string(ntohs(a.sin_port));
    }
    const auto& a = reinterpret_cast<const sockaddr_in6&>(addr);
    return "[" + text_of(AF_INET6, &a.sin6_addr) + "]:" + std::to_string(ntohs(a.sin6_port));
}

}  // namespace gol::runner
