// Windows and the direct discrete Fourier transforms.
#include "topi/Signal.h"

#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

#include <cmath>

namespace tessel::topi::signal {

using namespace tir;

namespace {

/// The real (part 0) or imaginary (part 1) term of sample (re, im) times
/// e^(-+i theta), theta = 2 pi (k j mod n) / n, in double: the modulus keeps
/// the angle small, and double keeps the bins that are exactly 0 (the
/// imaginary part at n/2 of a real signal) within float's tolerance of 0.
Expr twiddled(Expr re, Expr im, Expr k, Expr j, int64_t n, bool inverse, Expr part) {
    const DataType t = DataType::float64();
    re = tir::cast(t, re);
    im = tir::cast(t, im);
    Expr kj = floormod(tir::cast(DataType::int64(), k) * tir::cast(DataType::int64(), j), makeConst(DataType::int64(), n));
    Expr theta = tir::cast(t, kj) * makeConst(t, 2.0 * M_PI / double(n));
    Expr c = call(Intrinsic::Cos, {theta}), s = call(Intrinsic::Sin, {theta});
    if (inverse) s = makeZero(t) - s;
    // (re + i im)(c - i s) = re c + im s + i (im c - re s)
    return select(part == intImm(0), re * c + im * s, im * c - re * s);
}

} // namespace

Tensor window(WindowKind kind, int64_t size, bool periodic, DataType dtype, const std::string& name) {
    if (size < 1) throw CompileError("window: size must be at least 1");
    const double n = periodic ? double(size) : double(std::max<int64_t>(size - 1, 1));
    return te::compute(
        {intImm(size)},
        [&](const std::vector<Var>& i) {
            const DataType f = DataType::float64();
            Expr a = tir::cast(f, Expr(i[0])) * makeConst(f, 2.0 * M_PI / n);
            Expr c1 = call(Intrinsic::Cos, {a}), v;
            switch (kind) {
            case WindowKind::Hann:
                v = makeConst(f, 0.5) - makeConst(f, 0.5) * c1;
                break;
            case WindowKind::Hamming:
                v = makeConst(f, 25.0 / 46.0) - makeConst(f, 21.0 / 46.0) * c1;
                break;
            case WindowKind::Blackman:
                v = makeConst(f, 0.42) - makeConst(f, 0.5) * c1 +
                    makeConst(f, 0.08) * call(Intrinsic::Cos, {a * makeConst(f, 2.0)});
                break;
            }
            return tir::cast(dtype, v);
        },
        name, tag::kInjective);
}

Tensor dft(const Tensor& x, int64_t length, int64_t axisIn, bool inverse, bool onesided, const std::string& name) {
    const auto shape = staticShape(x);
    if (shape.size() < 2 || (shape.back() != 1 && shape.back() != 2))
        throw CompileError("dft: the input must be [..., n, 1 or 2]");
    const auto axis = static_cast<size_t>(normalizeAxis(axisIn, x.ndim()));
    if (axis + 1 == shape.size()) throw CompileError("dft: the axis cannot be the last (complex) one");
    const int64_t have = shape[axis];
    const int64_t n = length > 0 ? length : have;
    const bool complex = shape.back() == 2;
    std::vector<int64_t> outShape = shape;
    outShape[axis] = onesided ? n / 2 + 1 : n;
    outShape.back() = 2;
    const DataType t = x->dtype;
    Tensor sum = te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            IterVar rj = te::reduceAxis(Range(intImm(0), intImm(std::min(n, have))), "rj");
            std::vector<Expr> at = exprs(i);
            at[axis] = rj->var;
            at.back() = intImm(0);
            Expr re = x(at);
            Expr im = makeZero(t);
            if (complex) {
                at.back() = intImm(1);
                im = x(at);
            }
            return te::sum(twiddled(re, im, i[axis], rj->var, n, inverse, i.back()), {rj});
        },
        name + "_sum", tag::kReduce);
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            Expr v = sum(exprs(i));
            if (inverse) v = v / makeConst(v.type(), double(n));
            return tir::cast(t, v);
        },
        name, tag::kElemWise);
}

Tensor stft(const Tensor& signal, int64_t frameStep, const Tensor& win, int64_t frameLength, bool onesided,
            const std::string& name) {
    const auto shape = staticShape(signal);
    if (shape.size() != 3 || (shape[2] != 1 && shape[2] != 2))
        throw CompileError("stft: the signal must be [batch, n, 1 or 2]");
    if (frameStep < 1 || frameLength < 1 || frameLength > shape[1])
        throw CompileError("stft: frame_step and frame_length do not fit the signal");
    const int64_t frames = (shape[1] - frameLength) / frameStep + 1;
    const int64_t bins = onesided ? frameLength / 2 + 1 : frameLength;
    const bool complex = shape[2] == 2;
    const DataType t = signal->dtype;
    const std::vector<int64_t> outShape{shape[0], frames, bins, 2};
    Tensor sum = te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            IterVar rj = te::reduceAxis(Range(intImm(0), intImm(frameLength)), "rj");
            Expr pos = Expr(i[1]) * intImm(frameStep) + Expr(rj->var);
            Expr w = win.defined() ? win({Expr(rj->var)}) : constant(t, 1);
            if (w.type() != t) w = tir::cast(t, w);
            Expr re = signal({Expr(i[0]), pos, intImm(0)}) * w;
            Expr im = complex ? signal({Expr(i[0]), pos, intImm(1)}) * w : makeZero(t);
            return te::sum(twiddled(re, im, i[2], rj->var, frameLength, false, i[3]), {rj});
        },
        name + "_sum", tag::kReduce);
    return te::compute(
        toExprs(outShape), [&](const std::vector<Var>& i) { return tir::cast(t, sum(exprs(i))); }, name,
        tag::kElemWise);
}

} // namespace tessel::topi::signal
