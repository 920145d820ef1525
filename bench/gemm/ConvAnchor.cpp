#include "gemm/ConvAnchor.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>

namespace tessel::bench {

using runtime::NDArray;

bool ConvShape::hasResidual() const {
    return std::find(post.begin(), post.end(), Post::Residual) != post.end();
}

double ConvShape::flops() const {
    return 2.0 * double(OC) * double(outH()) * double(outW()) * double(C) * double(KH) * double(KW);
}

std::string ConvShape::str() const {
    char buf[160];
    int n = std::snprintf(buf, sizeof buf, "%lldx%lldx%lld -> %lldx%lldx%lld, %lldx%lld/%lld", (long long)C,
                          (long long)H, (long long)W, (long long)OC, (long long)outH(), (long long)outW(),
                          (long long)KH, (long long)KW, (long long)strideH);
    std::string t(buf, size_t(std::max(n, 0)));
    if (strideW != strideH) {
        std::snprintf(buf, sizeof buf, ",%lld", (long long)strideW);
        t += buf;
    }
    if (padTop == padLeft && padTop == padBottom && padTop == padRight)
        std::snprintf(buf, sizeof buf, " p%lld", (long long)padTop);
    else
        std::snprintf(buf, sizeof buf, " p%lld,%lld,%lld,%lld", (long long)padTop, (long long)padLeft,
                      (long long)padBottom, (long long)padRight);
    t += buf;
    return t;
}

std::string ConvShape::epilogueText() const {
    std::string t = "bias";
    for (Post p : post) t += p == Post::Residual ? ", +residual" : ", relu";
    return t;
}

ConvOperands randomConvOperands(const ConvShape& shape, uint64_t seed) {
    const auto f32 = DataType::float32();
    ConvOperands o;
    o.src = NDArray({1, shape.C, shape.H, shape.W}, f32);
    o.weights = NDArray({shape.OC, shape.C, shape.KH, shape.KW}, f32);
    o.bias = NDArray({shape.OC}, f32);
    o.src.fillRandom(seed, -1, 1);
    o.weights.fillRandom(seed + 1, -1, 1);
    o.bias.fillRandom(seed + 2, -1, 1);
    if (shape.hasResidual()) {
        o.residual = NDArray({1, shape.OC, shape.outH(), shape.outW()}, f32);
        o.residual.fillRandom(seed + 3, -1, 1);
    }
    return o;
}

NDArray referenceConv(const ConvShape& shape, const ConvOperands& operands) {
    const int64_t OH = shape.outH(), OW = shape.outW();
    NDArray out({1, shape.OC, OH, OW}, DataType::float32());
    const float* x = operands.src.data<float>();
    const float* w = operands.weights.data<float>();
    const float* b = operands.bias.data<float>();
    const float* r = shape.hasResidual() ? operands.residual.data<float>() : nullptr;
    float* y = out.data<float>();
    for (int64_t oc = 0; oc < shape.OC; ++oc)
        for (int64_t oh = 0; oh < OH; ++oh)
            for (int64_t ow = 0; ow < OW; ++ow) {
                double acc = b[oc];
                for (int64_t ic = 0; ic < shape.C; ++ic)
                    for (int64_t kh = 0; kh < shape.KH; ++kh) {
                        const int64_t ih = oh * shape.strideH - shape.padTop + kh;
                        if (ih < 0 || ih >= shape.H) continue;
                        for (int64_t kw = 0; kw < shape.KW; ++kw) {
                            const int64_t iw = ow * shape.strideW - shape.padLeft + kw;
                            if (iw < 0 || iw >= shape.W) continue;
                            acc += double(x[(ic * shape.H + ih) * shape.W + iw]) *
                                   double(w[((oc * shape.C + ic) * shape.KH + kh) * shape.KW + kw]);
                        }
                    }
                const int64_t i = (oc * OH + oh) * OW + ow;
                for (ConvShape::Post p : shape.post)
                    acc = p == ConvShape::Post::Residual ? acc + double(r[i]) : std::max(acc, 0.0);
                y[i] = float(acc);
            }
    return out;
}

namespace {

void check(dnnl_status_t s, const char* what) {
    if (s != dnnl_success) throw std::runtime_error(std::string("oneDNN: ") + what + " failed (status " + std::to_string(s) + ")");
}

/// A plain (or library-allocated) memory descriptor of `dims` with `tag`.
dnnl_memory_desc_t plainMd(std::vector<int64_t> dims, dnnl_format_tag_t tag) {
    dnnl_memory_desc_t md;
    dnnl_dims_t d{};
    for (size_t i = 0; i < dims.size(); ++i) d[i] = dims[i];
    check(dnnl_memory_desc_init_by_tag(&md, int(dims.size()), d, dnnl_f32, tag), "dnnl_memory_desc_init_by_tag");
    return md;
}

/// oneDNN's name of a blocked layout: outer dimensions by decreasing stride
/// (upper case where the dimension is also blocked), then the inner blocks:
/// "aBcd16b" is nChw16c, "ABcd16b16a" OIhw16i16o.
std::string formatName(const dnnl_memory_desc_t& md) {
    if (md.format_kind != dnnl_blocked) return "(not blocked)";
    const auto& bd = md.format_desc.blocking;
    std::vector<int> order(size_t(md.ndims));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return bd.strides[a] > bd.strides[b]; });
    std::string s;
    for (int d : order) {
        bool blocked = false;
        for (int k = 0; k < bd.inner_nblks; ++k) blocked |= bd.inner_idxs[k] == d;
        s += char((blocked ? 'A' : 'a') + d);
    }
    for (int k = 0; k < bd.inner_nblks; ++k) s += std::to_string(bd.inner_blks[k]) + char('a' + bd.inner_idxs[k]);
    return s;
}

} // namespace

