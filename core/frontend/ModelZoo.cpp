/// \file
/// The model zoo (ModelZoo.h): torchvision's ResNet-18 and MobileNetV2 written
/// as ONNX through the protobuf classes, with seeded, calibrated weights.
///
/// Every layer is added to the ONNX graph and, at the same time, computed on a
/// seeded calibration image by the small float interpreter below. A batch norm
/// takes its running statistics from what actually reaches it, so each one
/// normalises its input whatever the depth, the residual sums or the clipping
/// before it did (the idea of data-dependent initialisation, LSUV). The image
/// is 112 x 112 rather than 224 x 224: a quarter of the work, and per-channel
/// statistics barely depend on the size of the image.
#include "frontend/ModelZoo.h"

#include "ir/Diagnostic.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

namespace tessel::frontend {

namespace {

static_assert(std::endian::native == std::endian::little, "ONNX raw_data is little-endian");

constexpr int64_t kImageSize = 224;       ///< the models' input: float32[1, 3, 224, 224]
constexpr int64_t kCalibrationSize = 112; ///< the image batch norms are measured on
constexpr int64_t kClasses = 1000;
constexpr double kLogitStd = 1.0; ///< the classifier's scale on the calibration image

/// Seeded numbers that are the same on every platform: std::mt19937_64 is
/// specified bit for bit, and the conversions are plain arithmetic
/// (std::uniform_real_distribution's are left to the library).
class Random {
public:
    explicit Random(uint64_t seed) : rng_(seed) {}
    /// In [0, 1), 53 random bits.
    double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

private:
    std::mt19937_64 rng_;
};

/// A value of the graph and its contents on the calibration image (one image, CHW).
struct Act {
    std::string name;
    int64_t c = 0, h = 0, w = 0;
    std::vector<float> data;

    float* plane(int64_t ch) { return data.data() + ch * h * w; }
    const float* plane(int64_t ch) const { return data.data() + ch * h * w; }
};

/// torch.onnx's scope of a module path: "layer1.0.conv1" -> "/layer1/layer1.0/conv1",
/// "features.1.conv.0.0" -> "/features/features.1/conv/conv.0/conv.0.0" (a child of a
/// Sequential is named after its parent).
std::string scopeOf(const std::string& module) {
    std::string scope, name;
    size_t pos = 0;
    while (pos < module.size()) {
        size_t dot = std::min(module.find('.', pos), module.size());
        std::string part = module.substr(pos, dot - pos);
        bool index = !part.empty() && std::all_of(part.begin(), part.end(),
                                                  [](char c) { return c >= '0' && c <= '9'; });
        name = index && !name.empty() ? name + "." + part : part;
        scope += "/" + name;
        pos = dot + 1;
    }
    return scope;
}

/// Builds the ONNX model and runs each layer on the calibration image as it goes.
class Builder {
public:
    Builder(const std::string& name, uint64_t seed) : rng_(seed) {
        model_.set_ir_version(7);
        model_.set_producer_name("tessel-model-zoo");
        model_.set_producer_version("1");
        model_.set_doc_string("torchvision " + name + " with seeded random weights (seed " +
                              std::to_string(seed) + "), written by Tessel's model zoo");
        auto* opset = model_.add_opset_import();
        opset->set_domain("");
        opset->set_version(13);
        graph_ = model_.mutable_graph();
        graph_->set_name(name);
    }

    Act input() {
        valueInfo(graph_->add_input(), "input", {1, 3, kImageSize, kImageSize});
        Act a{"input", 3, kCalibrationSize, kCalibrationSize, {}};
        // In [0, 1), like the inputs `tesselc run` makes.
        a.data.resize(static_cast<size_t>(a.c * a.h * a.w));
        for (auto& v : a.data)
            v = static_cast<float>(rng_.uniform());
        return a;
    }

