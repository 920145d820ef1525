#include "tune/Records.h"

#include "runtime/TimeEvaluator.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

#ifndef TESSEL_VERSION
#define TESSEL_VERSION "unknown"
#endif

namespace tessel::tune {

using nlohmann::json;

const char* tesselVersion() { return TESSEL_VERSION; }

std::optional<runtime::MeasureError> measureErrorFromName(std::string_view name) {
    using E = runtime::MeasureError;
    for (E e : {E::None, E::Build, E::Load, E::Runtime, E::Crash, E::Timeout, E::WrongResult, E::Cancelled, E::Device})
        if (name == runtime::measureErrorName(e)) return e;
    return std::nullopt;
}

double Record::seconds() const {
    if (!ok()) return std::numeric_limits<double>::infinity();
    return runtime::median(costs);
}

double Record::gflops() const {
    const double s = seconds();
    return ok() && s > 0 && std::isfinite(s) ? flops / s / 1e9 : 0.0;
}

namespace {

/// A knob's value in words ("[4, 8]", "True", "'rows'", "None") as JSON.
json valueToJson(const std::string& text) {
    // The texts are Python reprs of what te::KnobValue holds: lists of ints
    // or of strings, bools, numbers, strings, None.
    if (text == "True") return true;
    if (text == "False") return false;
    if (text == "None") return nullptr;
    if (!text.empty() && text.front() == '\'' && text.back() == '\'' && text.size() >= 2)
        return text.substr(1, text.size() - 2);
    if (!text.empty() && text.front() == '[') {
        // A list: ints, or quoted strings; both parse as JSON once the quotes are double.
        std::string j = text;
        for (auto& c : j)
            if (c == '\'') c = '"';
        json v = json::parse(j, nullptr, false);
        if (!v.is_discarded()) return v;
        return text;
    }
    json v = json::parse(text, nullptr, false);
    if (!v.is_discarded() && v.is_number()) return v;
    return text;
}

/// The inverse: a JSON value back into the words te::KnobValue::str() prints.
std::string jsonToValue(const json& v) {
    if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
    if (v.is_null()) return "None";
    if (v.is_string()) {
        std::string quoted(1, '\'');
        quoted += v.get<std::string>();
        quoted += '\'';
        return quoted;
    }
    if (v.is_array()) {
        std::string out = "[";
        for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + jsonToValue(v[i]);
        return out + "]";
    }
    return v.dump();
}

} // namespace

std::string formatRecord(const Record& r) {
    json wl = r.workload.json.empty() ? json::object() : json::parse(r.workload.json, nullptr, false);
    if (!wl.is_object()) wl = json::object();
    wl["op"] = r.workload.op;
    wl["key"] = r.workload.key;
    json values = json::object();
    for (auto& [k, v] : r.values) values[k] = valueToJson(v);
    // Fields in the documented order (Records.h, docs/tuning.md).
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j["workload"] = wl;
    j["target"] = r.target;
    j["config"] = r.config;
    j["values"] = values;
    j["default"] = r.isDefault;
    j["costs"] = r.costs;
    j["error"] = runtime::measureErrorName(r.error);
    j["message"] = r.message;
    j["flops"] = r.flops;
    if (r.threads > 0) j["threads"] = r.threads;
    j["tuner"] = r.tuner;
    j["trial"] = r.trial;
    j["time"] = r.timestamp;
    j["version"] = r.version;
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

Record parseRecord(std::string_view line) {
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw std::invalid_argument("not a JSON object");
    Record r;
    try {
        const json& wl = j.at("workload");
        if (!wl.is_object()) throw std::invalid_argument("\"workload\" is not an object");
        r.workload.key = wl.at("key").get<std::string>();
        r.workload.op = wl.value("op", std::string());
        r.workload.json = wl.dump();
        r.target = j.value("target", std::string());
        for (auto& [k, v] : j.at("config").items()) r.config[k] = v.get<int64_t>();
        if (j.contains("values"))
            for (auto& [k, v] : j.at("values").items()) r.values[k] = jsonToValue(v);
        r.isDefault = j.value("default", false);
        for (auto& c : j.at("costs")) r.costs.push_back(c.get<double>());
        const std::string error = j.at("error").get<std::string>();
        auto e = measureErrorFromName(error);
        if (!e) throw std::invalid_argument("unknown error kind '" + error + "'");
        r.error = *e;
        r.message = j.value("message", std::string());
        r.flops = j.value("flops", 0.0);
        r.threads = j.value("threads", 0);
        r.tuner = j.value("tuner", std::string());
        r.trial = j.value("trial", int64_t(-1));
        r.timestamp = j.value("time", 0.0);
        r.version = j.value("version", std::string());
    } catch (const json::exception& e) {
        throw std::invalid_argument(e.what());
    }
    if (r.error == runtime::MeasureError::None && r.costs.empty())
        throw std::invalid_argument("a successful trial without costs");
    return r;
}

RecordWriter::RecordWriter(const std::string& path) : path_(path) {
    // A run killed while writing leaves a last line without its newline:
    // start on a fresh line so that the fragment stays one unparsable line.
    bool torn = false;
    if (std::FILE* in = std::fopen(path.c_str(), "rb")) {
        if (std::fseek(in, -1, SEEK_END) == 0) torn = std::fgetc(in) != '\n';
        std::fclose(in);
    }
    f_ = std::fopen(path.c_str(), "ab");
    if (!f_) throw std::runtime_error("cannot open records file '" + path + "' for appending");
    if (torn) {
        std::fputc('\n', f_);
        std::fflush(f_);
    }
}

RecordWriter::~RecordWriter() {
    if (f_) std::fclose(f_);
}

void RecordWriter::write(const Record& r) {
    // One write call per line, flushed at once: a kill lands between lines or
    // tears the last one, which readers skip.
    const std::string line = formatRecord(r) + "\n";
    std::lock_guard<std::mutex> lock(m_);
    if (std::fwrite(line.data(), 1, line.size(), f_) != line.size() || std::fflush(f_) != 0)
        throw std::runtime_error("cannot write to records file '" + path_ + "'");
}

Records Records::load(const std::string& path, std::vector<std::string>* warnings, bool mustExist) {
    Records out;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (mustExist) throw std::runtime_error("cannot read records file '" + path + "'");
        return out;
    }
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            out.add(parseRecord(line));
        } catch (const std::invalid_argument& e) {
            if (warnings) warnings->push_back(path + ":" + std::to_string(n) + ": skipped a line that is no record (" +
                                              e.what() + ")");
        }
    }
    return out;
}

