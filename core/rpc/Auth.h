/// \file
/// The shared-token authentication of the handshake: HMAC-SHA256 over a
/// server nonce (OpenSSL's libcrypto), so the token itself never goes over
/// the wire, and constant-time comparison of the answer.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace tessel::rpc {

using Nonce = std::array<unsigned char, 32>;
using Mac = std::array<unsigned char, 32>;

/// 32 random bytes from the system's generator.
Nonce randomNonce();
/// HMAC-SHA256(key = token, message = nonce).
Mac hmacSha256(const std::string& token, const Nonce& nonce);
/// Compares in time that does not depend on where they differ.
bool macEqual(const Mac& a, const Mac& b);

/// The token in `path`: its first line, without surrounding white space.
/// Throws std::runtime_error naming the file when it cannot be read or the
/// token is empty.
std::string readTokenFile(const std::string& path);

} // namespace tessel::rpc
