#include "driver/ApplyBest.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace tessel::driver {

namespace fs = std::filesystem;

bool sameTargetKind(const Target& measured, const Target& target) {
    return measured.kind == target.kind && measured.arch() == target.arch() &&
           measured.vectorBits == target.vectorBits;
}

tune::Records loadRecords(const std::string& path, std::vector<std::string>* warnings) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) return tune::Records::load(path, warnings, true);
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(path, ec))
        if (e.is_regular_file() && e.path().extension() == ".jsonl") files.push_back(e.path());
    if (ec) throw std::runtime_error("cannot read the folder " + path + ": " + ec.message());
    std::sort(files.begin(), files.end());
    tune::Records all;
    for (const fs::path& f : files) {
        tune::Records one = tune::Records::load(f.string(), warnings, true);
        for (const tune::Record& r : one.all()) all.add(r);
    }
    return all;
}

AppliedRecords bestConfigsFor(const tune::Records& records, const Target& target, int threads) {
    const std::string here = target.str();
    // Per rebased key: the best record and how close it is (the thread
    // count first, then the target: 2 the target itself, 1 the same CPU
    // name, 0 the same kind).
    struct Choice {
        const tune::Record* record = nullptr;
        int closeness = -1;
        bool sameThreads = false;
    };
    std::map<std::string, Choice> chosen;
    for (const std::string& key : records.workloads()) {
        const tune::Record* matching = threads > 0 ? records.best(key, threads) : nullptr;
        const tune::Record* best = matching ? matching : records.best(key);
        if (!best) continue;
        const bool sameThreads = threads <= 0 || matching != nullptr;
        int closeness = 2;
        std::string rebased = key;
        if (best->target != here) {
            Target measured;
            try {
                measured = Target::parse(best->target);
            } catch (const std::exception&) {
                continue; // a target this build does not know: not of this kind
            }
            if (!sameTargetKind(measured, target)) continue;
            // Keys end with the target they were measured on (model and template workloads alike).
            if (key.size() < best->target.size() || key.compare(key.size() - best->target.size(), std::string::npos, best->target) != 0)
                continue;
            rebased = key.substr(0, key.size() - best->target.size()) + here;
            closeness = measured.cpu == target.cpu ? 1 : 0;
        }
        Choice& c = chosen[rebased];
        const bool better =
            sameThreads != c.sameThreads
                ? sameThreads
                : closeness > c.closeness ||
                      (closeness == c.closeness && c.record && best->seconds() < c.record->seconds());
        if (!c.record || better) c = {best, closeness, sameThreads};
    }
    AppliedRecords out;
    for (const auto& [key, c] : chosen) {
        out.configs[key] = c.record->config;
        (c.closeness == 2 ? out.exact : out.sameKind) += 1;
        if (!c.sameThreads) ++out.otherThreads;
    }
    return out;
}

AppliedRecords applyBest(const std::string& path, const Target& target, std::vector<std::string>* warnings,
                         int threads) {
    if (path.empty()) return {};
    AppliedRecords applied = bestConfigsFor(loadRecords(path, warnings), target, threads);
    std::vector<std::string> notes;
    if (applied.sameKind > 0)
        notes.push_back(std::to_string(applied.sameKind) + " workload" + (applied.sameKind == 1 ? "" : "s") +
                        " measured on another " + target.arch() + " machine of this kind");
    if (applied.otherThreads > 0)
        notes.push_back(std::to_string(applied.otherThreads) + " workload" +
                        (applied.otherThreads == 1 ? "" : "s") + " tuned with another thread count than " +
                        std::to_string(threads));
    for (size_t i = 0; i < notes.size(); ++i) applied.note += (i ? "; " : path + ": ") + notes[i];
    return applied;
}

} // namespace tessel::driver
