#include "tune/CostModel.h"

#include <stdexcept>

namespace tessel::tune {

void CostModelRegistry::add(CostModelRecord record) {
    if (record.name.empty()) throw std::invalid_argument("a cost model needs a name");
    if (!record.make) throw std::invalid_argument("cost model '" + record.name + "' has no factory");
    if (const CostModelRecord* had = find(record.name))
        throw std::invalid_argument("cost model '" + record.name + "' is already registered (from " + had->origin + ")");
    records_.push_back(std::move(record));
}

const CostModelRecord* CostModelRegistry::find(std::string_view name) const {
    for (auto& r : records_)
        if (r.name == name) return &r;
    return nullptr;
}

std::unique_ptr<CostModel> CostModelRegistry::make(std::string_view name, const CostModelOptions& options) const {
    const CostModelRecord* r = find(name);
    if (!r) {
        std::string known;
        for (auto& k : records_) known += (known.empty() ? "" : ", ") + k.name;
        throw std::invalid_argument("no cost model '" + std::string(name) + "' (known: " +
                                    (known.empty() ? "none" : known) + ")");
    }
    std::unique_ptr<CostModel> m = r->make(options);
    if (!m) throw std::invalid_argument("cost model '" + r->name + "' made nothing");
    return m;
}

} // namespace tessel::tune
