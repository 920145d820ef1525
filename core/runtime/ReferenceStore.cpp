#include "runtime/ReferenceStore.h"

namespace tessel::runtime {

std::string ReferenceStore::key(const std::string& workload, uint64_t seed) {
    return workload + "#seed=" + std::to_string(seed);
}

std::optional<std::vector<NDArray>> ReferenceStore::find(const std::string& workload, uint64_t seed) {
    const std::string k = key(workload, seed);
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->first == k) {
            entries_.splice(entries_.begin(), entries_, it);
            return entries_.front().second;
        }
    return std::nullopt;
}

void ReferenceStore::store(const std::string& workload, uint64_t seed, const std::vector<NDArray>& outputs) {
    std::vector<NDArray> copies;
    for (auto& a : outputs) copies.push_back(a.copy());
    const std::string k = key(workload, seed);
    std::lock_guard lock(mutex_);
    entries_.remove_if([&](const Entry& e) { return e.first == k; });
    entries_.emplace_front(k, std::move(copies));
    while (entries_.size() > capacity_) entries_.pop_back();
}

size_t ReferenceStore::size() const {
    std::lock_guard lock(mutex_);
    return entries_.size();
}

void ReferenceStore::clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
}

} // namespace tessel::runtime