    /// Conv2d without bias (torchvision's convolutions before a batch norm).
    Act conv(const Act& x, const std::string& module, int64_t out, int64_t k, int64_t stride,
             int64_t groups) {
        const int64_t pad = (k - 1) / 2;
        const int64_t inPer = x.c / groups, outPer = out / groups;
        const double bound = std::sqrt(6.0 / static_cast<double>(inPer * k * k)); // He uniform
        std::vector<float> w(static_cast<size_t>(out * inPer * k * k));
        for (auto& v : w)
            v = static_cast<float>(rng_.uniform(-bound, bound));
        initializer(module + ".weight", {out, inPer, k, k}, w);
        auto* n = node(scopeOf(module), "Conv", {x.name, module + ".weight"});
        ints(n, "dilations", {1, 1});
        intAttr(n, "group", groups);
        ints(n, "kernel_shape", {k, k});
        ints(n, "pads", {pad, pad, pad, pad});
        ints(n, "strides", {stride, stride});

        Act y{n->output(0),
              out,
              (x.h + 2 * pad - k) / stride + 1,
              (x.w + 2 * pad - k) / stride + 1,
              {}};
        y.data.assign(static_cast<size_t>(y.c * y.h * y.w), 0.0f);
        for (int64_t oc = 0; oc < out; ++oc) {
            float* o = y.plane(oc);
            for (int64_t icl = 0; icl < inPer; ++icl) {
                const float* in = x.plane(oc / outPer * inPer + icl);
                for (int64_t kh = 0; kh < k; ++kh)
                    for (int64_t kw = 0; kw < k; ++kw) {
                        const float wv =
                            w[static_cast<size_t>(((oc * inPer + icl) * k + kh) * k + kw)];
                        // Output columns whose input column is inside the image.
                        const int64_t lo = pad - kw, hi = x.w - 1 + pad - kw;
                        const int64_t owLo = lo <= 0 ? 0 : (lo + stride - 1) / stride;
                        const int64_t owHi = hi < 0 ? 0 : std::min(y.w, hi / stride + 1);
                        for (int64_t oh = 0; oh < y.h; ++oh) {
                            const int64_t ih = oh * stride - pad + kh;
                            if (ih < 0 || ih >= x.h) continue;
                            const float* row = in + ih * x.w;
                            float* orow = o + oh * y.w;
                            if (stride == 1) { // the common case, written so that it vectorizes
                                const int64_t off = kw - pad;
                                for (int64_t ow = owLo; ow < owHi; ++ow)
                                    orow[ow] += wv * row[ow + off];
                            } else {
                                for (int64_t ow = owLo; ow < owHi; ++ow)
                                    orow[ow] += wv * row[ow * stride - pad + kw];
                            }
                        }
                    }
            }
        }
        return y;
    }

    /// BatchNorm2d in eval mode, its running statistics measured on `x`.
    Act batchNorm(const Act& x, const std::string& module) {
        const size_t c = static_cast<size_t>(x.c);
        const int64_t n = x.h * x.w;
        std::vector<double> mean(c), var(c);
        double meanVar = 0;
        for (size_t ch = 0; ch < c; ++ch) {
            const float* p = x.plane(static_cast<int64_t>(ch));
            double s = 0, s2 = 0;
            for (int64_t i = 0; i < n; ++i) {
                s += p[i];
                s2 += static_cast<double>(p[i]) * p[i];
            }
            mean[ch] = s / static_cast<double>(n);
            var[ch] = std::max(0.0, s2 / static_cast<double>(n) - mean[ch] * mean[ch]);
            meanVar += var[ch] / static_cast<double>(c);
        }
        // Statistics near the measured ones, not equal (so folding is no identity),
        // and a random affine part. A channel that hardly varies on this image is
        // not blown up on another.
        std::vector<float> gamma(c), beta(c), runMean(c), runVar(c);
        for (size_t ch = 0; ch < c; ++ch) {
            double v = std::max(var[ch], 1e-2 * meanVar + 1e-6);
            runMean[ch] = static_cast<float>(mean[ch] + 0.1 * std::sqrt(v) * rng_.uniform(-1, 1));
            runVar[ch] = static_cast<float>(v * rng_.uniform(0.7, 1.4));
            gamma[ch] = static_cast<float>(rng_.uniform(0.5, 1.5));
            beta[ch] = static_cast<float>(rng_.uniform(-0.1, 0.3));
        }
        initializer(module + ".weight", {x.c}, gamma);
        initializer(module + ".bias", {x.c}, beta);
        initializer(module + ".running_mean", {x.c}, runMean);
        initializer(module + ".running_var", {x.c}, runVar);
        auto* nd = node(scopeOf(module), "BatchNormalization",
                        {x.name, module + ".weight", module + ".bias", module + ".running_mean",
                         module + ".running_var"});
        floatAttr(nd, "epsilon", 1e-5f);
        floatAttr(nd, "momentum", 0.9f);

        Act y = x;
        y.name = nd->output(0);
        for (size_t ch = 0; ch < c; ++ch) {
            const float scale = gamma[ch] / std::sqrt(runVar[ch] + 1e-5f);
            const float shift = beta[ch] - runMean[ch] * scale;
            float* p = y.plane(static_cast<int64_t>(ch));
            for (int64_t i = 0; i < n; ++i)
                p[i] = p[i] * scale + shift;
        }
        return y;
    }

