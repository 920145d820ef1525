#include "rpc/Auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <fstream>
#include <stdexcept>

namespace tessel::rpc {

Nonce randomNonce() {
    Nonce n{};
    if (RAND_bytes(n.data(), static_cast<int>(n.size())) != 1)
        throw std::runtime_error("the system's random generator failed (OpenSSL RAND_bytes)");
    return n;
}

Mac hmacSha256(const std::string& token, const Nonce& nonce) {
    Mac mac{};
    unsigned int len = 0;
    if (!HMAC(EVP_sha256(), token.data(), static_cast<int>(token.size()), nonce.data(), nonce.size(), mac.data(), &len) ||
        len != mac.size())
        throw std::runtime_error("HMAC-SHA256 failed (OpenSSL)");
    return mac;
}

bool macEqual(const Mac& a, const Mac& b) { return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0; }

std::string readTokenFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read the token file '" + path + "'");
    std::string line;
    std::getline(in, line);
    const auto b = line.find_first_not_of(" \t\r\n");
    const auto e = line.find_last_not_of(" \t\r\n");
    if (b == std::string::npos) throw std::runtime_error("the token file '" + path + "' is empty");
    return line.substr(b, e - b + 1);
}

} // namespace tessel::rpc
