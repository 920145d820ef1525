#include "tune/RandomModel.h"

#include <stdexcept>

namespace tessel::tune {

RandomModel::RandomModel(const CostModelOptions& options) : rng_(options.seed ^ 0x9e3779b97f4a7c15ull) {}

void RandomModel::fit(const FeatureMatrix& x, const std::vector<float>& y, const std::vector<unsigned>&) {
    if (y.size() != x.rows()) throw std::runtime_error("random model: " + std::to_string(x.rows()) + " rows but " +
                                                       std::to_string(y.size()) + " scores");
    trained_ = trained_ || x.rows() > 0;
}

std::vector<float> RandomModel::predict(const FeatureMatrix& x) const {
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::vector<float> out(x.rows());
    std::lock_guard<std::mutex> lock(m_);
    for (auto& v : out) v = u(rng_);
    return out;
}

void registerBuiltinCostModels(CostModelRegistry& registry) {
    registry.add({"random", "random scores, learns nothing (reads no options)", "built in",
                  [](const CostModelOptions& o) { return std::make_unique<RandomModel>(o); }});
}

} // namespace tessel::tune
