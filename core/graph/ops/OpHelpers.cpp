#include "graph/ops/OpHelpers.h"

#include "ir/Diagnostic.h"

namespace tessel::graph::ops {

// --- building records ---------------------------------------------------------------

AttrSchema attrInt(std::string name, std::optional<int64_t> def, std::string doc) {
    return {std::move(name), AttrKind::Int, def ? std::optional<AttrValue>(*def) : std::nullopt,
            std::move(doc)};
}
AttrSchema attrFloat(std::string name, double def, std::string doc) {
    return {std::move(name), AttrKind::Float, AttrValue(def), std::move(doc)};
}
AttrSchema attrString(std::string name, std::string def, std::string doc) {
    return {std::move(name), AttrKind::String, AttrValue(std::move(def)), std::move(doc)};
}
AttrSchema attrInts(std::string name, std::string doc) {
    return {std::move(name), AttrKind::Ints, std::nullopt, std::move(doc)};
}

OpInfo op(std::string name, std::string doc, OpPattern pattern, int minIn, int maxIn, InferFn infer,
          std::vector<AttrSchema> attrs, int minOut, int maxOut) {
    OpInfo i;
    i.name = std::move(name);
    i.doc = std::move(doc);
    i.pattern = pattern;
    i.minInputs = minIn;
    i.maxInputs = maxIn;
    i.minOutputs = minOut;
    i.maxOutputs = maxOut;
    i.infer = std::move(infer);
    i.attributes = std::move(attrs);
    // Element by element on whatever layout the inputs share.
    if (pattern <= OpPattern::Broadcast) i.layouts = LayoutPolicy::Elementwise;
    return i;
}

OpInfo withEval(OpInfo info, EvalFn eval) {
    info.evaluate = std::move(eval);
    return info;
}

// --- text for messages --------------------------------------------------------------

std::string shapeStr(const Shape& s) {
    return TensorType(DataType::float32(), s).str().substr(7);
}

std::string listStr(const Shape& v) {
    return attrValueStr(AttrValue(v));
}

// --- checks and helpers for inference functions ---------------------------------

int64_t ceilDiv(int64_t a, int64_t b) {
    return a >= 0 ? a / b + (a % b != 0 ? 1 : 0) : (a + b - 1) / b;
}

int64_t productOf(const Shape& s, size_t lo, size_t hi) {
    int64_t p = 1;
    for (size_t i = lo; i < hi; ++i) {
        if (s[i] < 0) return -1;
        p = saturatingMul(p, s[i]);
    }
    return p;
}

void requireSameDtype(const InferContext& ctx, int a, int b) {
    if (ctx.input(a).dtype != ctx.input(b).dtype)
        ctx.fail("input " + std::to_string(b) + " has type " + ctx.input(b).dtype.str() +
                 ", input " + std::to_string(a) + " has " + ctx.input(a).dtype.str());
}

void requireFloat(const InferContext& ctx, int i) {
    if (!ctx.input(i).dtype.isFloat())
        ctx.fail("input " + std::to_string(i) + " has type " + ctx.input(i).dtype.str() +
                 ", expected a floating-point type");
}

void requireMinRank(const InferContext& ctx, int i, int rank, const char* what) {
    if (ctx.input(i).rank() < rank)
        ctx.fail(std::string(what) + " has rank " + std::to_string(ctx.input(i).rank()) + " (" +
                 ctx.input(i).str() + "), expected at least " + std::to_string(rank));
}

std::vector<int64_t> intsOfSize(const InferContext& ctx, const std::string& attr, size_t n,
                                int64_t fill) {
    std::vector<int64_t> v = ctx.attrs().getInts(attr, std::vector<int64_t>(n, fill));
    if (v.size() != n)
        ctx.fail("attribute '" + attr + "' has " + std::to_string(v.size()) + " values, expected " +
                 std::to_string(n));
    return v;
}

std::optional<std::vector<int64_t>> constInts(const InferContext& ctx, int i, const char* what) {
    if (!ctx.hasInput(i)) return std::nullopt;
    Ref<Constant> c = ctx.constantInput(i);
    if (!c) return std::nullopt;
    if (!c->dtype.isIntOrUInt())
        ctx.fail(std::string(what) + " " + c->type().str() + " must be an integer tensor");
    if (c->shape.size() > 1) ctx.fail(std::string(what) + " " + c->type().str() + " must be 1-D");
    return c->toInts();
}

std::optional<std::vector<double>> constFloats(const InferContext& ctx, int i) {
    Ref<Constant> c = ctx.constantInput(i);
    if (!c || (c->dtype.isFloat() && c->dtype.bits() == 16)) return std::nullopt;
    return c->toDoubles();
}

int64_t vectorLength(const InferContext& ctx, int i, const char* what) {
    const TensorType& t = ctx.input(i);
    if (t.rank() != 1) ctx.fail(std::string(what) + " " + t.str() + " must be 1-D");
    return t.shape[0];
}

std::optional<int64_t> runtimeAxesCount(const InferContext& ctx) {
    if (!ctx.hasInput(1) || ctx.constantInput(1)) return std::nullopt;
    const int64_t n = vectorLength(ctx, 1, "axes");
    if (n < 0)
        ctx.fail("the axes input " + ctx.input(1).str() +
                 " must be a constant or have a known length");
    return n;
}

std::optional<std::vector<int64_t>> axesOf(const InferContext& ctx) {
    if (ctx.hasInput(1)) {
        auto axes = constInts(ctx, 1, "axes");
        if (!axes) ctx.fail("the axes input must be a constant");
        return axes;
    }
    if (ctx.attrs().has("axes")) return ctx.attrs().getInts("axes", {});
    return std::nullopt;
}

Shape broadcastInputs(const InferContext& ctx) {
    Shape out = ctx.input(0).shape;
    for (int i = 1; i < ctx.numInputs(); ++i) {
        auto bc = broadcastShapes(out, ctx.input(i).shape);
        if (!bc) {
            std::string list;
            for (int j = 0; j < ctx.numInputs(); ++j)
                list += (j ? " and " : "") + ctx.input(j).str();
            ctx.fail("shapes " + list + " do not broadcast");
        }
        out = *bc;
    }
    return out;
}

Types inferBroadcast(const InferContext& ctx, bool sameDtype) {
    if (sameDtype)
        for (int i = 1; i < ctx.numInputs(); ++i)
            requireSameDtype(ctx, 0, i);
    return {TensorType(ctx.input(0).dtype, broadcastInputs(ctx))};
}

Types inferUnary(const InferContext& ctx) {
    return {ctx.input(0)};
}

Types inferFloatUnary(const InferContext& ctx) {
    requireFloat(ctx, 0);
    return {ctx.input(0)};
}

} // namespace tessel::graph::ops
