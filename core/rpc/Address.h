/// \file
/// "HOST:PORT" on command lines (`tessel-rpc query 127.0.0.1:9190`,
/// `--tracker`, `--rpc`): names, IPv4 and bracketed IPv6 addresses.
#pragma once

#include <cstdint>
#include <string>

namespace tessel::rpc {

struct HostPort {
    std::string host;
    uint16_t port = 0;
};

/// Reads "HOST:PORT", "[V6]:PORT", or "HOST" alone when `defaultPort` is not
/// 0. Throws std::invalid_argument with a message that names the text.
HostPort parseHostPort(const std::string& text, uint16_t defaultPort = 0);

/// Reads a port number 0..65535 (0: any free one); throws
/// std::invalid_argument naming `what`.
uint16_t parsePort(const std::string& text, const std::string& what = "port");

} // namespace tessel::rpc