    Act relu(const Act& x, const std::string& module) {
        auto* n = node(scopeOf(module), "Relu", {x.name});
        Act y = x;
        y.name = n->output(0);
        for (auto& v : y.data)
            v = std::max(v, 0.0f);
        return y;
    }

    /// ReLU6 as torch.onnx writes it at opset 13: Clip with two Constant bounds.
    Act relu6(const Act& x, const std::string& module) {
        const std::string scope = scopeOf(module);
        auto scalar = [&](float v) {
            auto* c = node(scope, "Constant", {});
            onnx::AttributeProto* a = attr(c, "value");
            a->set_type(onnx::AttributeProto::TENSOR);
            onnx::TensorProto* t = a->mutable_t();
            t->set_data_type(onnx::TensorProto::FLOAT);
            t->set_raw_data(&v, sizeof v);
            return c->output(0);
        };
        std::string lo = scalar(0.0f), hi = scalar(6.0f);
        auto* n = node(scope, "Clip", {x.name, lo, hi});
        Act y = x;
        y.name = n->output(0);
        for (auto& v : y.data)
            v = std::clamp(v, 0.0f, 6.0f);
        return y;
    }

    Act add(const Act& a, const Act& b, const std::string& module) {
        auto* n = node(scopeOf(module), "Add", {a.name, b.name});
        Act y = a;
        y.name = n->output(0);
        for (size_t i = 0; i < y.data.size(); ++i)
            y.data[i] += b.data[i];
        return y;
    }

    /// MaxPool2d(kernel_size=3, stride=2, padding=1), as ResNet's stem has it.
    Act maxPool(const Act& x, const std::string& module) {
        const int64_t k = 3, s = 2, p = 1;
        auto* n = node(scopeOf(module), "MaxPool", {x.name});
        intAttr(n, "ceil_mode", 0);
        ints(n, "kernel_shape", {k, k});
        ints(n, "pads", {p, p, p, p});
        ints(n, "strides", {s, s});
        Act y{n->output(0), x.c, (x.h + 2 * p - k) / s + 1, (x.w + 2 * p - k) / s + 1, {}};
        y.data.resize(static_cast<size_t>(y.c * y.h * y.w));
        for (int64_t ch = 0; ch < y.c; ++ch)
            for (int64_t oh = 0; oh < y.h; ++oh)
                for (int64_t ow = 0; ow < y.w; ++ow) {
                    float m = -INFINITY;
                    for (int64_t ih = std::max<int64_t>(0, oh * s - p);
                         ih < std::min(x.h, oh * s - p + k); ++ih)
                        for (int64_t iw = std::max<int64_t>(0, ow * s - p);
                             iw < std::min(x.w, ow * s - p + k); ++iw)
                            m = std::max(m, x.plane(ch)[ih * x.w + iw]);
                    y.plane(ch)[oh * y.w + ow] = m;
                }
        return y;
    }

    Act globalAveragePool(const Act& x, const std::string& module) {
        auto* n = node(scopeOf(module), "GlobalAveragePool", {x.name});
        Act y{n->output(0), x.c, 1, 1, std::vector<float>(static_cast<size_t>(x.c))};
        for (int64_t ch = 0; ch < x.c; ++ch) {
            double s = 0;
            for (int64_t i = 0; i < x.h * x.w; ++i)
                s += x.plane(ch)[i];
            y.data[static_cast<size_t>(ch)] =
                static_cast<float>(s / static_cast<double>(x.h * x.w));
        }
        return y;
    }

    /// torch.flatten(x, 1) outside any module.
    Act flatten(const Act& x) {
        auto* n = node("", "Flatten", {x.name});
        intAttr(n, "axis", 1);
        Act y = x;
        y.name = n->output(0);
        return y;
    }

