/// \file
/// The operators that make tensors from attributes and shapes rather than
/// from input elements: Constant, Shape, Size, ConstantOfShape and Range.
/// All evaluate on constants; Shape and Size also from their input's static
/// type alone, which is how fold-constant removes the shape sub-graphs of
/// exported models once input shapes are bound. Constant has no kernel
/// compute: it is fold-only.
#include "graph/ConstantEval.h"
#include "graph/ops/EvalHelpers.h"
#include "graph/ops/OpHelpers.h"

#include <algorithm>
#include <cmath>

namespace tessel::graph::ops {

namespace {

// --- inference ----------------------------------------------------------------------

Types inferConstantOp(const InferContext& ctx) {
    const Attributes& a = ctx.attrs();
    if (a.size() != 1)
        ctx.fail("exactly one value attribute is required (value, value_float, value_ints ...)");
    if (a.has("value")) {
        Ref<Constant> c = a.getTensor("value");
        if (!c) ctx.fail("attribute 'value' holds no tensor");
        return {c->type()};
    }
    if (a.has("value_float")) return {TensorType(DataType::float32(), {})};
    if (a.has("value_int")) return {TensorType(DataType::int64(), {})};
    if (a.has("value_floats"))
        return {TensorType(DataType::float32(),
                           {static_cast<int64_t>(a.getFloats("value_floats", {}).size())})};
    if (a.has("value_ints"))
        return {TensorType(DataType::int64(),
                           {static_cast<int64_t>(a.getInts("value_ints", {}).size())})};
    ctx.fail("unsupported value attribute '" + a.entries()[0].first + "'");
}

Types inferShape(const InferContext& ctx) {
    const int64_t r = ctx.input(0).rank();
    auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t(0), r); };
    const int64_t start = clamp(ctx.attrs().getInt("start", 0));
    const int64_t end = clamp(ctx.attrs().getInt("end", r));
    return {TensorType(DataType::int64(), {std::max(end - start, int64_t(0))})};
}

Types inferSize(const InferContext&) {
    return {TensorType(DataType::int64(), {})};
}

Types inferConstantOfShape(const InferContext& ctx) {
    Ref<Constant> value = ctx.attrs().getTensor("value");
    if (value && value->numElements() != 1)
        ctx.fail("attribute 'value' " + value->type().str() + " must hold exactly one element");
    const DataType dtype = value ? value->dtype : DataType::float32();
    const int64_t len = vectorLength(ctx, 0, "shape");
    if (!ctx.input(0).dtype.isIntOrUInt())
        ctx.fail("shape " + ctx.input(0).str() + " must be an integer tensor");
    auto shape = constInts(ctx, 0, "shape");
    if (!shape) {
        if (len < 0)
            ctx.fail("the shape input " + ctx.input(0).str() +
                     " must be a constant or have a known length");
        return {TensorType(dtype, Shape(static_cast<size_t>(len), -1))};
    }
    for (int64_t d : *shape)
        if (d < 0) ctx.fail("shape " + listStr(*shape) + " has a negative dimension");
    return {TensorType(dtype, *shape)};
}

Types inferRange(const InferContext& ctx) {
    static const char* names[] = {"start", "limit", "delta"};
    for (int i = 0; i < 3; ++i) {
        if (ctx.input(i).numElements() != 1 || ctx.input(i).rank() > 1)
            ctx.fail(std::string(names[i]) + " " + ctx.input(i).str() + " must be a scalar");
        if (i) requireSameDtype(ctx, 0, i);
    }
    const DataType t = ctx.input(0).dtype;
    if (!t.isFloat() && !t.isInt())
        ctx.fail("type " + t.str() + " is not supported (float, double, int16, int32, int64)");
    Ref<Constant> start = ctx.constantInput(0), limit = ctx.constantInput(1),
                  delta = ctx.constantInput(2);
    if (!start || !limit || !delta || (t.isFloat() && t.bits() == 16)) return {TensorType(t, {-1})};
    int64_t n = 0;
    if (t.isFloat()) {
        const double s = start->toDoubles()[0], l = limit->toDoubles()[0],
                     d = delta->toDoubles()[0];
        if (d == 0) ctx.fail("delta is 0");
        // ceil((limit - start) / delta), computed in the tensor's own precision.
        const double q =
            t.bits() == 32
                ? static_cast<double>(static_cast<float>(
                      (static_cast<float>(l) - static_cast<float>(s)) / static_cast<float>(d)))
                : (l - s) / d;
        if (!std::isfinite(q) || q > 9.0e18) ctx.fail("the range has too many elements");
        n = static_cast<int64_t>(std::ceil(q));
    } else {
        const int64_t s = start->toInts()[0], l = limit->toInts()[0], d = delta->toInts()[0];
        if (d == 0) ctx.fail("delta is 0");
        if (d > 0 && l > s) n = (l - s + d - 1) / d;
        if (d < 0 && l < s) n = (s - l - d - 1) / -d;
    }
    return {TensorType(t, {std::max(n, int64_t(0))})};
}

// --- constant evaluation ------------------------------------------------------------

EvalResult evalConstantOp(const EvalContext& e) {
    const auto& [attr, value] = e.attrs().entries().at(0);
    Ref<Constant> c;
    if (attr == "value")
        c = std::get<Ref<Constant>>(value);
    else if (attr == "value_float")
        c = Constant::fromFloats({}, {e.attrs().getFloat(attr, 0)});
    else if (attr == "value_int")
        c = Constant::fromInts({}, {e.attrs().getInt(attr, 0)});
    else if (attr == "value_floats")
        c = Constant::fromFloats(e.output().shape, e.attrs().getFloats(attr, {}));
    else if (attr == "value_ints")
        c = Constant::fromInts(e.output().shape, e.attrs().getInts(attr, {}));
    else
        return std::nullopt;
    return one(c);
}

