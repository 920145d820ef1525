#include "CompareCommand.h"

#include "codegen/Target.h"
#include "driver/ModelCompare.h"
#include "driver/ApplyBest.h"
#include "rpc/Address.h"
#include "driver/Devices.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include <unistd.h>

namespace tessel::cli {

namespace {

/// Where the two sides run: two model runners of one device (this process,
/// two sessions on the local tessel-rpc server, or two sessions on one
/// server: a tracker's key is one server held for both).
struct Sessions {
    std::unique_ptr<driver::DeviceRunners> device;
    std::unique_ptr<runtime::ModelRunner> a, b;
    Target target = codegen::hostTarget();
    std::string where;
};

void openSessions(const CompareArgs& args, Sessions& s) {
    if (args.inProcess && (!args.rpc.empty() || !args.rpcTracker.empty()))
        throw std::invalid_argument("--in-process excludes --rpc and --rpc-tracker");
    if (!args.rpc.empty() && !args.rpcTracker.empty())
        throw std::invalid_argument("--rpc and --rpc-tracker exclude each other");
    if (args.rpcTracker.empty() != args.rpcKey.empty())
        throw std::invalid_argument("--rpc-tracker and --rpc-key go together");
    driver::DeviceSpec spec;
    if (args.inProcess) {
        spec = driver::DeviceSpec::inProcess();
        s.where = "in this process";
    } else if (!args.rpc.empty()) {
        const rpc::HostPort hp = rpc::parseHostPort(args.rpc);
        spec = driver::DeviceSpec::server(hp.host, hp.port, args.rpcTokenFile);
        s.where = "on server " + args.rpc;
    } else if (!args.rpcTracker.empty()) {
        const rpc::HostPort hp = rpc::parseHostPort(args.rpcTracker);
        spec = driver::DeviceSpec::tracker(hp.host, hp.port, args.rpcKey, args.rpcTokenFile);
    } else {
        s.where = "on a local tessel-rpc server"; // a crashing kernel is an error, not a crash
    }
    spec.clientName = "tesselc compare";
    s.device = std::make_unique<driver::DeviceRunners>(spec);
    s.target = s.device->target(); // a device is asked now (an RpcError naming the step)
    s.a = s.device->modelRunner();
    s.b = s.device->modelRunner();
    if (spec.kind == driver::DeviceSpec::Kind::Tracker) s.where = "on " + s.device->name();
}

/// A side's configurations from its records file or folder for `target`
/// (apply-best, as `run --records` takes them, records of the side's thread
/// count first; empty: untuned).
std::map<std::string, tune::Config> configsOf(const std::string& records, const Target& target, int threads) {
    std::vector<std::string> warnings;
    driver::AppliedRecords applied = driver::applyBest(records, target, &warnings, threads);
    for (auto& w : warnings) std::fprintf(stderr, "tesselc: warning: %s\n", w.c_str());
    if (!applied.note.empty()) std::fprintf(stderr, "%s\n", applied.note.c_str());
    return std::move(applied.configs);
}

std::string labelOf(const std::string& records, const std::string& other) {
    if (records.empty()) return "untuned";
    namespace fs = std::filesystem;
    auto baseName = [](const std::string& path) {
        fs::path p = fs::path(path).lexically_normal();
        if (p.filename().empty()) p = p.parent_path(); // "records/"
        return p.filename().string();
    };
    const std::string name = baseName(records);
    // Two files of one name in different folders: say the paths.
    if (!other.empty() && other != records && baseName(other) == name) return records;
    return fs::is_directory(records) ? name + "/" : name;
}

std::string figure(double v, const char* format) {
    if (!std::isfinite(v)) return "-";
    char buf[40];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

void printTable(const driver::CompareResult& r) {
    size_t width = 24;
    for (const auto& row : r.rows) width = std::max(width, row.function.size());
    const int w = int(width);
    std::printf("\n  %-*s %5s %11s %11s %9s %9s %8s  %s\n", w, "function", "calls", "A ms", "B ms", "A GF/s",
                "B GF/s", "B/A", "tuned");
    for (const auto& row : r.rows) {
        const std::string calls = row.inA() && row.inB() && row.callsA == row.callsB
                                      ? std::to_string(row.callsA)
                                      : std::to_string(row.callsA) + "/" + std::to_string(row.callsB);
        std::string tuned = std::string(row.tunedA ? "A" : "") + (row.tunedA && row.tunedB ? " " : "") +
                            (row.tunedB ? "B" : "");
        if (!row.inA()) tuned += (tuned.empty() ? "" : ", ") + std::string("only on B");
        if (!row.inB()) tuned += (tuned.empty() ? "" : ", ") + std::string("only on A");
        std::printf("  %-*s %5s %11s %11s %9s %9s %8s%s%s\n", w, row.function.c_str(), calls.c_str(),
                    figure(row.msA, "%.5g").c_str(), figure(row.msB, "%.5g").c_str(),
                    row.gflopsA > 0 ? figure(row.gflopsA, "%.1f").c_str() : "-",
                    row.gflopsB > 0 ? figure(row.gflopsB, "%.1f").c_str() : "-", figure(row.ratio, "%.3f").c_str(),
                    tuned.empty() ? "" : "  ", tuned.c_str());
    }
    std::printf("  %-*s %5s %11s %11s %9s %9s %8s\n", w, "end to end", "", figure(r.latencyA, "%.5g").c_str(),
                figure(r.latencyB, "%.5g").c_str(), "", "", figure(r.ratio, "%.3f").c_str());
}

} // namespace

int runCompare(const CompareArgs& args) {
    Sessions s;
    openSessions(args, s);
    driver::CompareSide a, b;
    a.configs = configsOf(args.recordsA, s.target, args.threadsA);
    b.configs = configsOf(args.recordsB, s.target, args.threadsB);
    a.label = labelOf(args.recordsA, args.recordsB);
    b.label = labelOf(args.recordsB, args.recordsA);
    a.threads = args.threadsA;
    b.threads = args.threadsB;

    a.runner = s.a.get();
    b.runner = s.b.get();
    a.target = b.target = s.target;

    driver::CompareOptions o;
    o.rounds = args.rounds;
    o.seed = args.seed;
    int lastPercent = -1;
    const bool progressShown = ::isatty(2); // a terminal: a line that redraws itself
    o.progress = [&](double f, const std::string& stage) {
        const int percent = int(f * 100);
        if (progressShown && percent / 10 != lastPercent / 10 && stage.starts_with("round")) {
            std::fprintf(stderr, "\r%s: %s  ", args.file.c_str(), stage.c_str());
            std::fflush(stderr);
        }
        lastPercent = percent;
        return true;
    };
    const driver::CompareResult r = driver::compareModels(args.file, args.import, a, b, o);
    if (progressShown) std::fprintf(stderr, "\r%*s\r", 60, "");

    std::printf("%s: A = %s, B = %s, %s (%s%s%s)\n", args.file.c_str(), r.labelA.c_str(), r.labelB.c_str(),
                s.where.c_str(), s.target.triple.c_str(), s.target.cpu.empty() ? "" : ", ",
                s.target.cpu.c_str());
    auto tunedCount = [&](bool sideB) {
        int n = 0;
        for (const auto& row : r.rows) n += sideB ? row.tunedB : row.tunedA;
        return n;
    };
    if (!args.recordsA.empty())
        std::printf("  A: %d of %d tunable functions tuned by %s\n", tunedCount(false), r.tunableA,
                    args.recordsA.c_str());
    if (!args.recordsB.empty())
        std::printf("  B: %d of %d tunable functions tuned by %s\n", tunedCount(true), r.tunableB,
                    args.recordsB.c_str());
    std::printf("  %d round%s interleaved (A, B, A, B ...), medians; threads: A %d, B %d\n", r.rounds,
                r.rounds == 1 ? "" : "s", r.threadsA, r.threadsB);
    printTable(r);
    if (r.outputsChecked)
        std::printf("\n  outputs %s: max |B - A| %.3g of max |A| %.3g\n", r.outputsAgree ? "agree" : "DISAGREE",
                    r.maxAbsDiff, r.maxAbsA);
    for (const auto& n : r.notes) std::printf("  note: %s\n", n.c_str());
    for (const auto& w : r.warnings) std::printf("  warning: %s\n", w.c_str());
    if (!r.error.empty()) std::printf("  error: %s\n", r.error.c_str());

    if (!args.csv.empty()) {
        std::ofstream out(args.csv, std::ios::binary);
        out << driver::compareCsv(r);
        if (!out.flush()) throw std::runtime_error("cannot write '" + args.csv + "'");
        std::printf("  CSV: %s\n", args.csv.c_str());
    }
    return r.ok() ? 0 : 1;
}

} // namespace tessel::cli