struct DnnlConv::Impl {
    ConvShape shape;
    int threads = 1;
    dnnl_engine_t engine = nullptr;
    dnnl_stream_t stream = nullptr;
    dnnl_primitive_desc_t convPd = nullptr;
    dnnl_primitive_t conv = nullptr;
    /// Plain memories over the operands' storage (and the NCHW output).
    dnnl_memory_t srcUser = nullptr, residualUser = nullptr, dstUser = nullptr, weightsUser = nullptr;
    /// Memories in the convolution's layouts; the same as the user ones where
    /// oneDNN chose the plain layout.
    dnnl_memory_t src = nullptr, weights = nullptr, bias = nullptr, dst = nullptr;
    /// src user -> src; residual user -> dst; dst -> dst user (null when not needed).
    dnnl_primitive_t srcIn = nullptr, residualIn = nullptr, dstOut = nullptr;
    std::vector<dnnl_primitive_t> reorderPrims;
    std::vector<dnnl_primitive_desc_t> pds;
    std::vector<dnnl_memory_t> memories;
    NDArray output;
    std::string layouts;

    dnnl_memory_t memory(const dnnl_memory_desc_t& md, void* handle) {
        dnnl_memory_t m = nullptr;
        check(dnnl_memory_create(&m, &md, engine, handle), "dnnl_memory_create");
        memories.push_back(m);
        return m;
    }

    dnnl_primitive_t reorder(dnnl_memory_t from, dnnl_memory_t to) {
        const dnnl_memory_desc_t *fromMd = nullptr, *toMd = nullptr;
        check(dnnl_memory_get_memory_desc(from, &fromMd), "dnnl_memory_get_memory_desc");
        check(dnnl_memory_get_memory_desc(to, &toMd), "dnnl_memory_get_memory_desc");
        dnnl_primitive_desc_t pd = nullptr;
        check(dnnl_reorder_primitive_desc_create(&pd, fromMd, engine, toMd, engine, nullptr),
              "dnnl_reorder_primitive_desc_create");
        pds.push_back(pd);
        dnnl_primitive_t p = nullptr;
        check(dnnl_primitive_create(&p, pd), "dnnl_primitive_create (reorder)");
        reorderPrims.push_back(p);
        return p;
    }

    void runReorder(dnnl_primitive_t p, dnnl_memory_t from, dnnl_memory_t to) {
        dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
        check(dnnl_primitive_execute(p, stream, 2, args), "dnnl_primitive_execute (reorder)");
    }

    void runConv() {
        dnnl_exec_arg_t args[4] = {
            {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_BIAS, bias}, {DNNL_ARG_DST, dst}};
        check(dnnl_primitive_execute(conv, stream, 4, args), "dnnl_primitive_execute (convolution)");
    }

