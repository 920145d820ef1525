#include "tune/CostModel.h"

#include <stdexcept>

namespace tessel::tune {

void CostModelRegistry::add(CostModelRecord record) {
    if (record.name.empty()) throw std::invalid_argument("a cost model needs a name");
    if (!record.make)
        throw std::invalid_argument("cost model '" + record.name + "' has no factory");
    if (const CostModelRecord* taken = find(record.name))
        throw std::invalid_argument("cost model '" + record.name + "' is already registered" +
                                    (taken->origin.empty() ? "" : " (" + taken->origin + ")"));
    records_.push_back(std::move(record));
}

const CostModelRecord* CostModelRegistry::find(std::string_view name) const {
    for (const CostModelRecord& r : records_)
        if (r.name == name) return &r;
    return nullptr;
}

std::unique_ptr<CostModel> CostModelRegistry::make(std::string_view name,
                                                   const CostModelOptions& options) const {
    const CostModelRecord* r = find(name);
    if (!r) {
        std::string known;
        for (const CostModelRecord& k : records_)
            known += (known.empty() ? "" : ", ") + k.name;
        throw std::invalid_argument("no cost model '" + std::string(name) +
                                    "' (known: " + (known.empty() ? "none" : known) + ")");
    }
    std::unique_ptr<CostModel> model = r->make(options);
    if (!model)
        throw std::runtime_error("cost model '" + r->name + "' (" + r->origin + ") made no model");
    return model;
}

} // namespace tessel::tune
