// TrackerStatus (declared in TrackerClient.h): the tracker's JSON read back,
// and the tables `tessel-rpc query` prints.
#include "rpc/TrackerClient.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace tessel::rpc {

namespace {

/// "0.4 s", "12 s", "3 min", "2.5 h".
std::string age(int64_t ms) {
    char buf[32];
    if (ms < 10000)
        std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ms) / 1000.0);
    else if (ms < 120000)
        std::snprintf(buf, sizeof buf, "%lld s", static_cast<long long>(ms / 1000));
    else if (ms < 7200000)
        std::snprintf(buf, sizeof buf, "%lld min", static_cast<long long>(ms / 60000));
    else
        std::snprintf(buf, sizeof buf, "%.1f h", static_cast<double>(ms) / 3600000.0);
    return buf;
}

/// "x86_64-pc-linux-gnu, AMD EPYC 7B13, 2 cores" from the device facts.
std::string deviceSummary(const std::string& json) {
    const auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return "-";
    std::string out;
    auto add = [&](const std::string& s) {
        if (s.empty()) return;
        if (!out.empty()) out += ", ";
        out += s;
    };
    if (j.contains("triple") && j["triple"].is_string()) add(j["triple"].get<std::string>());
    if (j.contains("cpu") && j["cpu"].is_string()) add(j["cpu"].get<std::string>());
    if (j.contains("cores") && j["cores"].is_number_integer())
        add(std::to_string(j["cores"].get<int64_t>()) + " cores");
    if (j.contains("version") && j["version"].is_string())
        add("Tessel " + j["version"].get<std::string>());
    return out.empty() ? "-" : out;
}

/// Rows of cells printed in columns two spaces apart; `right` marks
/// right-aligned (numeric) columns.
std::string table(const std::vector<std::vector<std::string>>& rows,
                  const std::vector<bool>& right) {
    std::vector<size_t> width;
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c) {
            if (width.size() <= c) width.push_back(0);
            width[c] = std::max(width[c], row[c].size());
        }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            const bool last = c + 1 == row.size();
            const std::string pad(width[c] - row[c].size(), ' ');
            if (c < right.size() && right[c])
                line += pad + row[c];
            else
                line += row[c] + (last ? "" : pad);
            if (!last) line += "  ";
        }
        out += line + "\n";
    }
    return out;
}

} // namespace

std::string TrackerStatus::text() const {
    std::string out;
    out += "Tracker up " + age(uptimeMs) + ", heartbeat timeout " +
           std::to_string(heartbeatTimeoutMs) + " ms\n\n";
    if (keys.empty()) return out + "No servers registered and no requests waiting.\n";
    std::vector<std::vector<std::string>> rows{{"KEY", "TOTAL", "FREE", "PENDING"}};
    for (const auto& k : keys)
        rows.push_back(
            {k.key, std::to_string(k.total), std::to_string(k.free), std::to_string(k.pending)});
    out += table(rows, {false, true, true, true});
    if (!servers.empty()) {
        rows = {{"ID", "KEY", "ADDRESS", "STATE", "HEARTBEAT", "DEVICE"}};
        for (const auto& s : servers) {
            const std::string state = s.state == "held" ? "held by '" + s.client + "'" : s.state;
            rows.push_back({std::string("#").append(std::to_string(s.id)), s.key,
                            s.host + ":" + std::to_string(s.port), state,
                            age(s.lastHeartbeatMs) + " ago", deviceSummary(s.deviceJson)});
        }
        out += '\n';
        out += table(rows, {});
    }
    bool header = false;
    for (const auto& k : keys) {
        if (k.queue.empty()) continue;
        if (!header) out += "\nWaiting, in the order they will be served:\n";
        header = true;
        int n = 1;
        for (const auto& q : k.queue)
            out += "  " + k.key + " " + std::to_string(n++) + ". '" + q.client + "' priority " +
                   std::to_string(q.priority) + ", waiting " + age(q.waitingMs) +
                   (q.requeued ? " (back at the front: its server failed)" : "") + "\n";
    }
    return out;
}

TrackerStatus TrackerStatus::fromJson(const std::string& text) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw ProtocolError("the tracker's status is not a JSON object");
    TrackerStatus s;
    s.json = text;
    try {
        if (j.contains("tracker")) {
            const auto& t = j.at("tracker");
            s.uptimeMs = t.value("uptime_ms", int64_t(0));
            s.heartbeatTimeoutMs = t.value("heartbeat_timeout_ms", 0);
        }
        for (const auto& e : j.value("servers", nlohmann::json::array())) {
            ServerStatus v;
            v.id = e.at("id").get<uint64_t>();
            v.key = e.at("key").get<std::string>();
            v.host = e.at("host").get<std::string>();
            v.port = e.at("port").get<uint16_t>();
            v.free = e.value("free", false);
            v.state = e.value("state", std::string(v.free ? "free" : "busy"));
            v.client = e.value("client", std::string());
            if (e.contains("device") && e["device"].is_object()) v.deviceJson = e["device"].dump();
            v.lastHeartbeatMs = e.value("last_heartbeat_ms", int64_t(0));
            v.registeredMs = e.value("registered_ms", int64_t(0));
            s.servers.push_back(std::move(v));
        }
        for (const auto& e : j.value("keys", nlohmann::json::array())) {
            KeyStatus k;
            k.key = e.at("key").get<std::string>();
            k.total = e.value("total", 0);
            k.free = e.value("free", 0);
            k.pending = e.value("pending", 0);
            for (const auto& q : e.value("queue", nlohmann::json::array()))
                k.queue.push_back({q.value("client", std::string()), q.value("priority", 0),
                                   q.value("waiting_ms", int64_t(0)), q.value("requeued", false)});
            s.keys.push_back(std::move(k));
        }
    } catch (const nlohmann::json::exception& e) {
        throw ProtocolError(std::string("malformed tracker status: ") + e.what());
    }
    return s;
}

} // namespace tessel::rpc
