// Who a connection is, for the arena's limits per address (docs/arena.md, "Limits"): an IPv4
// address as it is; an IPv6 address by its /64, since one host is given a whole /64 and could
// otherwise come from as many addresses as it likes; an IPv4 address mapped into IPv6 as the
// IPv4 address.
#pragma once

#include <sys/socket.h>

#include <string>

namespace gol::runner {

std::string client_address(const sockaddr_storage& addr);

// "192.0.2.7:4711", "[2001:db8::1]:4711": the connection itself, for the log.
std::string client_peer(const sockaddr_storage& addr);

}  // namespace gol::runner