    ~Impl() {
        for (auto p : reorderPrims) dnnl_primitive_destroy(p);
        if (conv) dnnl_primitive_destroy(conv);
        for (auto pd : pds) dnnl_primitive_desc_destroy(pd);
        if (convPd) dnnl_primitive_desc_destroy(convPd);
        for (auto m : memories) dnnl_memory_destroy(m);
        if (stream) dnnl_stream_destroy(stream);
        if (engine) dnnl_engine_destroy(engine);
    }
};

DnnlConv::DnnlConv(const ConvShape& shape, const ConvOperands& operands, int threads) : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.shape = shape;
    m.threads = std::max(1, threads);
    // The primitive's work split is fixed for the threads in force now.
    omp_set_num_threads(m.threads);
    check(dnnl_engine_create(&m.engine, dnnl_cpu, 0), "dnnl_engine_create");
    check(dnnl_stream_create(&m.stream, m.engine, dnnl_stream_default_flags), "dnnl_stream_create");

    const std::vector<int64_t> srcDims{1, shape.C, shape.H, shape.W}, weightsDims{shape.OC, shape.C, shape.KH, shape.KW},
        dstDims{1, shape.OC, shape.outH(), shape.outW()};
    const dnnl_memory_desc_t srcAny = plainMd(srcDims, dnnl_format_tag_any),
                             weightsAny = plainMd(weightsDims, dnnl_format_tag_any),
                             dstAny = plainMd(dstDims, dnnl_format_tag_any), biasMd = plainMd({shape.OC}, dnnl_x);
    dnnl_convolution_desc_t cd;
    const dnnl_dims_t strides{shape.strideH, shape.strideW}, padL{shape.padTop, shape.padLeft},
        padR{shape.padBottom, shape.padRight};
    check(dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_auto, &srcAny, &weightsAny,
                                             &biasMd, &dstAny, strides, padL, padR),
          "dnnl_convolution_forward_desc_init");

    dnnl_post_ops_t po = nullptr;
    check(dnnl_post_ops_create(&po), "dnnl_post_ops_create");
    for (ConvShape::Post p : shape.post)
        check(p == ConvShape::Post::Residual ? dnnl_post_ops_append_sum(po, 1.0f)
                                             : dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, 0.0f, 0.0f),
              "appending a post-op");
    dnnl_primitive_attr_t attr = nullptr;
    check(dnnl_primitive_attr_create(&attr), "dnnl_primitive_attr_create");
    const dnnl_status_t setPo = dnnl_primitive_attr_set_post_ops(attr, po);
    const dnnl_status_t made = setPo == dnnl_success
                                   ? dnnl_primitive_desc_create(&m.convPd, &cd, attr, m.engine, nullptr)
                                   : setPo;
    dnnl_primitive_attr_destroy(attr);
    dnnl_post_ops_destroy(po);
    check(made, "dnnl_primitive_desc_create (convolution)");
    check(dnnl_primitive_create(&m.conv, m.convPd), "dnnl_primitive_create (convolution)");

    const dnnl_memory_desc_t* srcMd = dnnl_primitive_desc_query_md(m.convPd, dnnl_query_src_md, 0);
    const dnnl_memory_desc_t* weightsMd = dnnl_primitive_desc_query_md(m.convPd, dnnl_query_weights_md, 0);
    const dnnl_memory_desc_t* dstMd = dnnl_primitive_desc_query_md(m.convPd, dnnl_query_dst_md, 0);
    m.layouts = "src " + formatName(*srcMd) + ", weights " + formatName(*weightsMd) + ", dst " + formatName(*dstMd);

    // The plain tensors: views of the operands, and the NCHW output.
    m.output = NDArray(dstDims, DataType::float32());
    m.output.fillZero();
    auto* srcData = const_cast<void*>(operands.src.rawData());
    m.srcUser = m.memory(plainMd(srcDims, dnnl_nchw), srcData);
    m.weightsUser = m.memory(plainMd(weightsDims, dnnl_oihw), const_cast<void*>(operands.weights.rawData()));
    m.dstUser = m.memory(plainMd(dstDims, dnnl_nchw), m.output.rawData());
    m.bias = m.memory(biasMd, const_cast<void*>(operands.bias.rawData()));

    const dnnl_memory_desc_t srcPlain = plainMd(srcDims, dnnl_nchw), dstPlain = plainMd(dstDims, dnnl_nchw);
    if (dnnl_memory_desc_equal(srcMd, &srcPlain)) {
        m.src = m.srcUser;
    } else {
        m.src = m.memory(*srcMd, DNNL_MEMORY_ALLOCATE);
        m.srcIn = m.reorder(m.srcUser, m.src);
    }
    if (dnnl_memory_desc_equal(dstMd, &dstPlain)) {
        m.dst = m.dstUser;
    } else {
        m.dst = m.memory(*dstMd, DNNL_MEMORY_ALLOCATE);
        m.dstOut = m.reorder(m.dst, m.dstUser);
    }
    if (shape.hasResidual()) {
        m.residualUser = m.memory(plainMd(dstDims, dnnl_nchw), const_cast<void*>(operands.residual.rawData()));
        m.residualIn = m.reorder(m.residualUser, m.dst); // a copy where dst is plain
    }
    // The weights once, outside every timed call.
    m.weights = m.memory(*weightsMd, DNNL_MEMORY_ALLOCATE);
    m.runReorder(m.reorder(m.weightsUser, m.weights), m.weightsUser, m.weights);
    // The blocked tensors start as the operands (the residual in dst).
    if (m.srcIn) m.runReorder(m.srcIn, m.srcUser, m.src);
    if (m.residualIn) m.runReorder(m.residualIn, m.residualUser, m.dst);
    check(dnnl_stream_wait(m.stream), "dnnl_stream_wait");
}

