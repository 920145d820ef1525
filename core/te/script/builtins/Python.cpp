// Python's builtins: len range min max int float str repr bool abs tuple list print.

#include "te/script/builtins/Builtins.h"
#include "te/script/builtins/Helpers.h"

#include "te/Suggest.h"
#include "tir/IROperators.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tessel::te::script {

namespace {

constexpr int64_t kMaxRange = 1'000'000;

Value len(Interpreter& in, const Value&, const CallArgs& c) {
    BoundArgs a(in, "len", c, {{"obj", true}});
    const Value& v = a.value(0);
    if (v.isSequence()) return Value::integer(int64_t(v.items().size()));
    if (v.is(Value::Kind::String)) return Value::integer(int64_t(v.asString().size()));
    in.fail(a.loc(0), "object of type '" + typeName(v) + "' has no len()");
}

Value range(Interpreter& in, const Value&, const CallArgs& c) {
    BoundArgs a(in, "range", c, {{"start", true}, {"stop"}, {"step"}});
    int64_t start = 0, stop = a.integer(0), step = 1;
    if (a.has(1)) {
        start = stop;
        stop = a.integer(1);
    }
    if (a.has(2)) step = a.integer(2);
    if (step == 0) in.fail(a.loc(2), "range() arg 3 must not be zero");
    Value::Items v;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        if (int64_t(v.size()) >= kMaxRange)
            in.fail(c.loc, "range() of more than " + std::to_string(kMaxRange) +
                               " elements is not supported");
        v.push_back(Value::integer(i));
        if (__builtin_add_overflow(i, step, &i)) break;
        i -= step;
    }
    return Value::list(std::move(v));
}

NativeFunction minMax(bool isMax) {
    return [isMax](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        const char* fname = isMax ? "max" : "min";
        noKeywords(in, fname, c);
        auto args = spread(c.positional);
        if (args.empty()) in.fail(c.loc, std::string(fname) + "() arg is an empty sequence");
        Value best = args[0].get();
        for (size_t i = 1; i < args.size(); ++i) {
            const Value& v = args[i].get();
            if (Interpreter::isExprLike(best) || Interpreter::isExprLike(v)) {
                auto x = in.exprOf(best), y = in.exprOf(v);
                if (!x || !y)
                    in.fail(args[i].loc, std::string(fname) + "(): cannot compare " +
                                             typeName(best) + " and " + typeName(v));
                best = Value(isMax ? tir::max(*x, *y) : tir::min(*x, *y));
                continue;
            }
            Value cmp = in.compare(isMax ? CompareOp::Gt : CompareOp::Lt, v, best, args[i].loc);
            if (cmp.asBool()) best = v;
        }
        return best;
    };
}

Value toInt(Interpreter& in, const Value&, const CallArgs& c) {
    BoundArgs a(in, "int", c, {{"x"}});
    if (!a.has(0)) return Value::integer(0);
    const Value& v = a.value(0);
    if (v.isInt()) return Value::integer(v.asInt());
    if (v.is(Value::Kind::Float)) {
        double d = v.asFloat();
        if (!std::isfinite(d) || std::fabs(d) >= 9.2e18)
            in.fail(a.loc(0), "int(): cannot convert " + formatFloat(d) + " to an int");
        return Value::integer(int64_t(d));
    }
    if (v.is(Value::Kind::String)) {
        std::string s = v.asString();
        s.erase(0, s.find_first_not_of(" \t\n"));
        s.erase(s.find_last_not_of(" \t\n") + 1);
        char* end = nullptr;
        errno = 0;
        long long r = std::strtoll(s.c_str(), &end, 10);
        if (s.empty() || *end || errno) in.fail(a.loc(0), "invalid literal for int(): " + repr(v));
        return Value::integer(r);
    }
    if (v.is(Value::Kind::Expr))
        if (auto k = tir::asConstInt(v.asExpr())) return Value::integer(*k);
    a.typeError(0, "a number, a string or a constant");
}

Value toFloat(Interpreter& in, const Value&, const CallArgs& c) {
    BoundArgs a(in, "float", c, {{"x"}});
    if (!a.has(0)) return Value::real(0);
    const Value& v = a.value(0);
    if (v.isNumber()) return Value::real(v.asFloat());
    if (v.is(Value::Kind::String)) {
        char* end = nullptr;
        double d = std::strtod(v.asString().c_str(), &end);
        if (v.asString().empty() || *end)
            in.fail(a.loc(0), "could not convert string to float: " + repr(v));
        return Value::real(d);
    }
    if (v.is(Value::Kind::Expr)) {
        if (auto k = tir::asConstFloat(v.asExpr())) return Value::real(*k);
        if (auto k = tir::asConstInt(v.asExpr())) return Value::real(double(*k));
    }
    a.typeError(0, "a number, a string or a constant");
}

Value absolute(Interpreter& in, const Value&, const CallArgs& c) {
    BoundArgs a(in, "abs", c, {{"x", true}});
    const Value& v = a.value(0);
    if (v.isInt()) {
        if (v.asInt() == std::numeric_limits<int64_t>::min()) in.fail(c.loc, "integer overflow");
        return Value::integer(std::llabs(v.asInt()));
    }
    if (v.is(Value::Kind::Float)) return Value::real(std::fabs(v.asFloat()));
    return Value(tir::call(tir::Intrinsic::Abs, {a.expr(0)}));
}

NativeFunction sequence(bool asList) {
    return [asList](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, asList ? "list" : "tuple", c, {{"iterable"}});
        if (!a.has(0)) return items({}, asList);
        const Value& v = a.value(0);
        if (v.isSequence()) return items(v.items(), asList);
        if (v.is(Value::Kind::String)) {
            Value::Items chars;
            for (char ch : v.asString())
                chars.push_back(Value::string(std::string(1, ch)));
            return items(std::move(chars), asList);
        }
        a.typeError(0, "a tuple, a list or a string");
    };
}

NativeFunction print(std::shared_ptr<ScriptRecorder> rec) {
    return [rec](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        std::string sep = " ", end = "\n";
        for (auto& [k, v] : c.keywords) {
            if (k != "sep" && k != "end" && k != "flush")
                in.fail(v.loc, "print() got an unexpected keyword argument '" + k + "'" +
                                   didYouMean(k, {"sep", "end"}));
            if (k == "flush") continue;
            if (!v.get().is(Value::Kind::String) && !v.get().isNone())
                in.fail(v.loc, "print(): '" + k + "' must be a string, not " + typeName(v.get()));
            if (v.get().is(Value::Kind::String)) (k == "sep" ? sep : end) = v.get().asString();
        }
        std::string text;
        for (size_t i = 0; i < c.positional.size(); ++i)
            text += (i ? sep : "") + str(c.positional[i].get());
        rec->print(text + end);
        return none();
    };
}

} // namespace

void installPython(BuiltinTable& t) {
    t.function("len", len);
    t.function("range", range);
    t.function("min", minMax(false));
    t.function("max", minMax(true));
    t.function("int", toInt);
    t.function("float", toFloat);
    t.function("str", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "str", c, {{"object"}});
        return Value::string(a.has(0) ? str(a.value(0)) : "");
    });
    t.function("repr", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "repr", c, {{"object", true}});
        return Value::string(repr(a.value(0)));
    });
    t.function("bool", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
        BoundArgs a(in, "bool", c, {{"x"}});
        return Value::boolean(a.has(0) && in.truthy(a.value(0), a.loc(0)));
    });
    t.function("abs", absolute);
    t.function("tuple", sequence(false));
    t.function("list", sequence(true));
    t.function("print", print(t.recorder()));
}

} // namespace tessel::te::script
