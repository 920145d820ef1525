/// \file
/// The convolution anchor: how fast oneDNN runs one float32 2-d convolution
/// (batch 1, with bias, and an epilogue of residual adds and ReLUs as
/// post-ops) on this machine, timed with the runtime's TimeEvaluator so the
/// figures compare directly with Tessel's fused functions (bench_conv).
///
/// oneDNN chooses its own layouts: the source, weights and destination are
/// described with dnnl_format_tag_any, so it picks what its fastest
/// implementation wants (oneDNN 2.6 on this Zen 4 machine: its brgconv
/// kernels, channels-last activations "acdb" and OHWI weights in blocks of 32
/// or 64 output channels; DnnlConv::layouts() says). The weights are
/// reordered from OIHW once, when the anchor is made. Two figures per shape:
///  - blocked: the convolution alone, its tensors already in oneDNN's layouts
///    (a network that stays in them end to end);
///  - with reorders: the source (and the residual) reordered from NCHW
///    before, the destination back to NCHW after, in the timed call, which is
///    what a Tessel fused function does inside itself (it takes NCHW, packs
///    into NCHW[x]c, unpacks its result).
///
/// oneDNN's OpenMP runtime sizes a primitive's work split for the thread
/// count in force when the primitive is created, so an anchor is made for one
/// thread count (omp_set_num_threads) and times with that count. See
/// gemm/Anchors.h for the threads libgomp leaves spinning after a call
/// (quiesceAnchorThreads()).
#pragma once

#include "runtime/NDArray.h"
#include "runtime/TimeEvaluator.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessel::bench {

/// One 2-d convolution, batch 1, float32, NCHW in and out, OIHW weights, a
/// bias per output channel, then `post` in order.
struct ConvShape {
    int64_t C = 0, H = 0, W = 0, OC = 0, KH = 3, KW = 3;
    int64_t strideH = 1, strideW = 1;
    int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;

    /// The epilogue after the bias: add a tensor shaped like the output (a
    /// residual; oneDNN's sum post-op), or ReLU (oneDNN's eltwise post-op).
    enum class Post { Residual, Relu };
    std::vector<Post> post;

    int64_t outH() const { return (H + padTop + padBottom - KH) / strideH + 1; }
    int64_t outW() const { return (W + padLeft + padRight - KW) / strideW + 1; }
    bool hasResidual() const;
    /// 2 * OC * OH * OW * C * KH * KW (the multiply-adds; bias and epilogue not counted).
    double flops() const;
    /// "64x56x56 -> 64x56x56, 3x3/1 p1".
    std::string str() const;
    /// "bias, relu" or "bias, +residual, relu".
    std::string epilogueText() const;
};

/// The tensors of one convolution: `src` NCHW, `weights` OIHW, `bias` [OC],
/// `residual` NCHW like the output (undefined without a residual post-op).
struct ConvOperands {
    runtime::NDArray src, weights, bias, residual;
};

/// Seeded uniform values in [-1, 1) for every operand of `shape`.
ConvOperands randomConvOperands(const ConvShape& shape, uint64_t seed);

/// The convolution computed naively (a direct loop nest, double accumulators):
/// the NCHW output, float32.
runtime::NDArray referenceConv(const ConvShape& shape, const ConvOperands& operands);

/// oneDNN's forward-inference convolution of one shape, its memories and the
/// reorders from and to the plain layouts, made for one thread count.
class DnnlConv {
public:
    /// Makes the primitives for `threads` OpenMP threads and reorders the
    /// weights and bias of `operands` into oneDNN's layouts; the source (and
    /// residual) are read from `operands` at every call with reorders, so they
    /// must outlive the anchor. Throws std::runtime_error naming the oneDNN
    /// call that failed (a shape or post-op it does not support).
    DnnlConv(const ConvShape& shape, const ConvOperands& operands, int threads);
    ~DnnlConv();
    DnnlConv(const DnnlConv&) = delete;
    DnnlConv& operator=(const DnnlConv&) = delete;

    /// One convolution on the blocked tensors (the residual, if any, is
    /// whatever the destination holds: the timed calls accumulate into it).
    void runBlocked();
    /// Reorders the source (and the residual into the destination) from NCHW,
    /// convolves, reorders the destination to NCHW (output()).
    void runWithReorders();
    /// The NCHW output of the last runWithReorders().
    const runtime::NDArray& output() const;

    /// Median seconds per call of runBlocked() or runWithReorders() under
    /// `ev`, on the anchor's threads.
    double seconds(const runtime::TimeEvaluator& ev, bool withReorders);

    /// oneDNN's implementation, e.g. "jit:avx512_core".
    std::string implementation() const;
    /// The layouts it chose, in oneDNN's letters (outer to inner, a blocked
    /// dimension in upper case, then the blocks): "src acdb, weights
    /// Acdb64a, dst acdb" is NHWC data and OHWI weights in blocks of 64 O.
    std::string layouts() const;
    int threads() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// The result of checking the anchor on one shape.
struct ConvCheck {
    /// max |oneDNN - reference| / max |reference| over the output.
    double maxRelErr = 0;
    /// maxRelErr is at most the tolerance (and no element is NaN).
    bool ok = false;
    /// What oneDNN ran (DnnlConv::implementation() and layouts()).
    std::string implementation, layouts;
};

/// "oneDNN 2.6.3 (OpenMP runtime)": the library as loaded.
std::string dnnlVersionText();

/// Runs oneDNN's convolution of `shape` (with the reorders, on `threads`
/// threads) once on seeded random operands and compares its NCHW output with
/// referenceConv() of the same operands; ok when the largest difference is
/// at most `tolerance` x the largest |reference value|. Throws as DnnlConv's
/// constructor does.
ConvCheck checkDnnlConv(const ConvShape& shape, int threads = 1, uint64_t seed = 7, double tolerance = 1e-4);

} // namespace tessel::bench
