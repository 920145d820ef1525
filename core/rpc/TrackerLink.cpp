// TrackerLink (declared in TrackerClient.h): a server's registration and
// heartbeat, driven by the server's loop without a thread of its own.
#include "rpc/TrackerClient.h"

#include "rpc/Handshake.h"

#include <unistd.h>

namespace tessel::rpc {

namespace {

/// This machine's name, how the tracker's log names the server.
std::string hostName() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) return "server";
    return host;
}

} // namespace

TrackerLink::TrackerLink(std::string host, uint16_t port, std::string token,
                         Registration registration, TrackerLinkTiming timing)
    : host_(std::move(host)), port_(port), token_(std::move(token)), reg_(std::move(registration)),
      timing_(timing), pid_(static_cast<int>(::getpid())) {}

TrackerLink::~TrackerLink() {
    // In a forked session child the descriptor is a copy: closing it (the
    // Connection's destructor) leaves the parent's link up, where a shutdown
    // would end it for both.
    if (static_cast<int>(::getpid()) == pid_) c_.close();
}

bool TrackerLink::connected() const {
    return c_.isOpen();
}

void TrackerLink::drop(const std::string& why) {
    c_.close();
    c_ = Connection();
    serverId_ = 0;
    lastError_ = why;
    if (log_) log_("lost the tracker at " + host_ + ":" + std::to_string(port_) + ": " + why);
}

void TrackerLink::connectAndRegister() {
    everTried_ = true;
    lastTry_ = Clock::now();
    const Deadline deadline = deadlineIn(timing_.connectTimeoutMs);
    const std::string where = host_ + ":" + std::to_string(port_);
    try {
        Connection c = Connection::connect(host_, port_, deadline);
        clientHandshake(c, Role::Server, hostName() + ":" + std::to_string(reg_.port), token_,
                        deadline);
        const RegisterMessage m{reg_.key, reg_.host, reg_.port, reg_.deviceJson, free_};
        const std::vector<char> reply = c.call(Code::Register, payloadOf(m), kMaxTrackerFrame,
                                               deadline, "register at the tracker " + where);
        Reader r(reply);
        const uint64_t id = r.u64();
        r.finish();
        c_ = std::move(c);
        serverId_ = id;
        registrations_ += 1;
        lastBeat_ = Clock::now();
        lastError_.clear();
        if (log_)
            log_("registered at the tracker " + where + " as server #" + std::to_string(id) +
                 " under key '" + reg_.key + "'" + (registrations_ > 1 ? " (again)" : ""));
    } catch (const std::exception& e) {
        // Said once per different reason, not every second while it lasts.
        const std::string why = e.what();
        if (log_ && why != lastError_) log_("cannot register at the tracker " + where + ": " + why);
        lastError_ = why;
    }
}

void TrackerLink::sendHeartbeat() {
    try {
        c_.send(Code::Heartbeat, payloadOf(HeartbeatMessage{free_}),
                deadlineIn(timing_.connectTimeoutMs), "heartbeat");
        lastBeat_ = Clock::now();
    } catch (const RpcError& e) {
        drop(e.what());
    }
}

void TrackerLink::setFree(bool free) {
    if (free == free_) return;
    free_ = free;
    if (c_.isOpen()) sendHeartbeat();
}

void TrackerLink::poll() {
    const auto now = Clock::now();
    if (!c_.isOpen()) {
        if (everTried_ && now - lastTry_ < std::chrono::milliseconds(timing_.retryMs)) return;
        connectAndRegister();
        return;
    }
    if (c_.waitReadable(0)) {
        // After the registration's reply a tracker sends a server nothing but
        // an Error frame before it closes (dropped, replaced), or its close.
        try {
            Frame f = c_.receive(kMaxTrackerFrame, deadlineIn(timing_.connectTimeoutMs), "tracker");
            if (f.code == static_cast<uint16_t>(Code::Error))
                drop("the tracker said: " + readError(f).message);
            else
                drop("the tracker sent an unexpected " + codeName(f.code) + " frame");
        } catch (const RpcError& e) {
            drop(e.failure() == Failure::Closed ? "the tracker closed the connection" : e.why());
        } catch (const ProtocolError& e) {
            drop(std::string("malformed frame from the tracker: ") + e.what());
        }
        return;
    }
    if (now - lastBeat_ >= std::chrono::milliseconds(timing_.heartbeatMs)) sendHeartbeat();
}

} // namespace tessel::rpc
