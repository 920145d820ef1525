// topi's injective computes that move data (topi/Transform.h): reshape,
// transpose, concatenate, split, slicing, take, padding, tiling, and
// tensors made from numbers (topi.full).
#include "topi/script/Bindings.h"

#include "topi/TopiUtil.h"
#include "topi/Transform.h"

#include <algorithm>

namespace tessel::topi::script {

using te::Tensor;
using ts::Value;

namespace {

std::string shapeText(const std::vector<int64_t>& s) {
    std::string t = "[";
    for (size_t i = 0; i < s.size(); ++i)
        t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
}

int64_t elements(const std::vector<int64_t>& s) {
    int64_t n = 1;
    for (int64_t d : s)
        n *= d;
    return n;
}

/// An axis argument in [-rank, rank), made non-negative; `fallback` when not given.
int64_t axisOf(const Call& c, size_t i, int64_t rank, int64_t fallback) {
    if (!c.has(i)) return fallback < 0 ? fallback + rank : fallback;
    const int64_t a = c.integer(i);
    if (a < -rank || a >= rank)
        c.fail(i,
               "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    return a < 0 ? a + rank : a;
}

Value reshape(Call& c) {
    Tensor x = c.tensor(0);
    auto shape = c.ints(1);
    if (!c.has(1)) c.fail(1, "'newshape' is required");
    int64_t known = 1, inferred = 0;
    for (int64_t d : shape) {
        if (d == -1) {
            ++inferred;
            continue;
        }
        if (d < 1)
            c.fail(1, "extents must be positive (or one -1, inferred), not " + std::to_string(d));
        known *= d;
    }
    const int64_t n = elements(staticShape(x));
    if (inferred > 1) c.fail(1, "at most one extent may be -1");
    if ((inferred == 0 && known != n) || (inferred == 1 && n % known != 0))
        c.fail(1, "cannot reshape '" + x.name() + "' " + shapeText(staticShape(x)) + " (" +
                      std::to_string(n) + " elements) to " + shapeText(shape));
    return c.result(transform::reshape(x, shape, c.name(2, "reshape")));
}

Value transpose(Call& c) {
    Tensor x = c.tensor(0);
    std::vector<int64_t> perm;
    if (c.has(1)) {
        perm = c.ints(1);
        const int64_t rank = x.ndim();
        std::vector<bool> seen(size_t(rank), false);
        if (int64_t(perm.size()) != rank)
            c.fail(1, "'axes' has " + std::to_string(perm.size()) + " axes for '" + x.name() +
                          "' of rank " + std::to_string(rank));
        for (auto& p : perm) {
            if (p < -rank || p >= rank) c.fail(1, "axis " + std::to_string(p) + " is out of range");
            if (p < 0) p += rank;
            if (seen[size_t(p)]) c.fail(1, "axis " + std::to_string(p) + " is given twice");
            seen[size_t(p)] = true;
        }
    }
    return c.result(transform::transpose(x, perm, c.name(2, "transpose")));
}

Value concatenate(Call& c) {
    auto xs = c.tensors(0);
    const int64_t rank = xs[0].ndim();
    const int64_t axis = axisOf(c, 1, rank, 0);
    auto first = staticShape(xs[0]);
    for (size_t k = 1; k < xs.size(); ++k) {
        auto s = staticShape(xs[k]);
        bool fits = s.size() == first.size() && xs[k]->dtype == xs[0]->dtype;
        for (size_t d = 0; fits && d < s.size(); ++d)
            fits = int64_t(d) == axis || s[d] == first[d];
        if (!fits)
            c.fail(0, "'" + xs[k].name() + "' " + xs[k]->dtype.str() + shapeText(s) +
                          " cannot be joined to '" + xs[0].name() + "' " + xs[0]->dtype.str() +
                          shapeText(first) + " along axis " + std::to_string(axis));
    }
    return c.result(transform::concatenate(xs, axis, c.name(2, "concatenate")));
}

/// TVM's split: a number of equal sections, or the indices to split at.
Value split(Call& c) {
    Tensor x = c.tensor(0);
    const int64_t axis = axisOf(c, 2, x.ndim(), 0);
    const int64_t extent = staticShape(x)[size_t(axis)];
    std::vector<int64_t> sizes;
    if (!c.args.value(1).isSequence()) {
        const int64_t sections = c.integer(1);
        if (sections < 1 || extent % sections != 0)
            c.fail(1, std::to_string(sections) + " sections do not divide axis " +
                          std::to_string(axis) + " (" + std::to_string(extent) + ")");
        sizes.assign(size_t(sections), extent / sections);
    } else {
        int64_t at = 0;
        for (int64_t index : c.ints(1)) {
            if (index < at || index > extent)
                c.fail(1, "the split indices must increase within [0, " + std::to_string(extent) +
                              "]");
            sizes.push_back(index - at);
            at = index;
        }
        sizes.push_back(extent - at);
        if (std::find(sizes.begin(), sizes.end(), 0) != sizes.end())
            c.fail(1, "a part would be empty (the indices must increase strictly within (0, " +
                          std::to_string(extent) + "))");
    }
    return c.results(transform::split(x, sizes, axis, c.name(3, "split")));
}

Value stridedSlice(Call& c) {
    Tensor x = c.tensor(0);
    transform::SliceParams p;
    p.starts = c.ints(1);
    p.ends = c.ints(2);
    p.steps = c.ints(3);
    p.axes = c.ints(4);
    if (p.ends.size() != p.starts.size())
        c.fail(2, "'end' has " + std::to_string(p.ends.size()) + " values, 'begin' " +
                      std::to_string(p.starts.size()));
    if (!p.steps.empty() && p.steps.size() != p.starts.size())
        c.fail(3, "'strides' needs one value per sliced axis (" + std::to_string(p.starts.size()) +
                      ")");
    for (int64_t s : p.steps)
        if (s == 0) c.fail(3, "a stride of 0 is not allowed");
    if (!p.axes.empty() && p.axes.size() != p.starts.size())
        c.fail(4,
               "'axes' needs one value per sliced axis (" + std::to_string(p.starts.size()) + ")");
    for (int64_t a : p.axes)
        if (a < -x.ndim() || a >= x.ndim())
            c.fail(4, "axis " + std::to_string(a) + " is out of range");
    if (p.axes.empty() && int64_t(p.starts.size()) > x.ndim())
        c.fail(1, "'begin' has more values than '" + x.name() + "' has axes");
    return c.result(transform::stridedSlice(x, p, c.name(5, "strided_slice")));
}

Value take(Call& c) {
    Tensor data = c.tensor(0);
    Tensor indices;
    if (c.args.value(1).isInt())
        indices = literalTensor({}, tir::makeConst(DataType::int64(), c.integer(1)), "take_index");
    else
        indices = c.tensor(1);
    if (!indices->dtype.isIntOrUInt() || indices->dtype.isBool())
        c.fail(1, "'indices' must be an int or a tensor of integers, not " + indices->dtype.str());
    const std::string name = c.name(3, "take");
    if (!c.has(2)) // TVM: no axis takes from the flattened data
        return c.result(
            transform::gather(transform::reshape(data, {-1}, name + "_flat"), indices, 0, name));
    return c.result(transform::gather(data, indices, axisOf(c, 2, data.ndim(), 0), name));
}

Value pad(Call& c) {
    Tensor x = c.tensor(0);
    const size_t rank = size_t(x.ndim());
    transform::PadParams p;
    p.before = c.nonNegativeInts(1);
    p.after = c.has(2) ? c.nonNegativeInts(2) : p.before;
    if (p.before.size() != rank)
        c.fail(1, "'pad_before' needs one value per axis (" + std::to_string(rank) + ")");
    if (p.after.size() != rank)
        c.fail(2, "'pad_after' needs one value per axis (" + std::to_string(rank) + ")");
    if (c.has(3)) p.value = c.number(3);
    if (c.has(4)) p.mode = c.choice(4, {"constant", "reflect", "edge", "wrap"});
    return c.result(transform::pad(x, p, {}, c.name(5, "pad")));
}

Value expandDims(Call& c) {
    Tensor x = c.tensor(0);
    auto shape = staticShape(x);
    const int64_t rank = int64_t(shape.size());
    int64_t axis = c.integer(1);
    if (axis < -rank - 1 || axis > rank)
        c.fail(1, "axis " + std::to_string(axis) + " is out of range");
    if (axis < 0) axis += rank + 1;
    const int64_t count = c.has(2) ? c.integer(2) : 1;
    if (count < 0) c.fail(2, "'num_newaxis' must not be negative");
    shape.insert(shape.begin() + axis, size_t(count), 1);
    return c.result(transform::reshape(x, shape, c.name(3, "expand_dims")));
}

Value squeeze(Call& c) {
    Tensor x = c.tensor(0);
    const auto shape = staticShape(x);
    std::vector<bool> drop(shape.size(), false);
    if (c.has(1)) {
        for (int64_t a : c.ints(1)) {
            if (a < -x.ndim() || a >= x.ndim())
                c.fail(1, "axis " + std::to_string(a) + " is out of range");
            const size_t d = size_t(a < 0 ? a + x.ndim() : a);
            if (shape[d] != 1)
                c.fail(1, "axis " + std::to_string(a) + " has extent " + std::to_string(shape[d]) +
                              ", not 1");
            drop[d] = true;
        }
    } else {
        for (size_t d = 0; d < shape.size(); ++d)
            drop[d] = shape[d] == 1;
    }
    std::vector<int64_t> out;
    for (size_t d = 0; d < shape.size(); ++d)
        if (!drop[d]) out.push_back(shape[d]);
    return c.result(transform::reshape(x, out, c.name(2, "squeeze")));
}

Value flatten(Call& c) {
    Tensor x = c.tensor(0);
    const auto shape = staticShape(x);
    if (shape.empty()) c.fail(0, "'data' must have at least one axis");
    return c.result(transform::reshape(
        x, {shape[0], elements(shape) / std::max<int64_t>(shape[0], 1)}, c.name(1, "flatten")));
}

Value blockReorder(Call& c, bool toSpace) {
    Tensor x = c.tensor(0);
    if (x.ndim() != 4) c.fail(0, "'data' must be 4-d (N, C, H, W)");
    const int64_t b = c.integer(1);
    if (b < 1) c.fail(1, "'block_size' must be at least 1, not " + std::to_string(b));
    const auto s = staticShape(x);
    if (toSpace) {
        if (s[1] % (b * b) != 0)
            c.fail(1,
                   "the " + std::to_string(s[1]) + " channels are not a multiple of block_size^2");
        const std::string mode = c.has(2) ? c.choice(2, {"DCR", "CRD"}) : "DCR";
        return c.result(transform::depthToSpace(x, b, mode, c.name(3, "depth_to_space")));
    }
    if (s[2] % b != 0 || s[3] % b != 0)
        c.fail(1, "the spatial extents are not multiples of block_size");
    return c.result(transform::spaceToDepth(x, b, c.name(2, "space_to_depth")));
}

} // namespace

void addTransformBindings(std::vector<Binding>& out) {
    out.push_back({"topi.reshape",
                   {{"a"}, {"newshape"}, {"name", "\"reshape\""}},
                   "a with the same elements in newshape (one extent may be -1)",
                   reshape});
    out.push_back({"topi.transpose",
                   {{"a"}, {"axes", "None"}, {"name", "\"transpose\""}},
                   "axis k of the result is axis axes[k] of a (None: reversed)",
                   transpose});
    out.push_back({"topi.concatenate",
                   {{"a_tuple"}, {"axis", "0"}, {"name", "\"concatenate\""}},
                   "the tensors joined along axis",
                   concatenate});
    out.push_back({"topi.split",
                   {{"ary"}, {"indices_or_sections"}, {"axis", "0"}, {"name", "\"split\""}},
                   "a tuple of parts: a number of equal sections, or the indices to split at",
                   split});
    out.push_back({"topi.strided_slice",
                   {{"a"},
                    {"begin"},
                    {"end"},
                    {"strides", "None"},
                    {"axes", "None"},
                    {"name", "\"strided_slice\""}},
                   "numpy slicing: begin/end/strides per sliced axis (negative: from the end)",
                   stridedSlice});
    out.push_back(
        {"topi.take",
         {{"a"}, {"indices"}, {"axis", "None"}, {"name", "\"take\""}},
         "a[..., indices, ...] along axis (None: of the flattened a); indices are clamped",
         take});
    out.push_back({"topi.broadcast_to",
                   {{"data"}, {"shape"}, {"name", "\"broadcast_to\""}},
                   "data broadcast to shape",
                   [](Call& c) {
                       Tensor x = c.tensor(0);
                       auto shape = c.positiveInts(1);
                       try {
                           broadcastShape(staticShape(x), shape);
                       } catch (const CompileError& e) {
                           c.fail(1, e.diagnostic().message);
                       }
                       return c.result(transform::broadcastTo(x, shape, c.name(2, "broadcast_to")));
                   }});
    out.push_back({"topi.tile",
                   {{"a"}, {"reps"}, {"name", "\"tile\""}},
                   "a repeated reps[d] times along axis d",
                   [](Call& c) {
                       Tensor x = c.tensor(0);
                       auto reps = c.positiveInts(1);
                       if (int64_t(reps.size()) != x.ndim())
                           c.fail(1, "'reps' needs one value per axis (" +
                                         std::to_string(x.ndim()) + ")");
                       return c.result(transform::tile(x, reps, c.name(2, "tile")));
                   }});
    out.push_back({"topi.expand_dims",
                   {{"a"}, {"axis"}, {"num_newaxis", "1"}, {"name", "\"expand_dims\""}},
                   "a with num_newaxis axes of extent 1 inserted at axis",
                   expandDims});
    out.push_back({"topi.squeeze",
                   {{"a"}, {"axis", "None"}, {"name", "\"squeeze\""}},
                   "a without the axes of extent 1 (or those named)",
                   squeeze});
    out.push_back({"topi.full",
                   {{"shape"}, {"dtype", "\"float32\""}, {"fill_value", "0"}, {"name", "\"full\""}},
                   "a tensor of shape filled with fill_value",
                   [](Call& c) {
                       auto shape = c.positiveInts(0);
                       const DataType t = c.has(1) ? c.dtype(1) : DataType::float32();
                       const double v = c.has(2) ? c.number(2) : 0.0;
                       return c.result(transform::full(shape, t, v, c.name(3, "full")));
                   }});
    out.push_back({"topi.nn.pad",
                   {{"data"},
                    {"pad_before"},
                    {"pad_after", "None"},
                    {"pad_value", "0.0"},
                    {"pad_mode", "\"constant\""},
                    {"name", "\"pad\""}},
                   "data padded on every axis (pad_after defaults to pad_before; modes constant, "
                   "reflect, edge, wrap)",
                   pad});
    out.push_back(
        {"topi.nn.flatten", {{"data"}, {"name", "\"flatten\""}}, "[N, ...] as [N, rest]", flatten});
    out.push_back({"topi.nn.depth_to_space",
                   {{"data"}, {"block_size"}, {"mode", "\"DCR\""}, {"name", "\"depth_to_space\""}},
                   "[N, C, H, W] to [N, C / b^2, H * b, W * b] (mode DCR or CRD)",
                   [](Call& c) { return blockReorder(c, true); }});
    out.push_back({"topi.nn.space_to_depth",
                   {{"data"}, {"block_size"}, {"name", "\"space_to_depth\""}},
                   "[N, C, H, W] to [N, C * b^2, H / b, W / b]",
                   [](Call& c) { return blockReorder(c, false); }});
}

} // namespace tessel::topi::script
