#include "tune/FeatureCache.h"

#include "ir/Diagnostic.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

namespace tessel::tune {

namespace {
/// More rows than this and the cache starts again (a space of millions of
/// points must not fill the memory; SA's recent points come back quickly).
constexpr size_t kMaxRows = 200000;
} // namespace

FeatureCache::FeatureCache(const Task& task, const Space& space, FeatureKind kind, int threads, FeatureOptions options)
    : task_(task), space_(space), kind_(kind), threads_(std::max(1, threads)), options_(options) {
    switch (kind_) {
    case FeatureKind::Itervar: cols_ = itervarFeatureNames(options_).size(); break;
    case FeatureKind::Curve: cols_ = curveFeatureNames(options_).size(); break;
    case FeatureKind::Knob: cols_ = knobFeatureNames(space_.knobs()).size(); break;
    }
}

std::vector<float> FeatureCache::compute(const Task& task, const std::vector<te::Knob>& knobs, const Config& config,
                                         bool& ok) const {
    ok = true;
    std::vector<float> row;
    try {
        switch (kind_) {
        case FeatureKind::Itervar: row = itervarFeatures(task.featureFunction(config), options_); break;
        case FeatureKind::Curve: row = curveFeatures(task.featureFunction(config), options_); break;
        case FeatureKind::Knob: {
            Space::Choices c;
            for (auto& k : knobs) {
                auto it = config.find(k.name);
                c.push_back(it == config.end() ? k.defaultIndex : it->second);
            }
            row = knobFeatures(knobs, c);
            break;
        }
        }
    } catch (const std::exception&) {
        // CompileError (the configuration cannot be scheduled) or a bad index.
        ok = false;
        row.clear();
    }
    row.resize(cols_, std::nanf(""));
    return row;
}

FeatureMatrix FeatureCache::rows(const std::vector<int64_t>& indices) {
    std::vector<int64_t> missing;
    {
        std::lock_guard<std::mutex> lock(m_);
        if (rows_.size() + indices.size() > kMaxRows) {
            rows_.clear();
            invalid_.clear();
        }
        std::unordered_set<int64_t> seen;
        for (int64_t i : indices)
            if (!rows_.count(i) && seen.insert(i).second) missing.push_back(i);
    }
    if (!missing.empty()) {
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<std::vector<float>> computed(missing.size());
        std::vector<char> ok(missing.size(), 1);
        auto work = [&](size_t i) {
            bool good = true;
            computed[i] = compute(task_, space_.knobs(), space_.config(missing[i]), good);
            ok[i] = good;
        };
        const int n = needsLowering(kind_) ? std::min<int>(threads_, int(missing.size())) : 1;
        if (n <= 1) {
            for (size_t i = 0; i < missing.size(); ++i) work(i);
        } else {
            std::atomic<size_t> next{0};
            std::vector<std::thread> pool;
            for (int t = 0; t < n; ++t)
                pool.emplace_back([&] {
                    for (size_t i; (i = next.fetch_add(1)) < missing.size();) work(i);
                });
            for (auto& t : pool) t.join();
        }
        std::lock_guard<std::mutex> lock(m_);
        for (size_t i = 0; i < missing.size(); ++i) {
            if (!ok[i]) invalid_.insert(missing[i]);
            rows_[missing[i]] = std::move(computed[i]);
        }
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    FeatureMatrix m;
    m.cols = cols_;
    m.values.reserve(indices.size() * cols_);
    std::lock_guard<std::mutex> lock(m_);
    for (int64_t i : indices) {
        const auto& r = rows_.at(i);
        m.values.insert(m.values.end(), r.begin(), r.end());
    }
    return m;
}

std::vector<float> FeatureCache::row(int64_t index) { return rows({index}).values; }

bool FeatureCache::invalid(int64_t index) const {
    std::lock_guard<std::mutex> lock(m_);
    return invalid_.count(index) > 0;
}

size_t FeatureCache::computed() const {
    std::lock_guard<std::mutex> lock(m_);
    return rows_.size();
}

double FeatureCache::seconds() const {
    std::lock_guard<std::mutex> lock(m_);
    return seconds_;
}

std::vector<float> FeatureCache::foreignRow(const Task& other, const Config& config) const {
    bool ok = true;
    std::vector<float> row = compute(other, other.knobs(), config, ok);
    if (!ok) return {};
    return row;
}

} // namespace tessel::tune
