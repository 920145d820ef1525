#include "topi/Conv2dWinograd.h"

#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "ir/Layout.h"
#include "tir/IROperators.h"
#include "topi/Knobs.h"
#include "topi/NnUtil.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

#include <functional>

namespace tessel::topi {

using namespace tir;

namespace {

using Matrix = std::vector<std::vector<double>>;

constexpr int64_t kAlpha = nn::kWinogradTile + 2;

int64_t extentOf(const IterVar& iv) { return extentOr(iv, 1); }

int64_t blockOf(const std::string& layout) { return layout.empty() ? 0 : Layout::of(layout).blockOf('C'); }

/// sum_k M[r][k] * f(k) for the row r that `row` selects: a select chain over
/// the rows, each its sparse sum (no term for a 0, no multiply for +-1). Once
/// the loop over `row` is unrolled, the selects fold and one sum remains.
Expr combine(const Matrix& m, const Expr& row, const std::function<Expr(int)>& f, DataType t) {
    Expr out;
    for (int r = int(m.size()) - 1; r >= 0; --r) {
        Expr sum;
        for (size_t k = 0; k < m[size_t(r)].size(); ++k) {
            const double c = m[size_t(r)][k];
            if (c == 0) continue;
            Expr term = f(int(k));
            if (c == 1 || c == -1) {
                if (!sum.defined()) sum = c == 1 ? term : makeZero(t) - term;
                else sum = c == 1 ? sum + term : sum - term;
            } else {
                term = term * constant(t, c);
                sum = sum.defined() ? sum + term : term;
            }
        }
        if (!sum.defined()) sum = makeZero(t);
        out = out.defined() ? select(row == intImm(r), sum, out) : sum;
    }
    return out;
}

} // namespace

namespace nn {

const Matrix& winogradBT() {
    static const Matrix m{{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
                          {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
    return m;
}

const Matrix& winogradG() {
    static const Matrix m{{1.0 / 4, 0, 0},
                          {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                          {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                          {1.0 / 24, 1.0 / 12, 1.0 / 6},
                          {1.0 / 24, -1.0 / 12, 1.0 / 6},
                          {0, 0, 1}};
    return m;
}

const Matrix& winogradAT() {
    static const Matrix m{{1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};
    return m;
}

bool winogradApplies(const Tensor& x, const Tensor& w, const ConvParams& p, const ConvLayouts& layouts) {
    const int64_t xb = blockOf(layouts.data), ob = blockOf(layouts.out);
    if (ob == 0 || x.ndim() != (xb ? 5 : 4) || w.ndim() != 4 || x->dtype != DataType::float32() ||
        w->dtype != DataType::float32() || p.groups != 1)
        return false;
    const auto ws = staticShape(w);
    const int64_t c = staticShape(x)[1] * (xb ? xb : 1);
    auto ones = [](const std::vector<int64_t>& v) {
        for (auto e : v)
            if (e != 1) return false;
        return true;
    };
    return ws[2] == 3 && ws[3] == 3 && ws[1] == c && ws[0] % ob == 0 && (p.strides.empty() || ones(p.strides)) &&
           (p.dilation.empty() || ones(p.dilation)) && p.padding.size() == 4;
}

Tensor conv2dWinograd(const Tensor& x, const Tensor& w, const ConvParams& params, const Tensor& bias,
                      const ConvLayouts& layouts, const std::string& name, ConstantPacker* packer) {
    if (!winogradApplies(x, w, params, layouts))
        throw CompileError("the Winograd convolution needs a float32 3x3 convolution of stride 1, one group and an "
                           "output stored in channel blocks");
    const DataType f32 = DataType::float32();
    const int64_t m = kWinogradTile, a = kAlpha;
    const int64_t xb = blockOf(layouts.data), ob = blockOf(layouts.out);
    auto xs = staticShape(x);
    if (xb) {
        xs[1] *= xb;
        xs.pop_back();
    }
    const auto ws = staticShape(w);
    const Window win = slidingWindow(xs, {3, 3}, {1, 1}, params.padding, {1, 1}, false);
    const int64_t n = xs[0], c = xs[1], oc = ws[0];
    const int64_t oh = win.out[0], ow = win.out[1], pt = win.padBegin[0], pl = win.padBegin[1];
    const int64_t ib = xb && c % xb == 0 ? xb : (c % 16 == 0 ? 16 : largestDivisorAtMost(c, 16));
    const int64_t nh = (oh + m - 1) / m, nw = (ow + m - 1) / m, tiles = n * nh * nw;

    // The padded input in channel blocks, as many rows and columns as whole tiles read.
    Tensor data = te::compute(
        toExprs({n, c / ib, nh * m + 2, nw * m + 2, ib}),
        [&](const std::vector<Var>& i) {
            const Expr hh = i[2] - intImm(pt), ww = i[3] - intImm(pl);
            const Expr ch = i[1] * intImm(ib) + i[4];
            std::vector<Expr> idx;
            if (xb == ib) idx = {i[0], i[1], hh, ww, i[4]};
            else if (xb == 0) idx = {i[0], ch, hh, ww};
            else idx = {i[0], floordiv(ch, intImm(xb)), hh, ww, floormod(ch, intImm(xb))};
            return paddedRead(x, idx, makeZero(f32));
        },
        name + "_data", tag::kPad, {"n", "cb", "h", "w", "ci"});

    // Tile p is (image, tile row, tile column).
    auto tileOrigin = [&](const Expr& p) {
        return std::make_tuple(floordiv(p, intImm(nh * nw)), floormod(floordiv(p, intImm(nw)), intImm(nh)) * intImm(m),
                               floormod(p, intImm(nw)) * intImm(m));
    };
    const Matrix& bt = winogradBT();
    // V = B^T d B in two passes: vt[e, j] = sum_i BT[e][i] d[i][j], then v[e, v] = sum_j BT[v][j] vt[e][j].
    Tensor vt = te::compute(
        toExprs({a, a, c / ib, tiles, ib}),
        [&](const std::vector<Var>& i) {
            // Not a structured binding: clang before 16 cannot capture one.
            const auto origin = tileOrigin(i[3]);
            const Expr& img = std::get<0>(origin);
            const Expr& r0 = std::get<1>(origin);
            const Expr& c0 = std::get<2>(origin);
            return combine(
                bt, i[0], [&](int k) { return data({img, i[2], r0 + intImm(k), c0 + i[1], i[4]}); }, f32);
        },
        name + "_vt", tag::kWinogradInput, {"e", "j", "cb", "p", "ci"});
    Tensor v = te::compute(
        toExprs({a, a, c / ib, tiles, ib}),
        [&](const std::vector<Var>& i) {
            return combine(bt, i[1], [&](int k) { return vt({i[0], intImm(k), i[2], i[3], i[4]}); }, f32);
        },
        name + "_v", tag::kWinogradInput, {"e", "nu", "cb", "p", "ci"});

    // U = G g G^T per output and input channel: [6, 6, OC/ob, C/ib, ib, ob].
    const Matrix& g = winogradG();
    const std::vector<int64_t> ushape{a, a, oc / ob, c / ib, ib, ob};
    Tensor u;
    if (packer)
        u = packer->derive(w, name + "_u", f32, ushape, [&](const void* from, void* to) {
            const float* src = static_cast<const float*>(from);
            float* dst = static_cast<float*>(to);
            for (int64_t o = 0; o < oc; ++o)
                for (int64_t ci = 0; ci < c; ++ci)
                    for (int64_t e = 0; e < a; ++e)
                        for (int64_t nu = 0; nu < a; ++nu) {
                            double s = 0;
                            for (int i = 0; i < 3; ++i)
                                for (int j = 0; j < 3; ++j)
                                    s += g[size_t(e)][size_t(i)] * double(src[((o * c + ci) * 3 + i) * 3 + j]) *
                                         g[size_t(nu)][size_t(j)];
                            dst[((((e * a + nu) * (oc / ob) + o / ob) * (c / ib) + ci / ib) * ib + ci % ib) * ob +
                                o % ob] = float(s);
                        }
        });
    if (!u.defined())
        u = te::compute(
            toExprs(ushape),
            [&](const std::vector<Var>& i) {
                const Expr o = i[2] * intImm(ob) + i[5], ci = i[3] * intImm(ib) + i[4];
                return combine(
                    g, i[0],
                    [&](int r) {
                        return combine(g, i[1], [&](int s) { return w({o, ci, intImm(r), intImm(s)}); }, f32);
                    },
                    f32);
            },
            name + "_u", tag::kOpaque);

    // M[e, nu] = sum over input channels of U[e, nu] V[e, nu]: 36 matrix products.
    auto rcb = te::reduceAxis(Range(intImm(0), intImm(c / ib)), "rcb");
    auto rci = te::reduceAxis(Range(intImm(0), intImm(ib)), "rci");
    Tensor mm = te::compute(
        toExprs({a, a, oc / ob, tiles, ob}),
        [&](const std::vector<Var>& i) {
            return te::sum(u({i[0], i[1], i[2], rcb->var, rci->var, i[4]}) * v({i[0], i[1], rcb->var, i[3], rci->var}),
                           {rcb, rci});
        },
        name + "_m", tag::kWinogradGemm, {"e", "nu", "ocb", "p", "oc"});

    // Y = A^T M A: yt[e, b] = sum_nu AT[b][nu] M[e][nu], then the output.
    const Matrix& at = winogradAT();
    Tensor yt = te::compute(
        toExprs({a, m, oc / ob, tiles, ob}),
        [&](const std::vector<Var>& i) {
            return combine(at, i[1], [&](int k) { return mm({i[0], intImm(k), i[2], i[3], i[4]}); }, f32);
        },
        name + "_yt", tag::kWinogradOutput, {"e", "b", "ocb", "p", "oc"});
    return te::compute(
        toExprs({n, oc / ob, oh, ow, ob}),
        [&](const std::vector<Var>& i) {
            const Expr p = (i[0] * intImm(nh) + floordiv(i[2], intImm(m))) * intImm(nw) + floordiv(i[3], intImm(m));
            Expr y = combine(
                at, floormod(i[2], intImm(m)),
                [&](int k) { return yt({intImm(k), floormod(i[3], intImm(m)), i[1], p, i[4]}); }, f32);
            if (bias.defined()) y = y + bias({i[1] * intImm(ob) + i[4]});
            return y;
        },
        name, tag::kInjective, {"n", "ocb", "oh", "ow", "oc"});
}

} // namespace nn

te::Schedule scheduleConv2dWinograd(const std::vector<te::Tensor>& outputs, const ScheduleOptions& options,
                                    te::ConfigSpace& cfg) {
    TESSEL_CHECK(outputs.size() == 1 && outputs[0].ndim() == 5, "Winograd schedule on unexpected outputs");
    std::vector<te::Operation> ops{outputs[0]->op};
    te::Schedule s = te::createSchedule(ops);
    te::Tensor mm, yt, v, vt, data;
    for (te::Stage stage : s.stages()) {
        const std::string& t = stage.op()->tag;
        auto* op = dynamic_cast<const te::ComputeOpNode*>(stage.op().get());
        if (!op) continue;
        if (t == tag::kWinogradGemm) mm = stage.op().output(0);
        else if (t == tag::kWinogradOutput) yt = stage.op().output(0);
        else if (t == tag::kWinogradInput) (op->name.ends_with("_vt") ? vt : v) = stage.op().output(0);
        else if (t == tag::kPad) data = stage.op().output(0);
        else if (!stage.data().isOutput && tag::isInjectiveTag(t)) stage.computeInline();
    }
    TESSEL_CHECK(mm.defined() && yt.defined() && v.defined() && vt.defined() && data.defined(),
                 "Winograd schedule without its stages");
    auto axesOf = [](const te::Tensor& t) { return dynamic_cast<const te::ComputeOpNode*>(t->op.get())->axis; };

    // The padded input: every block row in parallel.
    {
        auto ax = axesOf(data);
        te::Stage st = s[data];
        st.parallel(st.fuse(st.fuse(ax[0], ax[1]), ax[2]));
        st.vectorize(ax[4]);
    }
    // The input transform, one tile (36 vectors) at a time.
    {
        auto ax = axesOf(v); // e, nu, cb, p, ci
        te::Stage st = s[v];
        st.reorder({ax[2], ax[3], ax[0], ax[1], ax[4]});
        IterVar tile = st.fuse(ax[2], ax[3]);
        st.parallel(tile);
        st.unroll(ax[0]);
        st.unroll(ax[1]);
        st.vectorize(ax[4]);
        auto tx = axesOf(vt); // e, j, cb, p, ci
        te::Stage tt = s[vt];
        tt.computeAt(st, tile);
        tt.reorder({tx[2], tx[3], tx[0], tx[1], tx[4]});
        tt.unroll(tx[0]);
        tt.unroll(tx[1]);
        tt.vectorize(tx[4]);
    }
    // The 36 products: register blocks of channel blocks x tiles, summed over
    // every input channel before they are stored.
    {
        auto ax = axesOf(mm); // e, nu, ocb, p, oc
        const int64_t ocb = extentOf(ax[2]), tiles = extentOf(ax[3]);
        std::vector<te::KnobValue> choices;
        te::KnobValue fallback;
        double best = -1;
        int64_t bestAcc = 0;
        for (int64_t cb = 1; cb <= std::min<int64_t>(ocb, 4); ++cb) {
            if (ocb % cb) continue;
            for (int64_t t = 1; t <= std::min<int64_t>(tiles, 28); ++t) {
                if (tiles % t || cb * t + cb + 1 > options.vectorRegisters) continue;
                choices.emplace_back(std::vector<int64_t>{cb, t});
                const double score = std::min(2.0, double(cb * t) / double(cb + t));
                if (score > best + 1e-9 || (score > best - 1e-9 && cb * t > bestAcc)) {
                    best = score;
                    bestAcc = cb * t;
                    fallback = choices.back();
                }
            }
        }
        TESSEL_CHECK(!choices.empty(), "no register block fits");
        const auto block = defineChoiceKnob(cfg, "reg_block", choices, fallback).ints();
        te::Tensor acc = s.cacheWrite(mm, "local");
        te::Stage st = s[mm];
        auto [cbo, cbi] = st.split(ax[2], intImm(block[0]));
        auto [po, pi] = st.split(ax[3], intImm(block[1]));
        st.reorder({ax[0], ax[1], cbo, po, cbi, pi, ax[4]});
        st.parallel(st.fuse(st.fuse(ax[0], ax[1]), cbo));
        st.unroll(cbi);
        st.unroll(pi);
        st.vectorize(ax[4]);
        te::Stage as = s[acc];
        as.computeAt(st, po);
        auto* accOp = dynamic_cast<const te::ComputeOpNode*>(as.op().get());
        // Tiles outside channel blocks: one broadcast live at a time beside
        // the block's weight vectors, as the register count above assumes
        // (the blocked convolution's order: topi/Conv2dNCHWc.cpp).
        std::vector<IterVar> order(accOp->reduceAxis.begin(), accOp->reduceAxis.end());
        const auto& aa = accOp->axis; // e, nu, ocb, p, oc
        order.insert(order.end(), {aa[0], aa[1], aa[3], aa[2], aa[4]});
        as.reorder(order);
        as.unroll(accOp->axis[2]);
        as.unroll(accOp->axis[3]);
        as.vectorize(accOp->axis[4]);
        for (auto& r : accOp->reduceAxis) as.pragma(r, "llvm_unroll", intImm(1));
    }
    // The output: one 4 x 4 tile of vectors at a time, from its 6 x 4 first pass.
    {
        const te::Tensor& out = outputs[0];
        auto ax = axesOf(out); // n, ocb, oh, ow, oc
        te::Stage o = s[out];
        auto [oho, ohi] = o.split(ax[2], intImm(nn::kWinogradTile));
        auto [owo, owi] = o.split(ax[3], intImm(nn::kWinogradTile));
        o.reorder({ax[0], ax[1], oho, owo, ohi, owi, ax[4]});
        o.parallel(o.fuse(o.fuse(ax[0], ax[1]), oho));
        o.unroll(ohi);
        o.unroll(owi);
        o.vectorize(ax[4]);
        auto yx = axesOf(yt); // e, b, ocb, p, oc
        te::Stage y = s[yt];
        y.computeAt(o, owo);
        y.reorder({yx[2], yx[3], yx[0], yx[1], yx[4]});
        y.unroll(yx[0]);
        y.unroll(yx[1]);
        y.vectorize(yx[4]);
    }
    return s;
}

} // namespace tessel::topi
