#include "XgbCostModel.h"

#include <xgboost/c_api.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace tessel::xgb {

namespace {

/// XGBoost's last error without what only its developers need: the
/// "[12:00:00] ./src/data/data.cc:461: " prefix and the stack trace after it.
std::string lastError() {
    std::string e = XGBGetLastError();
    if (auto nl = e.find('\n'); nl != std::string::npos) e.resize(nl);
    if (e.starts_with("[")) {
        if (auto close = e.find("] "); close != std::string::npos) {
            if (auto where = e.find(": ", close + 2); where != std::string::npos)
                e = e.substr(where + 2);
        }
    }
    return e;
}

/// Turns an XGBoost return code into an exception with XGBoost's own message.
void check(int rc, const char* call) {
    if (rc != 0)
        throw std::runtime_error(std::string("XGBoost ") + call + " failed: " + lastError());
}

/// A DMatrix freed at the end of its scope.
struct DMatrix {
    DMatrixHandle handle = nullptr;
    ~DMatrix() {
        if (handle) XGDMatrixFree(handle);
    }
};

/// A booster freed at the end of its scope unless released.
struct Booster {
    BoosterHandle handle = nullptr;
    ~Booster() {
        if (handle) XGBoosterFree(handle);
    }
    BoosterHandle release() { return std::exchange(handle, nullptr); }
};

[[noreturn]] void badOption(const std::string& key, const std::string& value, const char* accepts) {
    throw std::invalid_argument("xgb: option " + key + "='" + value + "': expected " + accepts);
}

int intOption(const tune::CostModelOptions& o, const std::string& key, int fallback, int least) {
    auto it = o.options.find(key);
    if (it == o.options.end()) return fallback;
    const std::string& v = it->second;
    int n = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || end != v.data() + v.size() || n < least)
        badOption(key, v, least == 0 ? "an integer >= 0" : "an integer >= 1");
    return n;
}

/// A finite number in [least, most], or (least, most] when leastExclusive.
double realOption(const tune::CostModelOptions& o, const std::string& key, double fallback,
                  double least, double most, bool leastExclusive, const char* accepts) {
    auto it = o.options.find(key);
    if (it == o.options.end()) return fallback;
    const std::string& v = it->second;
    char* end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size() || !std::isfinite(d) || d < least || d > most ||
        (leastExclusive && d == least))
        badOption(key, v, accepts);
    return d;
}

std::string text(double d) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    return buf;
}

void setParam(BoosterHandle b, const char* name, const std::string& value) {
    check(XGBoosterSetParam(b, name, value.c_str()), "XGBoosterSetParam");
}

void checkShape(const tune::FeatureMatrix& x) {
    if (x.cols == 0 ? !x.values.empty() : x.values.size() % x.cols != 0)
        throw std::invalid_argument("xgb: " + std::to_string(x.values.size()) +
                                    " feature values are not rows of " + std::to_string(x.cols));
}

} // namespace

XgbOptions XgbOptions::parse(const tune::CostModelOptions& o) {
    XgbOptions r;
    if (auto it = o.options.find("objective"); it != o.options.end()) {
        if (it->second == "rank")
            r.objective = Objective::Rank;
        else if (it->second == "reg")
            r.objective = Objective::Reg;
        else
            badOption("objective", it->second, "rank or reg");
    }
    if (auto it = o.options.find("tree_method"); it != o.options.end()) {
        if (it->second != "hist" && it->second != "exact" && it->second != "approx")
            badOption("tree_method", it->second, "hist, exact or approx");
        r.treeMethod = it->second;
    }
    r.rounds = intOption(o, "rounds", r.rounds, 1);
    r.maxDepth = intOption(o, "max_depth", r.maxDepth, 1);
    r.eta = realOption(o, "eta", r.eta, 0.0, 1.0, true, "a number in (0, 1]");
    r.minChildWeight = realOption(o, "min_child_weight", r.minChildWeight, 0.0,
                                  std::numeric_limits<double>::max(), false, "a number >= 0");
    r.gamma = realOption(o, "gamma", r.gamma, 0.0, std::numeric_limits<double>::max(), false,
                         "a number >= 0");
    if (o.threads < 0)
        throw std::invalid_argument("xgb: threads must be >= 0, not " + std::to_string(o.threads));
    r.seed = o.seed;
    r.threads = o.threads;
    return r;
}

const char* XgbOptions::xgbObjective() const {
    return objective == Objective::Rank ? "rank:pairwise" : "reg:squarederror";
}

const char* XgbCostModel::summary() {
    return "XGBoost gradient-boosted trees (AutoTVM's cost model); options: objective=rank|reg "
           "(rank:pairwise, "
           "the default, or reg:squarederror), rounds=40, max_depth=3, eta=0.3, "
           "min_child_weight=1, "
           "gamma=0.0001, tree_method=hist|exact|approx (default hist); seed and threads as given";
}

XgbCostModel::XgbCostModel(const tune::CostModelOptions& options)
    : options_(XgbOptions::parse(options)) {}