    /// The classifier, Linear(in, 1000), whose output is the graph output
    /// "output". Its weights are scaled so that the logits of the calibration
    /// image have a standard deviation of about kLogitStd across classes.
    void classifier(const Act& x, const std::string& module) {
        const int64_t in = x.c;
        double sumSq = 0;
        for (float v : x.data)
            sumSq += static_cast<double>(v) * v;
        const double linear = 1.0 / std::sqrt(static_cast<double>(in)); // nn.Linear's bound
        const double bound = sumSq > 0 ? std::sqrt(3.0 / sumSq) * kLogitStd : linear;
        std::vector<float> w(static_cast<size_t>(kClasses * in)), b(static_cast<size_t>(kClasses));
        for (auto& v : w)
            v = static_cast<float>(rng_.uniform(-bound, bound));
        for (auto& v : b)
            v = static_cast<float>(rng_.uniform(-linear, linear));
        initializer(module + ".weight", {kClasses, in}, w);
        initializer(module + ".bias", {kClasses}, b);
        auto* n = node(scopeOf(module), "Gemm", {x.name, module + ".weight", module + ".bias"});
        n->set_output(0, "output");
        floatAttr(n, "alpha", 1.0f);
        floatAttr(n, "beta", 1.0f);
        intAttr(n, "transB", 1);
        valueInfo(graph_->add_output(), "output", {1, kClasses});
    }

    std::string serialize() const { return model_.SerializeAsString(); }

private:
    /// A node named as torch.onnx names it: "<scope>/<Op>", then "<scope>/<Op>_1" ...
    /// for the next one of the same operator in that scope; one output, "<name>_output_0".
    onnx::NodeProto* node(const std::string& scope, const std::string& op,
                          const std::vector<std::string>& inputs) {
        const std::string base = scope + "/" + op;
        int& uses = uses_[base];
        const std::string name = uses == 0 ? base : base + "_" + std::to_string(uses);
        ++uses;
        auto* n = graph_->add_node();
        n->set_name(name);
        n->set_op_type(op);
        for (auto& i : inputs)
            n->add_input(i);
        n->add_output(name + "_output_0");
        return n;
    }

    static onnx::AttributeProto* attr(onnx::NodeProto* n, const std::string& name) {
        auto* a = n->add_attribute();
        a->set_name(name);
        return a;
    }