DnnlConv::~DnnlConv() = default;

void DnnlConv::runBlocked() {
    impl_->runConv();
    check(dnnl_stream_wait(impl_->stream), "dnnl_stream_wait");
}

void DnnlConv::runWithReorders() {
    Impl& m = *impl_;
    if (m.srcIn) m.runReorder(m.srcIn, m.srcUser, m.src);
    if (m.residualIn) m.runReorder(m.residualIn, m.residualUser, m.dst);
    m.runConv();
    if (m.dstOut) m.runReorder(m.dstOut, m.dst, m.dstUser);
    check(dnnl_stream_wait(m.stream), "dnnl_stream_wait");
}

const NDArray& DnnlConv::output() const { return impl_->output; }

double DnnlConv::seconds(const runtime::TimeEvaluator& ev, bool withReorders) {
    omp_set_num_threads(impl_->threads);
    if (withReorders) return runtime::median(ev.measure([&] { runWithReorders(); }));
    return runtime::median(ev.measure([&] { runBlocked(); }));
}

std::string DnnlConv::implementation() const {
    const char* impl = nullptr;
    if (dnnl_primitive_desc_query(impl_->convPd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || !impl)
        return "?";
    return impl;
}

std::string DnnlConv::layouts() const { return impl_->layouts; }

int DnnlConv::threads() const { return impl_->threads; }

std::string dnnlVersionText() {
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
           (v->cpu_runtime == DNNL_RUNTIME_OMP ? " (OpenMP runtime)" : "");
}

ConvCheck checkDnnlConv(const ConvShape& shape, int threads, uint64_t seed, double tolerance) {
    const ConvOperands o = randomConvOperands(shape, seed);
    DnnlConv conv(shape, o, threads);
    conv.runWithReorders();
    const NDArray expected = referenceConv(shape, o);
    const float* got = conv.output().data<float>();
    const float* want = expected.data<float>();
    double maxAbs = 0, maxDiff = 0;
    bool finite = true;
    for (int64_t i = 0; i < expected.numElements(); ++i) {
        maxAbs = std::max(maxAbs, std::fabs(double(want[i])));
        const double d = std::fabs(double(got[i]) - double(want[i]));
        if (!std::isfinite(d)) finite = false;
        else maxDiff = std::max(maxDiff, d);
    }
    ConvCheck c;
    c.implementation = conv.implementation();
    c.layouts = conv.layouts();
    c.maxRelErr = finite ? maxDiff / std::max(maxAbs, 1e-30) : INFINITY;
    c.ok = finite && c.maxRelErr <= tolerance;
    return c;
}

} // namespace tessel::bench
