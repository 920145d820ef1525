/// \file
/// The data-movement operators: Reshape, Flatten, Squeeze, Unsqueeze,
/// Transpose, DepthToSpace, SpaceToDepth, Concat, Split, Gather, Slice, Pad,
/// Resize, Expand and Tile. Shape inputs (Reshape's shape, Slice's starts,
/// Pad's pads ...) are read when they are constants; otherwise the output's
/// dims are unknown and its rank is kept. The reshapes, Transpose, Concat,
/// Gather, Slice, Expand and Tile evaluate on constants by moving bytes.
#include "graph/ops/EvalHelpers.h"
#include "graph/ops/OpHelpers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tessel::graph::ops {

namespace {

// --- inference ----------------------------------------------------------------------

Types inferReshape(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const TensorType& shapeType = ctx.input(1);
    auto target = constInts(ctx, 1, "shape");
    if (!target) {
        if (shapeType.rank() != 1 || shapeType.shape[0] < 0)
            ctx.fail("the shape input " + shapeType.str() +
                     " must be a constant or have a known length");
        return {TensorType(x.dtype, Shape(static_cast<size_t>(shapeType.shape[0]), -1))};
    }
    const bool allowZero = ctx.attrs().getInt("allowzero", 0) != 0;
    Shape out;
    int inferAt = -1;
    for (size_t i = 0; i < target->size(); ++i) {
        const int64_t d = (*target)[i];
        if (d == 0 && !allowZero) {
            if (static_cast<int>(i) >= x.rank())
                ctx.fail("shape " + listStr(*target) + " copies dim " + std::to_string(i) +
                         " (0) but data " + x.str() + " has rank " + std::to_string(x.rank()));
            out.push_back(x.shape[i]);
        } else if (d == -1) {
            if (inferAt >= 0) ctx.fail("shape " + listStr(*target) + " has more than one -1");
            inferAt = static_cast<int>(i);
            out.push_back(-1);
        } else if (d < -1) {
            ctx.fail("shape " + listStr(*target) + " has a negative dimension");
        } else {
            out.push_back(d);
        }
    }
    // Dims copied by a 0 appear on both sides and cancel; the -1 takes what
    // is left of the input's elements once the other output dims are known.
    std::vector<bool> copied(out.size(), false);
    for (size_t i = 0; i < out.size(); ++i)
        copied[i] = (*target)[i] == 0 && !allowZero;
    int64_t inRest = 1, outRest = 1;
    bool known = true;
    for (size_t i = 0; i < x.shape.size(); ++i) {
        if (i < copied.size() && copied[i]) continue;
        if (x.shape[i] < 0)
            known = false;
        else
            inRest = saturatingMul(inRest, x.shape[i]);
    }
    // The target's numbers come from the model: a product past int64 saturates
    // (and so differs from the input's, which fits).
    for (size_t i = 0; i < out.size(); ++i) {
        if (copied[i] || static_cast<int>(i) == inferAt) continue;
        outRest = saturatingMul(outRest, out[i]);
    }
    if (known) {
        const int64_t total = x.numElements();
        if (inferAt >= 0) {
            if (outRest == 0 || inRest % outRest != 0)
                ctx.fail("cannot reshape " + x.str() + " (" + std::to_string(total) +
                         " elements) to " + listStr(*target));
            out[static_cast<size_t>(inferAt)] = inRest / outRest;
        } else if (inRest != outRest) {
            const int64_t n = TensorType(x.dtype, out).numElements();
            ctx.fail("cannot reshape " + x.str() + " (" + std::to_string(total) + " elements) to " +
                     shapeStr(out) + " (" +
                     (n == INT64_MAX ? std::string("more than 2^63") : std::to_string(n)) +
                     " elements)");
        }
    }
    return {TensorType(x.dtype, out)};
}

Types inferFlatten(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    int64_t axis = ctx.attrs().getInt("axis", 1);
    if (axis < -x.rank() || axis > x.rank())
        ctx.fail("axis " + std::to_string(axis) + " is out of range for " + x.str());
    if (axis < 0) axis += x.rank();
    const size_t a = static_cast<size_t>(axis);
    return {TensorType(x.dtype, {productOf(x.shape, 0, a), productOf(x.shape, a, x.shape.size())})};
}

/// DepthToSpace (toSpace) and SpaceToDepth: blocks of channels to and from
/// blocksize x blocksize spatial tiles of a 4-d NCHW tensor.
Types inferBlockSpace(const InferContext& ctx, bool toSpace) {
    const TensorType& x = ctx.input(0);
    if (x.rank() != 4) ctx.fail("needs a 4-d input, not " + x.str());
    const int64_t b = ctx.attrs().getInt("blocksize", 0);
    if (b < 1) ctx.fail("blocksize must be positive");
    Shape s = x.shape;
    // The blocksize comes from the model: its square and the scaled
    // dimensions are computed wide (and saturate).
    const __int128 bb = __int128(b) * b;
    auto scale = [](int64_t d, __int128 f) { return d < 0 ? d : saturated(d * f); };
    if (toSpace) {
        if (s[1] >= 0 && s[1] % bb != 0)
            ctx.fail(std::to_string(s[1]) + " channels do not divide into blocks of " +
                     std::to_string(saturated(bb)));
        s = {s[0], s[1] < 0 ? -1 : static_cast<int64_t>(s[1] / bb), scale(s[2], b), scale(s[3], b)};
    } else {
        for (int i = 2; i < 4; ++i)
            if (s[i] >= 0 && s[i] % b != 0)
                ctx.fail("spatial size " + std::to_string(s[i]) +
                         " is not a multiple of blocksize " + std::to_string(b));
        s = {s[0], scale(s[1], bb), s[2] < 0 ? -1 : s[2] / b, s[3] < 0 ? -1 : s[3] / b};
    }
    return {TensorType(x.dtype, s)};
}

Types inferTranspose(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    Shape perm(static_cast<size_t>(x.rank()));
    for (size_t i = 0; i < perm.size(); ++i)
        perm[i] = static_cast<int64_t>(perm.size() - 1 - i);
    perm = ctx.attrs().getInts("perm", perm);
    Shape sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    Shape iota(static_cast<size_t>(x.rank()));
    std::iota(iota.begin(), iota.end(), 0);
    if (sorted != iota)
        ctx.fail("perm " + listStr(perm) + " is not a permutation of the " +
                 std::to_string(x.rank()) + " axes of " + x.str());
    Shape out;
    for (int64_t p : perm)
        out.push_back(x.shape[static_cast<size_t>(p)]);
    return {TensorType(x.dtype, out)};
}

Types inferConcat(const InferContext& ctx) {
    if (!ctx.attrs().has("axis")) ctx.fail("attribute 'axis' is required");
    const TensorType& first = ctx.input(0);
    const int64_t axisAttr = ctx.attrs().getInt("axis", 0);
    auto axis = normalizeAxis(axisAttr, first.rank());
    if (!axis) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for " + first.str());
    Shape out = first.shape;
    for (int i = 1; i < ctx.numInputs(); ++i) {
        const TensorType& t = ctx.input(i);
        requireSameDtype(ctx, 0, i);
        if (t.rank() != first.rank())
            ctx.fail("input " + std::to_string(i) + " " + t.str() + " has rank " +
                     std::to_string(t.rank()) + ", input 0 " + first.str() + " has " +
                     std::to_string(first.rank()));
        for (size_t d = 0; d < out.size(); ++d) {
            if (static_cast<int64_t>(d) == *axis) {
                out[d] = out[d] < 0 || t.shape[d] < 0 ? -1
                                                      : saturated(__int128(out[d]) + t.shape[d]);
            } else if (out[d] < 0) {
                out[d] = t.shape[d];
            } else if (t.shape[d] >= 0 && t.shape[d] != out[d]) {
                ctx.fail("input " + std::to_string(i) + " " + t.str() + " differs from input 0 " +
                         first.str() + " in dim " + std::to_string(d) +
                         " (concatenating along axis " + std::to_string(*axis) + ")");
            }
        }
    }
    return {TensorType(first.dtype, out)};
}

/// Concat of tensors stored in one blocked layout joins their stored forms
/// along the stored axis of the logical one (the layout's blocks stay whole:
/// every input's extent along a blocked axis is a whole number of blocks).
Types inferConcatLayouts(const InferContext& ctx) {
    const std::string layout = ctx.input(0).layout;
    for (int i = 1; i < ctx.numInputs(); ++i)
        if (ctx.input(i).layout != layout)
            ctx.fail("input " + std::to_string(i) + " " + ctx.input(i).str() + " is not stored like input 0 " +
                     ctx.input(0).str());
    if (layout.empty()) return inferConcat(ctx);
    const Layout l = Layout::of(layout);
    const int64_t axis = ctx.attrs().getInt("axis", 0);
    if (axis < 0 || axis >= l.logicalRank() || l.storedIndexOf(l.primal().axes()[size_t(axis)].name) != axis)
        ctx.fail("axis " + std::to_string(axis) + " of inputs stored as " + layout +
                 " must be a primal axis at the same position (alter-layout writes it so)");
    Types out = inferConcat(ctx);
    out[0].layout = layout;
    return out;
}

/// LayoutTransform: the same logical tensor stored in dst_layout.
Types inferLayoutTransform(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const std::string src = ctx.attrs().getString("src_layout", "");
    const std::string dst = ctx.attrs().getString("dst_layout", "");
    if (!Layout::parse(dst) && !dst.empty()) ctx.fail("malformed dst_layout \"" + dst + "\"");
    if (!Layout::parse(src) && !src.empty()) ctx.fail("malformed src_layout \"" + src + "\"");
    // src_layout names the plain layout's primal axes ("NCHW") for a plain input.
    const std::string have = x.blocked() ? x.layout : "";
    if (!src.empty() && have != src && !(have.empty() && Layout::of(src).plain()))
        ctx.fail("input " + x.str() + " is not stored as src_layout " + src);
    const TensorType logical = x.logical();
    const std::string target = dst.empty() || Layout::of(dst).plain() ? std::string() : dst;
    if (!target.empty() && Layout::of(target).logicalRank() != logical.rank())
        ctx.fail("dst_layout " + dst + " has " + std::to_string(Layout::of(target).logicalRank()) +
                 " axes, the tensor " + std::to_string(logical.rank()));
    auto out = logical.inLayout(target);
    if (!out) ctx.fail(logical.str() + " cannot be stored as " + dst + " (a block does not divide its axis)");
    return {*out};
}

Types inferSqueeze(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    if (auto n = runtimeAxesCount(ctx)) {
        if (*n == 0 || *n > x.rank())
            ctx.fail("the axes input " + ctx.input(1).str() + " must be a constant");
        return {TensorType(x.dtype, Shape(static_cast<size_t>(x.rank() - *n), -1))};
    }
    auto axes = axesOf(ctx);
    std::vector<bool> drop(static_cast<size_t>(x.rank()), false);
    if (axes && !axes->empty()) {
        for (int64_t a : *axes) {
            auto n = normalizeAxis(a, x.rank());
            if (!n) ctx.fail("axis " + std::to_string(a) + " is out of range for " + x.str());
            if (x.shape[static_cast<size_t>(*n)] > 1 || x.shape[static_cast<size_t>(*n)] == 0)
                ctx.fail("cannot squeeze axis " + std::to_string(a) + " of " + x.str() +
                         ": its size is not 1");
            drop[static_cast<size_t>(*n)] = true;
        }
    } else {
        for (size_t i = 0; i < drop.size(); ++i) {
            if (x.shape[i] < 0)
                ctx.fail("without axes, every dimension of " + x.str() + " must be known");
            drop[i] = x.shape[i] == 1;
        }
    }
    Shape out;
    for (size_t i = 0; i < drop.size(); ++i)
        if (!drop[i]) out.push_back(x.shape[i]);
    return {TensorType(x.dtype, out)};
}

Types inferUnsqueeze(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    if (auto n = runtimeAxesCount(ctx))
        return {TensorType(x.dtype, Shape(static_cast<size_t>(x.rank() + *n), -1))};
    auto axes = axesOf(ctx);
    if (!axes || axes->empty())
        ctx.fail("axes are required (an input from opset 13, an attribute before)");
    const int64_t outRank = x.rank() + static_cast<int64_t>(axes->size());
    std::vector<bool> inserted(static_cast<size_t>(outRank), false);
    for (int64_t a : *axes) {
        auto n = normalizeAxis(a, outRank);
        if (!n)
            ctx.fail("axis " + std::to_string(a) + " is out of range for output rank " +
                     std::to_string(outRank));
        if (inserted[static_cast<size_t>(*n)])
            ctx.fail("axis " + std::to_string(a) + " is given twice");
        inserted[static_cast<size_t>(*n)] = true;
    }
    Shape out;
    size_t next = 0;
    for (size_t i = 0; i < inserted.size(); ++i)
        out.push_back(inserted[i] ? 1 : x.shape[next++]);
    return {TensorType(x.dtype, out)};
}

Types inferGather(const InferContext& ctx) {
    const TensorType& data = ctx.input(0);
    const TensorType& indices = ctx.input(1);
    if (!indices.dtype.isInt()) ctx.fail("indices " + indices.str() + " must be int32 or int64");
    const int64_t axisAttr = ctx.attrs().getInt("axis", 0);
    auto axis = normalizeAxis(axisAttr, data.rank());
    if (!axis) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for " + data.str());
    Shape out(data.shape.begin(), data.shape.begin() + *axis);
    out.insert(out.end(), indices.shape.begin(), indices.shape.end());
    out.insert(out.end(), data.shape.begin() + *axis + 1, data.shape.end());
    return {TensorType(data.dtype, out)};
}

Types inferSplit(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t axisAttr = ctx.attrs().getInt("axis", 0);
    auto axis = normalizeAxis(axisAttr, x.rank());
    if (!axis) ctx.fail("axis " + std::to_string(axisAttr) + " is out of range for " + x.str());
    const size_t a = static_cast<size_t>(*axis);
    const int k = ctx.numOutputs();
    std::optional<Shape> split;
    if (ctx.hasInput(1)) {
        vectorLength(ctx, 1, "split");
        split = constInts(ctx, 1, "split");
        if (!split) { // sizes known only at run time
            Shape s = x.shape;
            s[a] = -1;
            return Types(static_cast<size_t>(k), TensorType(x.dtype, s));
        }
    } else if (ctx.attrs().has("split")) {
        split = ctx.attrs().getInts("split", {});
    }
    const int64_t dim = x.shape[a];
    Types out(static_cast<size_t>(k), TensorType(x.dtype, x.shape));
    if (split && !split->empty()) {
        if (static_cast<int>(split->size()) != k)
            ctx.fail("split " + listStr(*split) + " has " + std::to_string(split->size()) +
                     " sizes for " + std::to_string(k) + " outputs");
        __int128 sum = 0; // of sizes from the model
        for (size_t i = 0; i < split->size(); ++i) {
            if ((*split)[i] < 0) ctx.fail("split " + listStr(*split) + " has a negative size");
            sum += (*split)[i];
            out[i].shape[a] = (*split)[i];
        }
        if (dim >= 0 && sum != dim)
            ctx.fail("split " + listStr(*split) + " adds up to " + std::to_string(saturated(sum)) +
                     ", but axis " + std::to_string(*axis) + " of " + x.str() + " has " +
                     std::to_string(dim));
        return out;
    }
    if (dim >= 0 && dim % k != 0)
        ctx.fail("axis " + std::to_string(*axis) + " of " + x.str() + " (" + std::to_string(dim) +
                 ") does not split into " + std::to_string(k) + " equal parts");
    for (auto& t : out)
        t.shape[a] = dim < 0 ? -1 : dim / k;
    return out;
}

Types inferSlice(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t r = x.rank();
    // One slice parameter: from the inputs (opset 10+) or the attributes (opset 1).
    // `present` says whether it is given, `known` whether its values are.
    struct Param {
        bool present = false;
        std::optional<Shape> values;
        int64_t length = -1;
    };
    const bool fromAttrs = ctx.numInputs() == 1;
    auto param = [&](int i, const char* name) {
        Param p;
        if (fromAttrs) {
            if (i <= 3 && ctx.attrs().has(name)) {
                p.present = true;
                p.values = ctx.attrs().getInts(name, {});
            }
        } else if (ctx.hasInput(i)) {
            p.present = true;
            p.length = vectorLength(ctx, i, name);
            p.values = constInts(ctx, i, name);
        }
        if (p.values) p.length = static_cast<int64_t>(p.values->size());
        return p;
    };
    Param starts = param(1, "starts"), ends = param(2, "ends"), axes = param(3, "axes"),
          steps = param(4, "steps");
    if (!starts.present || !ends.present)
        ctx.fail("starts and ends are required (inputs from opset 10, attributes before)");
    for (const Param* p : {&ends, &axes, &steps})
        if (p->present && p->length >= 0 && starts.length >= 0 && p->length != starts.length)
            ctx.fail("starts, ends, axes and steps must have the same length (starts has " +
                     std::to_string(starts.length) + ", another has " + std::to_string(p->length) +
                     ")");
    // Which axes are sliced: given, or the first len(starts) ones.
    std::optional<Shape> sliced;
    if (axes.present) {
        if (axes.values) {
            sliced = Shape();
            std::vector<bool> seen(static_cast<size_t>(r), false);
            for (int64_t a : *axes.values) {
                auto na = normalizeAxis(a, r);
                if (!na) ctx.fail("axis " + std::to_string(a) + " is out of range for " + x.str());
                if (seen[static_cast<size_t>(*na)])
                    ctx.fail("axis " + std::to_string(a) + " is given twice");
                seen[static_cast<size_t>(*na)] = true;
                sliced->push_back(*na);
            }
        }
    } else if (starts.length >= 0) {
        if (starts.length > r)
            ctx.fail("starts has " + std::to_string(starts.length) + " values for " + x.str());
        sliced = Shape(static_cast<size_t>(starts.length));
        std::iota(sliced->begin(), sliced->end(), 0);
    }
    Shape out = x.shape;
    const bool valuesKnown =
        starts.values && ends.values && (!steps.present || steps.values.has_value());
    if (!valuesKnown || !sliced) {
        // Sizes known only at run time: the rank stays, sliced axes become unknown.
        if (!sliced)
            std::fill(out.begin(), out.end(), -1);
        else
            for (int64_t a : *sliced)
                out[static_cast<size_t>(a)] = -1;
        return {TensorType(x.dtype, out)};
    }
    for (size_t i = 0; i < sliced->size(); ++i) {
        const size_t a = static_cast<size_t>((*sliced)[i]);
        const int64_t step = steps.values ? (*steps.values)[i] : 1;
        if (step == 0) ctx.fail("steps " + listStr(*steps.values) + " has a 0");
        if (x.shape[a] < 0) continue;
        out[a] = sliceRange(x.shape[a], (*starts.values)[i], (*ends.values)[i], step).count;
    }
    return {TensorType(x.dtype, out)};
}

Types inferPad(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t r = x.rank();
    const std::string mode = ctx.attrs().getString("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge")
        ctx.fail("unknown mode \"" + mode + "\" (constant, reflect or edge)");
    if (ctx.hasInput(2)) {
        const TensorType& v = ctx.input(2);
        if (v.numElements() > 1 || v.rank() > 1)
            ctx.fail("constant_value " + v.str() + " must be a scalar");
        requireSameDtype(ctx, 0, 2);
    }
    std::optional<Shape> pads;
    if (ctx.numInputs() == 1) { // opset < 11: an attribute
        if (!ctx.attrs().has("pads"))
            ctx.fail("pads are required (an input from opset 11, an attribute before)");
        pads = ctx.attrs().getInts("pads", {});
    } else {
        const int64_t len = vectorLength(ctx, 1, "pads");
        if (len >= 0 && len != 2 * r)
            ctx.fail("pads " + ctx.input(1).str() +
                     " must have 2 * rank = " + std::to_string(2 * r) + " values for " + x.str());
        pads = constInts(ctx, 1, "pads");
        if (!pads) return {TensorType(x.dtype, Shape(static_cast<size_t>(r), -1))};
    }
    if (static_cast<int64_t>(pads->size()) != 2 * r)
        ctx.fail("pads " + listStr(*pads) + " must have 2 * rank = " + std::to_string(2 * r) +
                 " values for " + x.str());
    Shape out = x.shape;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] < 0) continue;
        // Negative pads crop.
        out[i] = saturated(__int128(out[i]) + (*pads)[i] + (*pads)[i + out.size()]);
        if (out[i] < 0)
            ctx.fail("pads " + listStr(*pads) + " remove more than the " +
                     std::to_string(x.shape[i]) + " elements of dim " + std::to_string(i) + " of " +
                     x.str());
    }
    return {TensorType(x.dtype, out)};
}

