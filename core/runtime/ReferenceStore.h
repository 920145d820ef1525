/// \file
/// Reference outputs kept between measurements, by workload and seed.
///
/// Checking a schedule means comparing its outputs with those of the same
/// computation under the default schedule; for a 1024^3 GEMM that reference
/// is the naive triple loop and takes seconds. Comparing edits (the schedule
/// editor, the lesson) and candidates (the tuner) runs the same computation
/// many times, so its reference outputs are computed once and kept here:
/// keyed by the workload (BuildArtifact::workload: what is computed, not how)
/// and the seed of the inputs. The least recently used entries go first.
/// Thread-safe: workers measure while others look up.
#pragma once

#include "runtime/NDArray.h"

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessel::runtime {

class ReferenceStore {
public:
    explicit ReferenceStore(size_t capacity = 4) : capacity_(capacity) {}

    /// The outputs stored for (workload, seed), or nullopt. The arrays are
    /// shared with the store: copy before writing into them.
    std::optional<std::vector<NDArray>> find(const std::string& workload, uint64_t seed);
    /// Keeps copies of `outputs` for (workload, seed), replacing an older entry.
    void store(const std::string& workload, uint64_t seed, const std::vector<NDArray>& outputs);

    size_t size() const;
    size_t capacity() const { return capacity_; }
    void clear();

private:
    using Entry = std::pair<std::string, std::vector<NDArray>>;
    static std::string key(const std::string& workload, uint64_t seed);

    mutable std::mutex mutex_;
    size_t capacity_;
    std::list<Entry> entries_; ///< most recently used first
};

} // namespace tessel::runtime
