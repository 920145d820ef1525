// topi.nn's convolutions, matrix products, pooling and batch normalisation
// (topi/Nn.h, Conv2dNCHWc.h, DensePacked.h): TVM's keywords checked where
// they are written, then mapped onto ConvParams, PoolParams, GemmParams.
#include "topi/script/Bindings.h"

#include "ir/Layout.h"

#include "topi/Conv2dNCHWc.h"
#include "topi/DensePacked.h"
#include "topi/Nn.h"
#include "topi/TopiUtil.h"
#include "topi/Transform.h"

namespace tessel::topi::script {

using te::Tensor;
using ts::Value;

namespace {

std::string shapeText(const Tensor& t) {
    std::string s = "[";
    auto shape = staticShape(t);
    for (size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

/// "'x' (float32[1, 16, 9, 9])"
std::string describe(const Tensor& t) {
    return "'" + t.name() + "' (" + t->dtype.str() + shapeText(t) + ")";
}

/// A window list (strides, dilation, kernel): one value or one per spatial axis.
void checkPerAxis(const Call& c, size_t i, const std::vector<int64_t>& v, size_t n) {
    if (v.size() > 1 && v.size() != n)
        c.fail(i, c.param(i) + " has " + std::to_string(v.size()) + " values for " +
                      std::to_string(n) + " spatial axes (give 1 or " + std::to_string(n) + ")");
}

/// Padding: one value, one per axis, or every begin then every end.
void checkPadding(const Call& c, size_t i, const std::vector<int64_t>& v, size_t n) {
    if (v.size() > 1 && v.size() != n && v.size() != 2 * n)
        c.fail(i, c.param(i) + " has " + std::to_string(v.size()) + " values for " +
                      std::to_string(n) + " spatial axes (give 1, " + std::to_string(n) + " or " +
                      std::to_string(2 * n) + ": every begin, then every end)");
}

/// Data of rank `rank` (0: any rank with at least one spatial axis).
void checkData(const Call& c, size_t i, const Tensor& data, int rank) {
    if (rank > 0 && data.ndim() != rank)
        c.fail(i, c.param(i) + " must be " + std::to_string(rank) + "-d (N, C, H, W), but " +
                      describe(data) + " is not");
    if (data.ndim() < 3)
        c.fail(i, c.param(i) + " needs at least one spatial axis (N, C, D1, ...), but " +
                      describe(data) + " has none");
}

void checkSameDType(const Call& c, size_t i, const Tensor& a, const Tensor& b) {
    if (a->dtype != b->dtype) c.fail(i, describe(b) + " must have the dtype of " + describe(a));
}

/// A bias of one value per output channel.
void checkBias(const Call& c, size_t i, const Tensor& bias, int64_t channels, const Tensor& data) {
    if (!bias.defined()) return;
    if (bias.ndim() != 1 || staticShape(bias)[0] != channels)
        c.fail(i, "'bias' must be 1-d with one value per output channel (" +
                      std::to_string(channels) + "), not " + describe(bias));
    checkSameDType(c, i, data, bias);
}

/// The geometry shared by conv, conv2d, depthwise_conv2d and conv2d_nchwc
/// (arguments 2, 3, 4: strides, padding, dilation).
nn::ConvParams convWindow(Call& c, size_t spatial) {
    nn::ConvParams p;
    p.strides = c.positiveInts(2);
    checkPerAxis(c, 2, p.strides, spatial);
    p.padding = c.nonNegativeInts(3);
    checkPadding(c, 3, p.padding, spatial);
    p.dilation = c.positiveInts(4);
    checkPerAxis(c, 4, p.dilation, spatial);
    return p;
}

/// conv(data, kernel, strides, padding, dilation, groups, bias, name).
Value conv(Call& c, int rank, const char* defaultName) {
    Tensor data = c.tensor(0), kernel = c.tensor(1);
    checkData(c, 0, data, rank);
    const size_t n = size_t(data.ndim() - 2);
    if (kernel.ndim() != data.ndim())
        c.fail(1, "'kernel' must be " + std::to_string(data.ndim()) +
                      "-d (OC, C / groups, kernel...), not " + describe(kernel));
    checkSameDType(c, 1, data, kernel);
    nn::ConvParams p = convWindow(c, n);
    p.groups = c.has(5) ? c.integer(5) : 1;
    const auto ds = staticShape(data), ks = staticShape(kernel);
    if (p.groups < 1) c.fail(5, "'groups' must be at least 1, not " + std::to_string(p.groups));
    if (ds[1] % p.groups != 0)
        c.fail(5, "'groups' (" + std::to_string(p.groups) + ") does not divide the " +
                      std::to_string(ds[1]) + " channels of " + describe(data));
    if (ks[1] * p.groups != ds[1])
        c.fail(1, "the kernel " + describe(kernel) + " takes " + std::to_string(ks[1]) +
                      " input channels per group, but " + describe(data) + " has " +
                      std::to_string(ds[1]) + " channels in " + std::to_string(p.groups) +
                      (p.groups == 1 ? " group" : " groups"));
    if (ks[0] % p.groups != 0)
        c.fail(1, "the kernel's " + std::to_string(ks[0]) + " output channels do not split into " +
                      std::to_string(p.groups) + " groups");
    Tensor bias = c.optionalTensor(6);
    checkBias(c, 6, bias, ks[0], data);
    const std::string name = c.name(7, defaultName);
    return c.result(rank == 4 ? nn::conv2d(data, kernel, p, bias, name)
                              : nn::conv(data, kernel, p, bias, name));
}

/// TVM's depthwise kernel [C, multiplier, KH, KW] as a grouped convolution.
Value depthwiseConv2d(Call& c) {
    Tensor data = c.tensor(0), kernel = c.tensor(1);
    checkData(c, 0, data, 4);
    if (kernel.ndim() != 4)
        c.fail(1, "'kernel' must be 4-d (C, multiplier, KH, KW), not " + describe(kernel));
    checkSameDType(c, 1, data, kernel);
    const auto ds = staticShape(data), ks = staticShape(kernel);
    if (ks[0] != ds[1])
        c.fail(1, "the kernel " + describe(kernel) + " is for " + std::to_string(ks[0]) +
                      " channels, but " + describe(data) + " has " + std::to_string(ds[1]));
    nn::ConvParams p = convWindow(c, 2);
    p.groups = ds[1];
    Tensor bias = c.optionalTensor(5);
    checkBias(c, 5, bias, ks[0] * ks[1], data);
    const std::string name = c.name(6, "depthwise_conv2d");
    // Output channel c * multiplier + m reads kernel[c, m]: the same elements as [C * multiplier,
    // 1, KH, KW].
    if (ks[1] != 1)
        kernel = transform::reshape(kernel, {ks[0] * ks[1], 1, ks[2], ks[3]}, name + "_kernel");
    return c.result(nn::conv2d(data, kernel, p, bias, name));
}

/// conv_transpose(data, kernel, strides, padding, output_padding, dilation, groups, bias, name).
Value convTranspose(Call& c, int rank, const char* defaultName) {
    Tensor data = c.tensor(0), kernel = c.tensor(1);
    checkData(c, 0, data, rank);
    const size_t n = size_t(data.ndim() - 2);
    if (kernel.ndim() != data.ndim())
        c.fail(1, "'kernel' must be " + std::to_string(data.ndim()) +
                      "-d (C, OC / groups, kernel...), not " + describe(kernel));
    checkSameDType(c, 1, data, kernel);
    nn::ConvTransposeParams p;
    p.strides = c.positiveInts(2);
    checkPerAxis(c, 2, p.strides, n);
    p.padding = c.ints(3);
    checkPadding(c, 3, p.padding, n);
    p.outputPadding = c.nonNegativeInts(4);
    checkPerAxis(c, 4, p.outputPadding, n);
    p.dilation = c.positiveInts(5);
    checkPerAxis(c, 5, p.dilation, n);
    p.groups = c.has(6) ? c.integer(6) : 1;
    const auto ds = staticShape(data), ks = staticShape(kernel);
    if (p.groups < 1 || ds[1] % p.groups != 0)
        c.fail(6, "'groups' (" + std::to_string(p.groups) + ") must divide the " +
                      std::to_string(ds[1]) + " channels of " + describe(data));
    if (ks[0] != ds[1])
        c.fail(1, "the kernel " + describe(kernel) + " is for " + std::to_string(ks[0]) +
                      " input channels, but " + describe(data) + " has " + std::to_string(ds[1]));
    Tensor bias = c.optionalTensor(7);
    checkBias(c, 7, bias, ks[1] * p.groups, data);
    return c.result(nn::convTranspose(data, kernel, p, bias, c.name(8, defaultName)));
}

/// A layout argument: "" (plain NCHW) or NCHW with the channels in blocks.
std::string convLayout(const Call& c, size_t i) {
    if (!c.has(i)) return {};
    const std::string l = c.string(i);
    if (l.empty() || l == "NCHW") return {};
    auto parsed = Layout::parse(l);
    if (!parsed || parsed->primal().str() != "NCHW" || parsed->storedRank() != 5 || parsed->blockOf('C') == 0)
        c.fail(i, "'" + l + "' is not NCHW with the channels in blocks (NCHW16c)");
    return l;
}

/// conv2d_nchwc(data, kernel, strides, padding, dilation, bias, name,
/// data_layout, out_layout, cfg): the model compiler's blocked convolution
/// itself, so a tunable template is this kernel with its knobs.
Value conv2dNCHWc(Call& c) {
    Tensor data = c.tensor(0), kernel = c.tensor(1);
    const std::string dataLayout = convLayout(c, 7), outLayout = convLayout(c, 8);
    const int64_t xb = dataLayout.empty() ? 0 : Layout::of(dataLayout).blockOf('C');
    if (xb == 0) checkData(c, 0, data, 4);
    else if (data.ndim() != 5 || staticShape(data)[4] != xb)
        c.fail(0, "'data' stored as " + dataLayout + " must be 5-d (N, C/" + std::to_string(xb) + ", H, W, " +
                      std::to_string(xb) + "), not " + describe(data));
    if (kernel.ndim() != 4)
        c.fail(1, "'kernel' must be 4-d (OC, C, KH, KW), not " + describe(kernel));
    checkSameDType(c, 1, data, kernel);
    nn::ConvParams p = convWindow(c, 2);
    const auto ds = staticShape(data), ks = staticShape(kernel);
    const int64_t channels = ds[1] * (xb ? xb : 1);
    if (ks[1] != channels)
        c.fail(1, "the kernel " + describe(kernel) + " takes " + std::to_string(ks[1]) +
                      " input channels, but " + describe(data) + " has " + std::to_string(channels));
    const nn::ConvLayouts layouts{dataLayout, outLayout};
    if (!nn::conv2dNCHWcLayout(data, kernel, p, nullptr, layouts))
        c.failCall("the blocked convolution needs float32 data and kernel and output channels a "
                   "multiple of 8 (of the output block when out_layout is given) (use topi.nn.conv2d)");
    Tensor bias = c.optionalTensor(5);
    checkBias(c, 5, bias, ks[0], data);
    te::ConfigSpace* cfg = c.has(9) ? &c.ctx.recorder->config : nullptr;
    return c.result(nn::conv2dNCHWc(data, kernel, p, bias, c.name(6, "conv2d_nchwc"), nullptr, cfg, layouts));
}

/// dense / dense_packed (data, weight, bias, name): data [M, K], weight [N, K].
Value dense(Call& c, bool packed) {
    Tensor data = c.tensor(0), weight = c.tensor(1);
    if (data.ndim() != 2) c.fail(0, "'data' must be 2-d (M, K), not " + describe(data));
    if (weight.ndim() != 2) c.fail(1, "'weight' must be 2-d (N, K), not " + describe(weight));
    checkSameDType(c, 1, data, weight);
    const auto ds = staticShape(data), ws = staticShape(weight);
    if (ws[1] != ds[1])
        c.fail(1, "the weight " + describe(weight) + " takes " + std::to_string(ws[1]) +
                      " inputs per row, but " + describe(data) + " has " + std::to_string(ds[1]));
    Tensor bias = c.optionalTensor(2);
    if (bias.defined() && (bias.ndim() != 1 || staticShape(bias)[0] != ws[0]))
        c.fail(2, "'bias' must be 1-d with one value per output (" + std::to_string(ws[0]) +
                      "), not " + describe(bias));
    if (bias.defined()) checkSameDType(c, 2, data, bias);
    if (!packed) return c.result(nn::dense(data, weight, bias, c.name(3, "dense")));
    const nn::GemmParams p{.transB = true};
    if (!nn::densePackedApplies(data, weight, p))
        c.failCall("the packed dense layer needs float32 operands (use topi.nn.dense)");
    return c.result(nn::densePacked(data, weight, bias, p, c.name(3, "dense_packed")));
}

Value matmul(Call& c) {
    Tensor a = c.tensor(0), b = c.tensor(1);
    if (a.ndim() < 1) c.fail(0, "'a' must have rank 1 or more");
    if (b.ndim() < 1) c.fail(1, "'b' must have rank 1 or more");
    checkSameDType(c, 1, a, b);
    const auto as = staticShape(a), bs = staticShape(b);
    const int64_t depth = bs.size() == 1 ? bs[0] : bs[bs.size() - 2];
    if (as.back() != depth)
        c.fail(1, "the inner dimensions differ: " + describe(a) + " has " +
                      std::to_string(as.back()) + ", " + describe(b) + " has " +
                      std::to_string(depth));
    return c.result(nn::matmul(a, b, c.name(2, "matmul")));
}

Value gemm(Call& c) {
    Tensor a = c.tensor(0), b = c.tensor(1), cc = c.optionalTensor(2);
    if (a.ndim() != 2) c.fail(0, "'a' must be 2-d, not " + describe(a));
    if (b.ndim() != 2) c.fail(1, "'b' must be 2-d, not " + describe(b));
    checkSameDType(c, 1, a, b);
    nn::GemmParams p;
    if (c.has(3)) p.alpha = c.number(3);
    if (c.has(4)) p.beta = c.number(4);
    p.transA = c.has(5) && c.flag(5);
    p.transB = c.has(6) && c.flag(6);
    const auto as = staticShape(a), bs = staticShape(b);
    const int64_t ka = as[p.transA ? 0 : 1], kb = bs[p.transB ? 1 : 0];
    if (ka != kb)
        c.fail(1, "the inner dimensions differ: " + describe(a) + " has " + std::to_string(ka) +
                      ", " + describe(b) + " has " + std::to_string(kb));
    if (cc.defined()) {
        const std::vector<int64_t> mn{as[p.transA ? 1 : 0], bs[p.transB ? 0 : 1]};
        auto cs = staticShape(cc);
        bool fits = cs.size() <= 2;
        for (size_t i = 0; fits && i < cs.size(); ++i)
            fits = cs[i] == 1 || cs[i] == mn[mn.size() - cs.size() + i];
        if (!fits)
            c.fail(2, describe(cc) + " does not broadcast to the product's [" +
                          std::to_string(mn[0]) + ", " + std::to_string(mn[1]) + "]");
    }
    return c.result(nn::gemm(a, b, cc, p, c.name(7, "gemm")));
}

nn::PoolType poolType(const Call& c, size_t i) {
    if (!c.has(i)) return nn::PoolType::Max;
    return c.choice(i, {"max", "avg"}) == "max" ? nn::PoolType::Max : nn::PoolType::Avg;
}

/// pool(data, kernel, stride, dilation, padding, pool_type, ceil_mode, count_include_pad, name).
Value pool(Call& c, int rank, const char* defaultName) {
    Tensor data = c.tensor(0);
    checkData(c, 0, data, rank);
    const size_t n = size_t(data.ndim() - 2);
    nn::PoolParams p;
    p.kernel = c.positiveInts(1);
    checkPerAxis(c, 1, p.kernel, n);
    p.strides = c.positiveInts(2);
    checkPerAxis(c, 2, p.strides, n);
    p.dilation = c.positiveInts(3);
    checkPerAxis(c, 3, p.dilation, n);
    p.padding = c.nonNegativeInts(4);
    checkPadding(c, 4, p.padding, n);
    const nn::PoolType type = poolType(c, 5);
    p.ceilMode = c.has(6) && c.flag(6);
    p.countIncludePad = c.has(7) && c.flag(7);
    const std::string name = c.name(8, defaultName);
    return c.result(rank == 4 ? nn::pool2d(data, type, p, name) : nn::pool(data, type, p, name));
}

Value globalPool(Call& c) {
    Tensor data = c.tensor(0);
    checkData(c, 0, data, 0);
    return c.result(nn::globalPool(data, poolType(c, 1), c.name(2, "global_pool")));
}

Value batchNorm(Call& c) {
    Tensor data = c.tensor(0);
    if (data.ndim() < 2)
        c.fail(0, "'data' must have a channel axis (N, C, ...), not " + describe(data));
    if (c.has(5) && c.integer(5) != 1)
        c.fail(5, "only axis 1 (the channels) is supported, not " + std::to_string(c.integer(5)));
    const int64_t channels = staticShape(data)[1];
    std::vector<Tensor> per;
    for (size_t i = 1; i <= 4; ++i) {
        Tensor t = c.tensor(i);
        if (t.ndim() != 1 || staticShape(t)[0] != channels)
            c.fail(i, c.param(i) + " must be 1-d with one value per channel (" +
                          std::to_string(channels) + "), not " + describe(t));
        checkSameDType(c, i, data, t);
        per.push_back(t);
    }
    const double epsilon = c.has(6) ? c.number(6) : 1e-5;
    if (epsilon < 0) c.fail(6, "'epsilon' must not be negative");
    return c.result(
        nn::batchNorm(data, per[0], per[1], per[2], per[3], epsilon, c.name(7, "batch_norm")));
}

const std::vector<Param> kConvParams = {
    {"data", "", "input"}, {"kernel", "", "filter"}, {"strides", "1", "stride"},
    {"padding", "0"},      {"dilation", "1"},        {"groups", "1"},
    {"bias", "None"}};

std::vector<Param> with(std::vector<Param> params, Param last) {
    params.push_back(last);
    return params;
}

std::vector<Param> poolParams(const char* name) {
    return {{"data"},
            {"kernel", "", "pool_size"},
            {"stride", "1", "strides"},
            {"dilation", "1"},
            {"padding", "0"},
            {"pool_type", "\"max\""},
            {"ceil_mode", "False"},
            {"count_include_pad", "False"},
            {"name", name}};
}

} // namespace

void addNnBindings(std::vector<Binding>& out) {
    out.push_back({"topi.nn.conv2d", with(kConvParams, {"name", "\"conv2d\""}),
                   "2-d convolution of NCHW data with an OIHW kernel (grouped when groups > 1, "
                   "depthwise when "
                   "groups == channels); bias [OC]",
                   [](Call& c) { return conv(c, 4, "conv2d"); }});
    out.push_back({"topi.nn.conv", with(kConvParams, {"name", "\"conv\""}),
                   "conv2d for any number of spatial axes (1-d, 3-d ...)",
                   [](Call& c) { return conv(c, 0, "conv"); }});
    out.push_back({"topi.nn.depthwise_conv2d",
                   {{"data", "", "input"},
                    {"kernel", "", "filter"},
                    {"strides", "1", "stride"},
                    {"padding", "0"},
                    {"dilation", "1"},
                    {"bias", "None"},
                    {"name", "\"depthwise_conv2d\""}},
                   "depthwise convolution with TVM's kernel [C, multiplier, KH, KW]",
                   depthwiseConv2d});
    const std::vector<Param> transposed = {
        {"data", "", "input"}, {"kernel", "", "filter"}, {"strides", "1", "stride"},
        {"padding", "0"},      {"output_padding", "0"},  {"dilation", "1"},
        {"groups", "1"},       {"bias", "None"}};
    out.push_back({"topi.nn.conv2d_transpose", with(transposed, {"name", "\"conv2d_transpose\""}),
                   "transposed 2-d convolution, kernel [C, OC / groups, KH, KW]; padding crops the "
                   "full output",
                   [](Call& c) { return convTranspose(c, 4, "conv2d_transpose"); }});
    out.push_back({"topi.nn.conv_transpose", with(transposed, {"name", "\"conv_transpose\""}),
                   "conv2d_transpose for any number of spatial axes",
                   [](Call& c) { return convTranspose(c, 0, "conv_transpose"); }});
    out.push_back(
        {"topi.nn.conv2d_nchwc",
         {{"data", "", "input"},
          {"kernel", "", "filter"},
          {"strides", "1", "stride"},
          {"padding", "0"},
          {"dilation", "1"},
          {"bias", "None"},
          {"name", "\"conv2d_nchwc\""},
          {"data_layout", "\"NCHW\""},
          {"out_layout", "\"NCHW\""},
          {"cfg", "None"}},
         "the model compiler's blocked convolution: data and output NCHW or in channel blocks "
         "(data_layout, out_layout \"NCHW16c\", as alter-layout stores them), the kernel packed by a "
         "stage; with cfg, the blocks of plain sides are its knobs (tile_ic, tile_oc)",
         conv2dNCHWc});
    out.push_back({"topi.nn.dense",
                   {{"data"}, {"weight"}, {"bias", "None"}, {"name", "\"dense\""}},
                   "data [M, K] times weight [N, K] transposed, plus bias [N]",
                   [](Call& c) { return dense(c, false); }});
    out.push_back(
        {"topi.nn.dense_packed",
         {{"data"}, {"weight"}, {"bias", "None"}, {"name", "\"dense_packed\""}},
         "dense with the weight in 16-column panels (the model compiler's Gemm; packed by a stage)",
         [](Call& c) { return dense(c, true); }});
    out.push_back({"topi.nn.matmul",
                   {{"a"}, {"b"}, {"name", "\"matmul\""}},
                   "numpy/ONNX MatMul of any rank: batch axes broadcast, a 1-d operand is a vector",
                   matmul});
    out.push_back({"topi.nn.gemm",
                   {{"a"},
                    {"b"},
                    {"c", "None"},
                    {"alpha", "1.0"},
                    {"beta", "1.0"},
                    {"trans_a", "False", "transA"},
                    {"trans_b", "False", "transB"},
                    {"name", "\"gemm\""}},
                   "ONNX Gemm: alpha * a' * b' + beta * c",
                   gemm});
    out.push_back({"topi.nn.pool2d", poolParams("\"pool2d\""),
                   "max or average pooling of NCHW data (pool_type \"max\" or \"avg\")",
                   [](Call& c) { return pool(c, 4, "pool2d"); }});
    out.push_back({"topi.nn.pool", poolParams("\"pool\""), "pool2d for any number of spatial axes",
                   [](Call& c) { return pool(c, 0, "pool"); }});
    out.push_back({"topi.nn.global_pool",
                   {{"data"}, {"pool_type", "\"max\""}, {"name", "\"global_pool\""}},
                   "max or average over all spatial axes (kept with extent 1)",
                   globalPool});
    out.push_back({"topi.nn.batch_norm",
                   {{"data"},
                    {"gamma"},
                    {"beta"},
                    {"moving_mean"},
                    {"moving_var"},
                    {"axis", "1"},
                    {"epsilon", "1e-05"},
                    {"name", "\"batch_norm\""}},
                   "inference batch normalisation over the channels: (x - mean) / sqrt(var + "
                   "epsilon) * gamma + beta",
                   batchNorm});
}

} // namespace tessel::topi::script
