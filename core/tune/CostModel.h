/// \file
/// The cost model seam of the tuner (AutoTVM's CostModel): something that
/// learns from measured trials which configurations run fast and predicts a
/// score for configurations not measured yet, so that simulated annealing
/// can search the space over the model instead of over the device.
///
/// A model sees a trial only as a row of float features (tune/Features.h:
/// loop features of the lowered TIR, knob values, curve features) and a
/// score, higher is better (the tuner gives measured throughput normalised by
/// the best so far; a failed trial scores 0). Models are made by name from a
/// CostModelRegistry: "random" is built into core; "xgb" (XGBoost,
/// rank:pairwise by default, reg:squarederror with {"objective", "reg"})
/// comes from the plugin plugins/costmodel-xgboost, loaded with dlopen
/// (plugin/PluginLoader.h), so a third party can bring another model the same
/// way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::tune {

/// Rows of features, row-major: rows() x cols floats. A missing feature is NaN.
struct FeatureMatrix {
    size_t cols = 0;
    std::vector<float> values;

    size_t rows() const { return cols ? values.size() / cols : 0; }
    const float* row(size_t i) const { return values.data() + i * cols; }
};

/// What a model is made with. `options` holds model-specific settings as
/// text ("objective" = "rank" | "reg", "rounds" = "40", "max_depth" = "6" ...);
/// a model names the ones it reads in its summary and rejects unknown values
/// with std::invalid_argument.
struct CostModelOptions {
    uint64_t seed = 0;
    /// Threads the model may use while fitting and predicting (0: its own choice).
    int threads = 1;
    std::map<std::string, std::string> options;
};

class CostModel {
public:
    virtual ~CostModel() = default;
    /// The registry name it was made under ("xgb", "random").
    virtual std::string name() const = 0;
    /// Trains from scratch on `x` with scores `y` (higher is better), one per
    /// row. `groups`, for ranking objectives, gives the sizes of consecutive
    /// groups of rows that are compared with each other (trials of one task);
    /// empty means one group. Throws std::runtime_error when training fails.
    virtual void fit(const FeatureMatrix& x, const std::vector<float>& y,
                     const std::vector<unsigned>& groups = {}) = 0;
    /// A score per row: larger means predicted faster. Before fit() a model
    /// returns its prior (random scores, or all equal).
    virtual std::vector<float> predict(const FeatureMatrix& x) const = 0;
    /// True once fit() has trained on at least one row.
    virtual bool trained() const = 0;
};

using CostModelFactory = std::function<std::unique_ptr<CostModel>(const CostModelOptions&)>;

/// One kind of model a registry can make.
struct CostModelRecord {
    std::string name;    ///< "xgb"
    std::string summary; ///< one line, with the options it reads
    /// Where it came from: "built in" or the plugin's folder.
    std::string origin;
    CostModelFactory make;
};

/// The cost models by name. driver::Context owns one (filled with the
/// built-in models, then by plugins); no global registry.
class CostModelRegistry {
public:
    /// Adds a model kind; throws std::invalid_argument when the name is taken
    /// or the factory is empty.
    void add(CostModelRecord record);
    const CostModelRecord* find(std::string_view name) const;
    const std::vector<CostModelRecord>& records() const { return records_; }
    /// Makes model `name`; std::invalid_argument naming the known models when
    /// there is none.
    std::unique_ptr<CostModel> make(std::string_view name, const CostModelOptions& options = {}) const;

private:
    std::vector<CostModelRecord> records_;
};

} // namespace tessel::tune