EvalResult evalConstantOfShape(const EvalContext& e) {
    Ref<Constant> value = e.attrs().getTensor("value");
    if (!value) value = Constant::zeros(DataType::float32(), {1});
    const std::vector<int64_t> index(static_cast<size_t>(e.output().numElements()), 0);
    return one(gatherBytes(*value, e.output().dtype, e.output().shape, index));
}

EvalResult evalRange(const EvalContext& e) {
    const DataType t = e.output().dtype;
    const int64_t n = e.output().shape[0];
    EvalResult result;
    dispatch(t, false, [&](auto tag) {
        using T = decltype(tag);
        const T start = load<T>(e.input(0))[0], delta = load<T>(e.input(2))[0];
        std::vector<T> v(static_cast<size_t>(n));
        // ONNX's definition: output[i] = start + i * delta, in the tensor's type.
        for (size_t i = 0; i < v.size(); ++i)
            v[i] = wrapAdd(start, wrapMul(static_cast<T>(i), delta));
        result = one(store(t, {n}, v));
    });
    return result;
}

std::vector<Ref<Constant>> shapeFromTypes(const Node& node, const std::vector<TensorType>& in) {
    return {shapeConstant(in[0], node.attrs)};
}

std::vector<Ref<Constant>> sizeFromTypes(const Node&, const std::vector<TensorType>& in) {
    return {Constant::fromInts({}, {in[0].numElements()})};
}

/// `info` evaluated from its input types alone by `f`, both when the inputs
/// are constants and when only their types are known.
OpInfo withTypeEval(OpInfo info, TypeEvalFn f) {
    info.evaluate = [f](const EvalContext& e) -> EvalResult {
        std::vector<TensorType> types;
        for (int i = 0; i < e.numInputs(); ++i)
            types.push_back(e.input(i).type());
        return f(e.node(), types);
    };
    info.evaluateFromTypes = std::move(f);
    return info;
}

/// HannWindow, HammingWindow, BlackmanWindow: a 1-D window of `size` (a
/// constant scalar) in output_datatype.
Types inferWindow(const InferContext& ctx) {
    if (ctx.input(0).numElements() != 1 || !ctx.input(0).dtype.isInt())
        ctx.fail("size " + ctx.input(0).str() + " must be an integer scalar");
    const int64_t code = ctx.attrs().getInt("output_datatype", 1);
    auto dtype = dataTypeFromOnnx(code);
    if (!dtype) ctx.fail("unsupported output_datatype " + std::to_string(code));
    int64_t n = -1;
    if (auto c = ctx.constantInput(0)) {
        n = c->toInts()[0];
        if (n < 1) ctx.fail("size " + std::to_string(n) + " must be at least 1");
    }
    return {TensorType(*dtype, {n})};
}

} // namespace

void registerGeneratorOps(OpRegistry& r) {
    using P = OpPattern;
    // The importer makes graph constants of ONNX Constant nodes; a Constant
    // operator that remains (written by hand, or in graph text) has no kernel.
    OpInfo constant = withEval(
        op("Constant", "a constant tensor given by an attribute", P::Opaque, 0, 0, inferConstantOp,
           {{"value", AttrKind::Tensor, std::nullopt, "the tensor"},
            {"value_float", AttrKind::Float, std::nullopt, "a float32 scalar"},
            {"value_floats", AttrKind::Floats, std::nullopt, "a float32 vector"},
            {"value_int", AttrKind::Int, std::nullopt, "an int64 scalar"},
            {"value_ints", AttrKind::Ints, std::nullopt, "an int64 vector"}}),
        evalConstantOp);
    constant.foldOnly = true;
    r.add(std::move(constant));
    // Shape computations (folded away once input shapes are bound).
    r.add(withTypeEval(op("Shape", "the shape of a tensor as an int64 vector (dims start to end)",
                          P::Opaque, 1, 1, inferShape,
                          {attrInt("start", 0, "first dim (opset 15)"),
                           attrInt("end", std::nullopt, "one past the last dim (opset 15)")}),
                       shapeFromTypes));
    r.add(withTypeEval(op("Size", "the number of elements of a tensor, as an int64 scalar",
                          P::Opaque, 1, 1, inferSize),
                       sizeFromTypes));
    r.add(withEval(
        op("ConstantOfShape", "a tensor of a given shape filled with one value", P::Injective, 1, 1,
           inferConstantOfShape,
           {{"value", AttrKind::Tensor, AttrValue(Constant::zeros(DataType::float32(), {1})),
             "the fill value, one element (default float32 0)"}}),
        evalConstantOfShape));
    r.add(withEval(op("Range", "start, start + delta, ... up to (not including) limit",
                      P::Injective, 3, 3, inferRange),
                   evalRange));
    const std::vector<AttrSchema> windowAttrs{
        attrInt("output_datatype", 1, "element type of the window (an ONNX type code)"),
        attrInt("periodic", 1, "1: periodic (for spectra), 0: symmetric"),
    };
    r.add(op("HannWindow", "0.5 - 0.5 cos(2 pi n / N)", P::Injective, 1, 1, inferWindow, windowAttrs));
    r.add(op("HammingWindow", "25/46 - 21/46 cos(2 pi n / N)", P::Injective, 1, 1, inferWindow, windowAttrs));
    r.add(op("BlackmanWindow", "0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)", P::Injective, 1, 1, inferWindow,
             windowAttrs));
}

} // namespace tessel::graph::ops
