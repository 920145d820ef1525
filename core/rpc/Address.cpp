#include "rpc/Address.h"

#include <stdexcept>

namespace tessel::rpc {

uint16_t parsePort(const std::string& text, const std::string& what) {
    if (text.empty() || text.size() > 5 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("'" + text + "' is not a " + what + " (0 to 65535)");
    const unsigned long v = std::stoul(text);
    if (v > 65535) throw std::invalid_argument("'" + text + "' is not a " + what + " (0 to 65535)");
    return static_cast<uint16_t>(v);
}

HostPort parseHostPort(const std::string& text, uint16_t defaultPort) {
    const std::string form = "'" + text + "' is not HOST:PORT";
    HostPort hp;
    std::string port;
    if (text.starts_with("[")) {
        const auto close = text.find(']');
        if (close == std::string::npos)
            throw std::invalid_argument(form + " (no ']' after an IPv6 address)");
        hp.host = text.substr(1, close - 1);
        if (close + 1 < text.size()) {
            if (text[close + 1] != ':') throw std::invalid_argument(form);
            port = text.substr(close + 2);
        }
    } else {
        const auto colon = text.rfind(':');
        if (colon != std::string::npos && text.find(':') != colon)
            throw std::invalid_argument(form + " (write an IPv6 address as [ADDRESS]:PORT)");
        hp.host = colon == std::string::npos ? text : text.substr(0, colon);
        if (colon != std::string::npos) port = text.substr(colon + 1);
    }
    if (hp.host.empty()) throw std::invalid_argument(form + " (no host)");
    if (port.empty()) {
        if (defaultPort == 0) throw std::invalid_argument(form + " (no port)");
        hp.port = defaultPort;
    } else {
        hp.port = parsePort(port);
        if (hp.port == 0) throw std::invalid_argument(form + " (port 0)");
    }
    return hp;
}

} // namespace tessel::rpc