    static void intAttr(onnx::NodeProto* n, const std::string& name, int64_t v) {
        auto* a = attr(n, name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(v);
    }

    static void floatAttr(onnx::NodeProto* n, const std::string& name, float v) {
        auto* a = attr(n, name);
        a->set_type(onnx::AttributeProto::FLOAT);
        a->set_f(v);
    }

    static void ints(onnx::NodeProto* n, const std::string& name,
                     const std::vector<int64_t>& values) {
        auto* a = attr(n, name);
        a->set_type(onnx::AttributeProto::INTS);
        for (int64_t v : values)
            a->add_ints(v);
    }

    void initializer(const std::string& name, const std::vector<int64_t>& dims,
                     const std::vector<float>& values) {
        auto* t = graph_->add_initializer();
        for (int64_t d : dims)
            t->add_dims(d);
        t->set_data_type(onnx::TensorProto::FLOAT);
        t->set_name(name);
        t->set_raw_data(values.data(), values.size() * sizeof(float));
    }

    static void valueInfo(onnx::ValueInfoProto* v, const std::string& name,
                          const std::vector<int64_t>& dims) {
        v->set_name(name);
        auto* t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(onnx::TensorProto::FLOAT);
        for (int64_t d : dims)
            t->mutable_shape()->add_dim()->set_dim_value(d);
    }

    Random rng_;
    onnx::ModelProto model_;
    onnx::GraphProto* graph_ = nullptr;
    std::map<std::string, int> uses_;
};

/// torchvision.models.resnet18: a 7x7 stem, four stages of two basic blocks
/// (64, 128, 256, 512 channels; the first block of stages 2-4 strides and has
/// a 1x1 downsampling shortcut), global average pool, Linear(512, 1000).
void buildResNet18(Builder& b) {
    Act x = b.input();
    x = b.conv(x, "conv1", 64, 7, 2, 1);
    x = b.batchNorm(x, "bn1");
    x = b.relu(x, "relu");
    x = b.maxPool(x, "maxpool");
    const int64_t widths[] = {64, 128, 256, 512};
    for (int stage = 0; stage < 4; ++stage)
        for (int block = 0; block < 2; ++block) {
            const std::string m = "layer" + std::to_string(stage + 1) + "." + std::to_string(block);
            const int64_t width = widths[stage], stride = stage > 0 && block == 0 ? 2 : 1;
            Act y = b.conv(x, m + ".conv1", width, 3, stride, 1);
            y = b.batchNorm(y, m + ".bn1");
            y = b.relu(y, m + ".relu");
            y = b.conv(y, m + ".conv2", width, 3, 1, 1);
            y = b.batchNorm(y, m + ".bn2");
            Act identity = x;
            if (stride != 1 || x.c != width) {
                identity = b.conv(x, m + ".downsample.0", width, 1, stride, 1);
                identity = b.batchNorm(identity, m + ".downsample.1");
            }
            y = b.add(y, identity, m);
            x = b.relu(y, m + ".relu_1"); // the block's relu module, called a second time
        }
    x = b.globalAveragePool(x, "avgpool");
    b.classifier(b.flatten(x), "fc");
}

/// torchvision.models.mobilenet_v2 (width 1.0): a strided 3x3 stem, 17 inverted
/// residual blocks (1x1 expansion, 3x3 depthwise, 1x1 linear projection; a
/// residual Add where stride is 1 and the width is kept), a 1x1 convolution to
/// 1280 channels, global average pool, Linear(1280, 1000) (dropout is gone in eval).
void buildMobileNetV2(Builder& b) {
    // Conv2dNormActivation: conv, batch norm, ReLU6 as children .0, .1, .2.
    auto convBnRelu6 = [&](const Act& in, const std::string& m, int64_t out, int64_t k,
                           int64_t stride, int64_t groups) {
        Act y = b.conv(in, m + ".0", out, k, stride, groups);
        y = b.batchNorm(y, m + ".1");
        return b.relu6(y, m + ".2");
    };
    Act x = b.input();
    x = convBnRelu6(x, "features.0", 32, 3, 2, 1);
    struct Setting {
        int64_t expand, width, repeat, stride;
    };
    const Setting settings[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                                {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    int feature = 1;
    for (const Setting& s : settings)
        for (int64_t i = 0; i < s.repeat; ++i, ++feature) {
            const std::string m = "features." + std::to_string(feature) + ".conv";
            const int64_t stride = i == 0 ? s.stride : 1, hidden = x.c * s.expand;
            int child = 0;
            auto next = [&] { return m + "." + std::to_string(child++); };
            Act y = x;
            if (s.expand != 1) y = convBnRelu6(y, next(), hidden, 1, 1, 1);
            y = convBnRelu6(y, next(), hidden, 3, stride, hidden);
            y = b.conv(y, next(), s.width, 1, 1, 1);
            y = b.batchNorm(y, next());
            if (stride == 1 && x.c == s.width)
                y = b.add(x, y, "features." + std::to_string(feature));
            x = y;
        }
    x = convBnRelu6(x, "features.18", 1280, 1, 1, 1);
    x = b.globalAveragePool(x, "");
    b.classifier(b.flatten(x), "classifier.1");
}

struct ZooModel {
    const char* name;
    const char* description;
    void (*build)(Builder&);
};

const ZooModel kModels[] = {
    {"resnet18",
     "ResNet-18 (torchvision resnet18): 20 Conv + BatchNormalization, Relu, MaxPool, 8 residual "
     "Adds, "
     "GlobalAveragePool, Flatten, Gemm; 11.7 M parameters, 1.8 G multiply-adds",
     buildResNet18},
    {"mobilenet_v2",
     "MobileNetV2 (torchvision mobilenet_v2): 52 Conv (17 depthwise) + BatchNormalization, Clip "
     "(ReLU6), "
     "10 residual Adds, GlobalAveragePool, Flatten, Gemm; 3.5 M parameters, 0.3 G multiply-adds",
     buildMobileNetV2},
};

const ZooModel& find(const std::string& name) {
    for (auto& m : kModels)
        if (name == m.name) return m;
    std::string names;
    for (auto& m : kModels)
        names += std::string(names.empty() ? "" : ", ") + m.name;
    throw CompileError("the model zoo has no model '" + name + "' (it has " + names + ")");
}

} // namespace

std::vector<std::string> zooModelNames() {
    std::vector<std::string> names;
    for (auto& m : kModels)
        names.emplace_back(m.name);
    return names;
}

std::string zooModelDescription(const std::string& name) {
    return find(name).description;
}

std::string zooModelBytes(const std::string& name, uint64_t seed) {
    const ZooModel& m = find(name);
    Builder b(m.name, seed);
    m.build(b);
    return b.serialize();
}

void writeZooModel(const std::string& name, const std::string& path, uint64_t seed) {
    namespace fs = std::filesystem;
    const std::string bytes = zooModelBytes(name, seed);
    const fs::path tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ignored;
            fs::remove(tmp, ignored);
            throw CompileError("cannot write '" + path + "'");
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw CompileError("cannot write '" + path + "': " + ec.message());
    }
}

} // namespace tessel::frontend