void Records::add(Record r) {
    auto it = byKey_.find(r.workload.key);
    if (it == byKey_.end()) {
        order_.push_back(r.workload.key);
        it = byKey_.emplace(r.workload.key, std::vector<size_t>{}).first;
    }
    it->second.push_back(records_.size());
    records_.push_back(std::move(r));
}

std::vector<std::string> Records::workloads() const { return order_; }

std::vector<const Record*> Records::forWorkload(std::string_view key) const {
    std::vector<const Record*> out;
    auto it = byKey_.find(key);
    if (it != byKey_.end())
        for (size_t i : it->second) out.push_back(&records_[i]);
    return out;
}

const Record* Records::best(std::string_view key, int threads) const {
    const Record* best = nullptr;
    for (const Record* r : forWorkload(key))
        if (r->ok() && (threads <= 0 || r->threads == threads) && (!best || r->seconds() < best->seconds())) best = r;
    return best;
}

const Record* Records::defaultRecord(std::string_view key) const {
    const Record* best = nullptr;
    for (const Record* r : forWorkload(key))
        if (r->isDefault && r->ok() && (!best || r->seconds() < best->seconds())) best = r;
    return best;
}

std::vector<Records::WorkloadSummary> Records::summary() const {
    std::vector<WorkloadSummary> out;
    for (auto& key : order_) {
        WorkloadSummary s;
        auto rs = forWorkload(key);
        s.workload = rs.front()->workload;
        s.target = rs.front()->target;
        for (const Record* r : rs) {
            ++s.trials;
            if (!r->ok()) {
                ++s.failed;
                ++s.errors[r->error];
            }
        }
        s.best = best(key);
        s.defaultRecord = defaultRecord(key);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace tessel::tune
