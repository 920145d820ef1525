/// \file
/// The opening of every connection (docs/rpc.md, "Handshake"): the client
/// says hello with the magic number, the newest protocol version it speaks,
/// its role and name; the server answers with the version the two settle on
/// (the older of the two ends' newest, when the server still speaks it),
/// whether it wants a token, and a fresh nonce; the
/// client proves the token with HMAC-SHA256(token, nonce); the server
/// welcomes it or sends an Error (version, auth) and closes. A peer of an
/// older or newer release gets an error that says so.
///
/// Frames before the welcome are at most kMaxHandshakeFrame bytes, so an
/// unauthenticated peer cannot make the server allocate more than that.
#pragma once

#include "rpc/Auth.h"
#include "rpc/Connection.h"

#include <string>

namespace tessel::rpc {

/// Who opens the connection.
enum class Role : uint8_t {
    Client = 0, ///< a client of a server (a session) or of a tracker (requests)
    Server = 1, ///< a server registering at a tracker
    Query = 2,  ///< `tessel-rpc query`: reads the tracker's state
};

const char* roleName(Role role);

/// The client's side; returns the welcome text (the peer's name and version).
/// Throws RpcError (step "handshake"): Failure::Remote with ErrorCode::Version
/// or ErrorCode::Auth when the peer refuses, Failure::Protocol for a peer that
/// is no Tessel RPC endpoint.
std::string clientHandshake(Connection& c, Role role, const std::string& name, const std::string& token,
                            Deadline deadline);

struct Hello {
    Role role = Role::Client;
    std::string name;
    /// The newest version the client speaks.
    uint16_t version = 0;
};

/// The version a server settles on with `hello` (valid when versionRefusal
/// is empty): the older of the two ends' newest.
uint16_t negotiatedVersion(const Hello& hello);

/// The server's side (a server or a tracker). `token` empty: no
/// authentication. Sends the Error frame itself and throws RpcError when the
/// client is refused; the caller logs e.what() and closes.
Hello serverHandshake(Connection& c, const std::string& token, const std::string& welcome, Deadline deadline);

// The server's side step by step, for a server that cannot block on one peer
// (the tracker's poll loop feeds them frames as they arrive). serverHandshake
// is these steps over a blocking Connection.

/// Reads a Hello frame; throws RpcError (step "handshake", Failure::Protocol)
/// for another frame or a malformed one.
Hello readHello(const Frame& frame);
/// Empty when we speak a version that `hello` speaks too, else why it is
/// refused (the message of an ErrorCode::Version Error frame).
std::string versionRefusal(const Hello& hello);
/// The Challenge's payload: the negotiated version, whether a token is
/// required, the nonce, our name.
std::vector<char> challengePayload(const Hello& hello, bool authRequired, const Nonce& nonce,
                                   const std::string& welcome);
/// Checks an Auth frame against HMAC-SHA256(token, nonce): empty when the
/// client is accepted (always, when `token` is empty), else why it is refused
/// (the message of an ErrorCode::Auth Error frame). Throws RpcError
/// (Failure::Protocol) for another frame or a malformed one.
std::string authRefusal(const Frame& frame, const std::string& token, const Nonce& nonce);
/// The Welcome's payload.
std::vector<char> welcomePayload(const std::string& welcome);

} // namespace tessel::rpc
