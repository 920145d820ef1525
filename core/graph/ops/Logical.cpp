/// \file
/// Comparisons (Equal, Less, Greater, LessOrEqual, GreaterOrEqual) and
/// boolean logic (Not, And, Or, Xor): broadcasting operators with bool
/// outputs, all of which evaluate on constants.
#include "graph/ops/EvalHelpers.h"
#include "graph/ops/OpHelpers.h"

namespace tessel::graph::ops {

namespace {

Types inferCompare(const InferContext& ctx) {
    requireSameDtype(ctx, 0, 1);
    return {TensorType(DataType::boolean(), broadcastInputs(ctx))};
}

Types inferLogical(const InferContext& ctx) {
    for (int i = 0; i < ctx.numInputs(); ++i)
        if (!ctx.input(i).dtype.isBool())
            ctx.fail("input " + std::to_string(i) + " " + ctx.input(i).str() +
                     " must be a bool tensor");
    return {TensorType(DataType::boolean(), broadcastInputs(ctx))};
}

/// A comparison of two broadcast inputs of type T: 0/1 bytes.
template <class T, class F>
std::vector<uint8_t> compareInputs(const EvalContext& e, const Shape& out, F&& f) {
    const auto a = load<T>(e.input(0)), b = load<T>(e.input(1));
    const auto ia = broadcastIndex(e.input(0).shape, out),
               ib = broadcastIndex(e.input(1).shape, out);
    std::vector<uint8_t> r(ia.size());
    for (size_t k = 0; k < r.size(); ++k)
        r[k] = f(a[static_cast<size_t>(ia[k])], b[static_cast<size_t>(ib[k])]) ? 1 : 0;
    return r;
}

/// A comparison f(a, b) of two broadcast inputs, in their element type.
template <class F> EvalFn compareEval(F f) {
    return [f](const EvalContext& e) -> EvalResult {
        const Shape& shape = e.output().shape;
        EvalResult result;
        dispatch(e.input(0).dtype, true, [&](auto tag) {
            using T = decltype(tag);
            result = one(store(DataType::boolean(), shape, compareInputs<T>(e, shape, f)));
        });
        return result;
    };
}

/// Logic f(a, b) on bools (stored as 0/1 bytes), folded over the broadcast inputs.
template <class F> EvalFn logicEval(F f) {
    return [f](const EvalContext& e) -> EvalResult {
        const Shape& shape = e.output().shape;
        return one(store(DataType::boolean(), shape,
                         foldInputs<uint8_t>(e, shape, [&](uint8_t a, uint8_t b) {
                             return static_cast<uint8_t>(f(a != 0, b != 0));
                         })));
    };
}

EvalResult evalNot(const EvalContext& e) {
    std::vector<uint8_t> v = load<uint8_t>(e.input(0));
    for (auto& x : v)
        x = x ? 0 : 1;
    return one(store(DataType::boolean(), e.output().shape, v));
}

} // namespace

void registerLogicalOps(OpRegistry& r) {
    using P = OpPattern;
    r.add(withEval(
        op("Equal", "A == B with numpy broadcasting (bool)", P::Broadcast, 2, 2, inferCompare),
        compareEval([](auto a, auto b) { return a == b; })));
    r.add(withEval(
        op("Less", "A < B with numpy broadcasting (bool)", P::Broadcast, 2, 2, inferCompare),
        compareEval([](auto a, auto b) { return a < b; })));
    r.add(withEval(
        op("Greater", "A > B with numpy broadcasting (bool)", P::Broadcast, 2, 2, inferCompare),
        compareEval([](auto a, auto b) { return a > b; })));
    r.add(withEval(op("LessOrEqual", "A <= B with numpy broadcasting (bool)", P::Broadcast, 2, 2,
                      inferCompare),
                   compareEval([](auto a, auto b) { return a <= b; })));
    r.add(withEval(op("GreaterOrEqual", "A >= B with numpy broadcasting (bool)", P::Broadcast, 2, 2,
                      inferCompare),
                   compareEval([](auto a, auto b) { return a >= b; })));
    r.add(withEval(op("Not", "logical not of a bool tensor", P::ElementWise, 1, 1, inferLogical),
                   evalNot));
    r.add(withEval(op("And", "logical and, broadcast", P::Broadcast, 2, 2, inferLogical),
                   logicEval([](bool a, bool b) { return a && b; })));
    r.add(withEval(op("Or", "logical or, broadcast", P::Broadcast, 2, 2, inferLogical),
                   logicEval([](bool a, bool b) { return a || b; })));
    r.add(withEval(op("Xor", "logical exclusive or, broadcast", P::Broadcast, 2, 2, inferLogical),
                   logicEval([](bool a, bool b) { return a != b; })));
}

} // namespace tessel::graph::ops