XgbCostModel::~XgbCostModel() {
    if (booster_) XGBoosterFree(booster_);
}

bool XgbCostModel::trained() const {
    std::shared_lock lock(mutex_);
    return booster_ != nullptr;
}

void XgbCostModel::fit(const tune::FeatureMatrix& x, const std::vector<float>& y,
                       const std::vector<unsigned>& groups) {
    checkShape(x);
    const size_t rows = x.rows();
    if (y.size() != rows)
        throw std::invalid_argument("xgb: " + std::to_string(y.size()) + " scores for " +
                                    std::to_string(rows) + " rows");
    std::vector<unsigned> sizes;
    for (unsigned g : groups)
        if (g > 0) sizes.push_back(g);
    if (!groups.empty() && std::accumulate(sizes.begin(), sizes.end(), size_t{0}) != rows)
        throw std::invalid_argument("xgb: the groups' sizes do not add up to the " +
                                    std::to_string(rows) + " rows");
    if (rows == 0) {
        std::unique_lock lock(mutex_);
        if (booster_) XGBoosterFree(std::exchange(booster_, nullptr));
        cols_ = 0;
        return;
    }
    if (sizes.empty()) sizes.push_back(static_cast<unsigned>(rows));

    // Trained outside the lock: predictions go on with the old booster meanwhile.
    DMatrix train;
    check(XGDMatrixCreateFromMat_omp(x.values.data(), rows, x.cols,
                                     std::numeric_limits<float>::quiet_NaN(), &train.handle,
                                     options_.threads),
          "XGDMatrixCreateFromMat_omp");
    check(XGDMatrixSetFloatInfo(train.handle, "label", y.data(), rows),
          "XGDMatrixSetFloatInfo(label)");
    if (options_.objective == XgbOptions::Objective::Rank)
        check(XGDMatrixSetUIntInfo(train.handle, "group", sizes.data(), sizes.size()),
              "XGDMatrixSetUIntInfo(group)");

    Booster booster;
    check(XGBoosterCreate(&train.handle, 1, &booster.handle), "XGBoosterCreate");
    setParam(booster.handle, "verbosity", "0");
    setParam(booster.handle, "objective", options_.xgbObjective());
    setParam(booster.handle, "max_depth", std::to_string(options_.maxDepth));
    setParam(booster.handle, "eta", text(options_.eta));
    setParam(booster.handle, "min_child_weight", text(options_.minChildWeight));
    setParam(booster.handle, "gamma", text(options_.gamma));
    setParam(booster.handle, "lambda", "1");
    setParam(booster.handle, "alpha", "0");
    setParam(booster.handle, "subsample", "1");
    setParam(booster.handle, "tree_method", options_.treeMethod);
    // XGBoost's seed is a 32-bit int.
    setParam(booster.handle, "seed", std::to_string(options_.seed % 2147483647u));
    if (options_.threads > 0) setParam(booster.handle, "nthread", std::to_string(options_.threads));
    for (int i = 0; i < options_.rounds; ++i)
        check(XGBoosterUpdateOneIter(booster.handle, i, train.handle), "XGBoosterUpdateOneIter");

    std::unique_lock lock(mutex_);
    if (booster_) XGBoosterFree(booster_);
    booster_ = booster.release();
    cols_ = x.cols;
}

std::vector<float> XgbCostModel::predict(const tune::FeatureMatrix& x) const {
    checkShape(x);
    const size_t rows = x.rows();
    std::shared_lock lock(mutex_);
    if (!booster_) return std::vector<float>(rows, 0.0f);
    if (rows == 0) return {};
    if (x.cols != cols_)
        throw std::invalid_argument("xgb: rows of " + std::to_string(x.cols) +
                                    " features, trained on " + std::to_string(cols_));
    // __array_interface__ of the rows (XGBoost reads them in place) and a
    // plain prediction over every tree, NaN meaning missing.
    const std::string values = "{\"data\": [" +
                               std::to_string(reinterpret_cast<uintptr_t>(x.values.data())) +
                               ", true], \"shape\": [" + std::to_string(rows) + ", " +
                               std::to_string(x.cols) + "], \"typestr\": \"<f4\", \"version\": 3}";
    const char* config = "{\"type\": 0, \"training\": false, \"cache_id\": 0, \"iteration_begin\": "
                         "0, \"iteration_end\": 0, \"strict_shape\": false, "
                         "\"missing\": NaN}";
    const bst_ulong* shape = nullptr;
    bst_ulong dims = 0;
    const float* out = nullptr;
    check(XGBoosterPredictFromDense(booster_, values.c_str(), config, nullptr, &shape, &dims, &out),
          "XGBoosterPredictFromDense");
    bst_ulong n = dims == 0 ? 0 : 1;
    for (bst_ulong d = 0; d < dims; ++d)
        n *= shape[d];
    if (n != rows)
        throw std::runtime_error("XGBoost predicted " + std::to_string(n) + " values for " +
                                 std::to_string(rows) + " rows");
    return std::vector<float>(out, out + rows);
}

} // namespace tessel::xgb