Types inferGridSample(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const TensorType& grid = ctx.input(1);
    requireFloat(ctx, 0);
    if (x.rank() != 4 || grid.rank() != 4 || grid.shape[3] != 2)
        ctx.fail("X " + x.str() + " must be [N, C, H, W] and grid " + grid.str() + " [N, Ho, Wo, 2]");
    const std::string mode = ctx.attrs().getString("mode", "bilinear");
    const std::string pad = ctx.attrs().getString("padding_mode", "zeros");
    if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
        ctx.fail("mode '" + mode + "' is not supported (bilinear, nearest, bicubic)");
    if (pad != "zeros" && pad != "border" && pad != "reflection")
        ctx.fail("padding_mode '" + pad + "' is not supported (zeros, border, reflection)");
    return {TensorType(x.dtype, {x.shape[0], x.shape[1], grid.shape[1], grid.shape[2]})};
}

Types inferResize(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const size_t r = static_cast<size_t>(x.rank());
    auto oneOf = [&](const char* attr, const char* def, std::initializer_list<const char*> ok) {
        const std::string v = ctx.attrs().getString(attr, def);
        std::string list;
        for (const char* o : ok) {
            if (v == o) return;
            list += (list.empty() ? "" : ", ") + std::string(o);
        }
        ctx.fail("unknown " + std::string(attr) + " \"" + v + "\" (" + list + ")");
    };
    oneOf("mode", "nearest", {"nearest", "linear", "cubic"});
    oneOf("coordinate_transformation_mode", "half_pixel",
          {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
           "tf_half_pixel_for_nn", "tf_crop_and_resize"});
    oneOf("nearest_mode", "round_prefer_floor",
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"});
    // Opset 11 writers pass an empty tensor for the one of scales and sizes
    // they do not use; that counts as absent.
    auto given = [&](int i) {
        if (!ctx.hasInput(i)) return false;
        const TensorType& t = ctx.input(i);
        return !(t.rank() == 1 && t.shape[0] == 0);
    };
    const bool hasScales = given(2), hasSizes = given(3);
    if (hasScales && hasSizes) ctx.fail("only one of scales and sizes may be given");
    if (!hasScales && !hasSizes) ctx.fail("scales or sizes is required");
    const int i = hasSizes ? 3 : 2;
    const char* what = hasSizes ? "sizes" : "scales";
    const int64_t len = vectorLength(ctx, i, what);
    if (len >= 0 && len != static_cast<int64_t>(r))
        ctx.fail(std::string(what) + " " + ctx.input(i).str() + " must have " + std::to_string(r) +
                 " values, one per dim of " + x.str());
    if (hasSizes) {
        auto sizes = constInts(ctx, 3, "sizes");
        if (!sizes) return {TensorType(x.dtype, Shape(r, -1))};
        for (int64_t d : *sizes)
            if (d < 0) ctx.fail("sizes " + listStr(*sizes) + " has a negative size");
        return {TensorType(x.dtype, *sizes)};
    }
    if (!ctx.input(2).dtype.isFloat())
        ctx.fail("scales " + ctx.input(2).str() + " must be a floating-point tensor");
    auto scales = constFloats(ctx, 2);
    if (!scales) return {TensorType(x.dtype, Shape(r, -1))};
    Shape out = x.shape;
    for (size_t d = 0; d < r; ++d) {
        const float s = static_cast<float>((*scales)[d]);
        if (!(s > 0))
            ctx.fail("scale " + std::to_string(s) + " of dim " + std::to_string(d) +
                     " is not positive");
        // ONNX's own inference multiplies in float.
        if (out[d] >= 0) out[d] = static_cast<int64_t>(std::floor(static_cast<float>(out[d]) * s));
    }
    return {TensorType(x.dtype, out)};
}

Types inferExpand(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t len = vectorLength(ctx, 1, "shape");
    auto shape = constInts(ctx, 1, "shape");
    if (!shape) {
        if (len < 0)
            ctx.fail("the shape input " + ctx.input(1).str() +
                     " must be a constant or have a known length");
        shape = Shape(static_cast<size_t>(len), -1); // unknown dims: 1 or the input's
    } else {
        for (int64_t d : *shape)
            if (d < 0) ctx.fail("shape " + listStr(*shape) + " has a negative dimension");
    }
    auto out = broadcastShapes(x.shape, *shape);
    if (!out) ctx.fail("input " + x.str() + " does not broadcast to shape " + listStr(*shape));
    return {TensorType(x.dtype, *out)};
}

Types inferTile(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t len = vectorLength(ctx, 1, "repeats");
    if (len >= 0 && len != x.rank())
        ctx.fail("repeats " + ctx.input(1).str() + " must have one value per dim of " + x.str());
    auto repeats = constInts(ctx, 1, "repeats");
    if (!repeats) return {TensorType(x.dtype, Shape(x.shape.size(), -1))};
    Shape out = x.shape;
    for (size_t i = 0; i < out.size(); ++i) {
        const int64_t k = (*repeats)[i];
        if (k < 0) ctx.fail("repeats " + listStr(*repeats) + " has a negative count");
        out[i] = k == 0 ? 0 : (out[i] < 0 ? -1 : saturated(__int128(out[i]) * k));
    }
    return {TensorType(x.dtype, out)};
}

// --- constant evaluation ------------------------------------------------------------

EvalResult evalGather(const EvalContext& e) {
    const Constant& data = e.input(0);
    const int64_t axis =
        *normalizeAxis(e.attrs().getInt("axis", 0), static_cast<int64_t>(data.shape.size()));
    const int64_t dim = data.shape[static_cast<size_t>(axis)];
    const int64_t outer = product(Shape(data.shape.begin(), data.shape.begin() + axis));
    const int64_t inner = product(Shape(data.shape.begin() + axis + 1, data.shape.end()));
    std::vector<int64_t> indices = e.input(1).toInts();
    for (auto& i : indices) {
        if (i < -dim || i >= dim)
            e.fail("index " + std::to_string(i) + " is out of range for axis " +
                   std::to_string(axis) + " of size " + std::to_string(dim));
        if (i < 0) i += dim;
    }
    std::vector<int64_t> index;
    index.reserve(static_cast<size_t>(outer * inner) * indices.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i : indices)
            for (int64_t k = 0; k < inner; ++k)
                index.push_back((o * dim + i) * inner + k);
    return one(gatherBytes(data, e.output().dtype, e.output().shape, index));
}

EvalResult evalLayoutTransform(const EvalContext& e) {
    const std::string dst = e.attrs().getString("dst_layout", "");
    return one(e.input(0).inLayout(dst.empty() || Layout::of(dst).plain() ? std::string() : dst));
}

EvalResult evalConcat(const EvalContext& e) {
    const Shape& shape = e.output().shape;
    const int64_t axis =
        *normalizeAxis(e.attrs().getInt("axis", 0), static_cast<int64_t>(shape.size()));
    const int64_t outer = product(Shape(shape.begin(), shape.begin() + axis));
    const int64_t inner = product(Shape(shape.begin() + axis + 1, shape.end()));
    const size_t size = static_cast<size_t>(e.output().dtype.bytes());
    std::vector<uint8_t> bytes;
    bytes.reserve(static_cast<size_t>(e.output().numElements()) * size);
    for (int64_t o = 0; o < outer; ++o)
        for (int i = 0; i < e.numInputs(); ++i) {
            const Constant& c = e.input(i);
            const size_t chunk =
                static_cast<size_t>(c.shape[static_cast<size_t>(axis)] * inner) * size;
            const uint8_t* p = c.bytes.data() + static_cast<size_t>(o) * chunk;
            bytes.insert(bytes.end(), p, p + chunk);
        }
    return one(Constant::make(e.output().dtype, shape, std::move(bytes)));
}

EvalResult evalTranspose(const EvalContext& e) {
    const Shape& inShape = e.input(0).shape;
    Shape perm(inShape.size());
    for (size_t i = 0; i < perm.size(); ++i)
        perm[i] = static_cast<int64_t>(perm.size() - 1 - i);
    perm = e.attrs().getInts("perm", perm);
    const Shape inStride = stridesOf(inShape);
    Shape stride(perm.size());
    for (size_t d = 0; d < perm.size(); ++d)
        stride[d] = inStride[static_cast<size_t>(perm[d])];
    const Shape& out = e.output().shape;
    return one(gatherBytes(e.input(0), e.output().dtype, out,
                           stridedIndex(out, Shape(out.size(), 0), Shape(out.size(), 1), stride)));
}

EvalResult evalSlice(const EvalContext& e) {
    const Shape& inShape = e.input(0).shape;
    const int64_t r = static_cast<int64_t>(inShape.size());
    auto param = [&](int i, const char* attr) -> std::optional<Shape> {
        if (e.numInputs() == 1) {
            if (!e.attrs().has(attr) || i > 3) return std::nullopt;
            return e.attrs().getInts(attr, {});
        }
        if (!e.hasInput(i)) return std::nullopt;
        return e.input(i).toInts();
    };
    const Shape starts = *param(1, "starts"), ends = *param(2, "ends");
    Shape axes(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
    if (auto a = param(3, "axes")) axes = *a;
    const Shape steps = param(4, "steps").value_or(Shape(starts.size(), 1));
    Shape base(inShape.size(), 0), step(inShape.size(), 1);
    for (size_t i = 0; i < axes.size(); ++i) {
        const size_t a = static_cast<size_t>(*normalizeAxis(axes[i], r));
        const SliceRange range = sliceRange(inShape[a], starts[i], ends[i], steps[i]);
        base[a] = range.start;
        step[a] = range.step;
    }
    const Shape& out = e.output().shape;
    return one(gatherBytes(e.input(0), e.output().dtype, out,
                           stridedIndex(out, base, step, stridesOf(inShape))));
}

EvalResult evalExpand(const EvalContext& e) {
    return one(gatherBytes(e.input(0), e.output().dtype, e.output().shape,
                           broadcastIndex(e.input(0).shape, e.output().shape)));
}

EvalResult evalTile(const EvalContext& e) {
    const Shape& inShape = e.input(0).shape;
    const Shape& out = e.output().shape;
    const Shape inStride = stridesOf(inShape);
    std::vector<int64_t> index(static_cast<size_t>(product(out)));
    Shape pos(out.size(), 0);
    for (auto& ix : index) {
        ix = 0;
        for (size_t d = 0; d < out.size(); ++d)
            ix += (pos[d] % inShape[d]) * inStride[d];
        for (size_t d = out.size(); d-- > 0;) {
            if (++pos[d] < out[d]) break;
            pos[d] = 0;
        }
    }
    return one(gatherBytes(e.input(0), e.output().dtype, out, index));
}

} // namespace

void registerTransformOps(OpRegistry& r) {
    using P = OpPattern;
    r.add(withEval(op("Reshape", "new shape from a shape tensor (0 copies a dim, -1 is inferred)",
                      P::Injective, 2, 2, inferReshape,
                      {attrInt("allowzero", 0, "1 = a 0 in shape means size 0, not copy")}),
                   sameBytes));
    r.add(
        withEval(op("Flatten", "2-D view: dims before axis and dims from axis", P::Injective, 1, 1,
                    inferFlatten, {attrInt("axis", 1, "first dim of the second output dimension")}),
                 sameBytes));
    r.add(
        withEval(op("Squeeze", "removes size-1 axes (axes an input from opset 13)", P::Injective, 1,
                    2, inferSqueeze,
                    {attrInts("axes", "axes to remove (opset < 13); all size-1 axes when absent")}),
                 sameBytes));
    r.add(withEval(op("Unsqueeze", "inserts size-1 axes (axes an input from opset 13)",
                      P::Injective, 1, 2, inferUnsqueeze,
                      {attrInts("axes", "positions in the output (opset < 13)")}),
                   sameBytes));
    r.add(withEval(op("Transpose", "permutes the axes (reverses them by default)", P::Injective, 1,
                      1, inferTranspose, {attrInts("perm", "the new order of the axes")}),
                   evalTranspose));
    r.add(op("DepthToSpace", "moves channel blocks into blocksize x blocksize spatial tiles",
             P::Injective, 1, 1, [](const InferContext& c) { return inferBlockSpace(c, true); },
             {attrInt("blocksize", std::nullopt, "edge of the spatial tile"),
              attrString("mode", "DCR", "DCR (depth, column, row) or CRD (column, row, depth)")}));
    r.add(op("SpaceToDepth", "moves blocksize x blocksize spatial tiles into channels",
             P::Injective, 1, 1, [](const InferContext& c) { return inferBlockSpace(c, false); },
             {attrInt("blocksize", std::nullopt, "edge of the spatial tile")}));
    OpInfo concat = withEval(op("Concat", "joins tensors along axis", P::Injective, 1, -1, inferConcatLayouts,
                                {attrInt("axis", std::nullopt, "the axis to join along (required)")}),
                             evalConcat);
    concat.layouts = LayoutPolicy::Custom;
    r.add(std::move(concat));
    // Tessel's own: what alter-layout inserts where a tensor changes layout.
    OpInfo transform = withEval(
        op("LayoutTransform", "the same tensor stored in another layout (NCHW <-> NCHW16c)", P::Injective, 1, 1,
           inferLayoutTransform,
           {attrString("src_layout", "", "the input's layout (NCHW for a plain 4-d tensor)"),
            attrString("dst_layout", "", "the output's layout (NCHW16c; NCHW or empty: plain)")}),
        evalLayoutTransform);
    transform.layouts = LayoutPolicy::Custom;
    r.add(std::move(transform));
    r.add(op("Split", "splits a tensor along axis into parts (split sizes an input from opset 13)",
             P::Injective, 1, 2, inferSplit,
             {attrInt("axis", 0, "the axis to split"),
              attrInts("split", "part sizes (opset < 13); equal parts when absent")},
             1, -1));
    r.add(op("GridSample", "samples X at the normalised points of a grid (bilinear, nearest, bicubic)",
             P::Injective, 2, 2, inferGridSample,
             {attrInt("align_corners", 0, "1: -1 and 1 are the centres of the corner pixels"),
              attrString("mode", "bilinear", "bilinear, nearest or bicubic"),
              attrString("padding_mode", "zeros", "zeros, border or reflection")}));
    r.add(withEval(op("Gather", "takes slices of data along axis at the given indices",
                      P::Injective, 2, 2, inferGather, {attrInt("axis", 0, "the axis to index")}),
                   evalGather));
    r.add(withEval(
        op("Slice", "elements from starts to ends with steps along axes (inputs from opset 10)",
           P::Injective, 1, 5, inferSlice,
           {attrInts("starts", "first index per axis (opset 1)"),
            attrInts("ends", "one past the last index per axis (opset 1)"),
            attrInts("axes", "the sliced axes (opset 1); the first len(starts) when absent")}),
        evalSlice));
    r.add(op("Pad", "pads (or crops, when negative) each dim at both ends (pads an input from 11)",
             P::Injective, 1, 3, inferPad,
             {attrString("mode", "constant", "constant, reflect or edge"),
              attrInts("pads", "all begins then all ends (opset < 11)"),
              attrFloat("value", 0.0, "the constant fill (opset < 11)")}));
    r.add(
        op("Resize", "resamples the spatial dims by scales or to sizes (nearest, linear, cubic)",
           P::Injective, 1, 4, inferResize,
           {attrString("mode", "nearest", "nearest, linear or cubic"),
            attrString("coordinate_transformation_mode", "half_pixel",
                       "how output coordinates map to input coordinates"),
            attrString("nearest_mode", "round_prefer_floor",
                       "rounding of nearest: round_prefer_floor, round_prefer_ceil, floor, ceil"),
            attrFloat("cubic_coeff_a", -0.75, "the cubic kernel's a"),
            attrInt("exclude_outside", 0, "1 = zero weights outside the input, renormalised"),
            attrFloat("extrapolation_value", 0.0, "fill outside the input (tf_crop_and_resize)")}));
    r.add(withEval(op("Expand", "broadcasts the input to a shape given as a tensor", P::Injective,
                      2, 2, inferExpand),
                   evalExpand));
    r.add(withEval(op("Tile", "repeats the input along each axis", P::Injective, 2, 2, inferTile),
                   evalTile));
}

} // namespace tessel::graph::ops
