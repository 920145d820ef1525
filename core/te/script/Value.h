/// \file
/// The values a TE script computes with.
///
/// Python's scalars (None, bool, int as int64, float, str), tuples and lists,
/// and the TE objects the script builds: expressions (tir::Expr, including
/// variables), iteration variables, ranges, tensors, operations, stages and
/// schedules, and objects of native classes (`cfg`). Functions are either
/// native (the `te` API, builtins, bound methods) or lambdas closed over the
/// scope they were written in. Values are cheap to copy: everything big is
/// shared.
#pragma once

#include "ir/Diagnostic.h"
#include "te/Schedule.h"
#include "te/script/Ast.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tessel::te::script {

class Interpreter;
class Value;
struct Scope;

/// One argument of a call, with the place it was written.
struct CallArg {
    std::shared_ptr<const Value> value;
    SourceLoc loc;
    const Value& get() const { return *value; }
};

/// The arguments of a call: positional (with `*seq` already spread), then
/// keywords in the order written.
struct CallArgs {
    std::vector<CallArg> positional;
    std::vector<std::pair<std::string, CallArg>> keywords;
    /// Where the call is (the method or function name).
    SourceLoc loc;
};

using NativeFunction = std::function<Value(Interpreter&, const Value& self, const CallArgs&)>;

/// A callable: native code or a lambda.
struct FunctionObject {
    /// How messages name it: "te.compute", "split", "<lambda>".
    std::string name;
    NativeFunction native;
    /// The receiver of a bound method (None otherwise).
    std::shared_ptr<const Value> self;
    /// A lambda's syntax (Lambda node) and the scope it was written in
    /// (null at the top level: globals are looked up when it runs).
    AstExprPtr lambda;
    std::shared_ptr<const Scope> closure;
};

/// A module: `te`, `tvm`, `tvm.tir`, `tessel` ...
struct ModuleObject {
    std::string name;
    std::vector<std::pair<std::string, std::shared_ptr<const Value>>> members;
    const Value* find(std::string_view member) const;
};

/// A value the script can pass around but not look into (what tvm.lower and
/// tvm.build return): `message` says why.
struct OpaqueObject {
    std::string typeName;
    std::string message;
    /// For results of tvm.lower / tvm.build: the index of their BuildRequest.
    int buildIndex = -1;
};

/// An object of a native class that is neither a TE object nor a module
/// (`cfg` and its entities, builtins/Config.cpp): attributes read when asked for,
/// methods, and optionally `obj[index]`. State it changes lives behind the
/// closures, so the value itself stays immutable like every other.
struct NativeObject {
    /// How messages and type() name it: "ConfigSpace", "SplitEntity".
    std::string typeName;
    std::vector<std::pair<std::string, std::function<Value()>>> attrs;
    std::vector<std::pair<std::string, NativeFunction>> methods;
    /// `obj[index]`; null when the object cannot be indexed.
    std::function<Value(Interpreter&, const Value& index, SourceLoc indexLoc)> getItem;
    /// What repr() shows; empty: "<typeName>".
    std::string reprText;
};

class Value {
public:
    enum class Kind : uint8_t {
        None,
        Bool,
        Int,
        Float,
        String,
        Tuple,
        List,
        Expr,
        IterVar,
        Range,
        Tensor,
        Operation,
        Stage,
        Schedule,
        Function,
        Module,
        Opaque,
        Object
    };
    using Items = std::vector<Value>;

    Value() = default;
    static Value boolean(bool b) { return Value(Kind::Bool, b); }
    static Value integer(int64_t i) { return Value(Kind::Int, i); }
    static Value real(double d) { return Value(Kind::Float, d); }
    static Value string(std::string s) { return Value(Kind::String, std::move(s)); }
    static Value tuple(Items items) {
        return Value(Kind::Tuple, std::make_shared<const Items>(std::move(items)));
    }
    static Value list(Items items) {
        return Value(Kind::List, std::make_shared<const Items>(std::move(items)));
    }
    // Numbers must say what they are (integer(), real(), boolean()): a bare
    // literal would otherwise quietly become a tir::Expr.
    Value(int) = delete;
    Value(int64_t) = delete;
    Value(double) = delete;
    Value(bool) = delete;
    explicit Value(tir::Expr e) : kind_(Kind::Expr), v_(std::move(e)) {}
    explicit Value(tir::IterVar iv) : kind_(Kind::IterVar), v_(std::move(iv)) {}
    explicit Value(tir::Range r) : kind_(Kind::Range), v_(std::move(r)) {}
    explicit Value(Tensor t) : kind_(Kind::Tensor), v_(std::move(t)) {}
    explicit Value(Operation op) : kind_(Kind::Operation), v_(std::move(op)) {}
    explicit Value(Stage s) : kind_(Kind::Stage), v_(std::move(s)) {}
    explicit Value(Schedule s) : kind_(Kind::Schedule), v_(std::move(s)) {}
    explicit Value(std::shared_ptr<const FunctionObject> f)
        : kind_(Kind::Function), v_(std::move(f)) {}
    explicit Value(std::shared_ptr<const ModuleObject> m) : kind_(Kind::Module), v_(std::move(m)) {}
    explicit Value(std::shared_ptr<const OpaqueObject> o) : kind_(Kind::Opaque), v_(std::move(o)) {}
    explicit Value(std::shared_ptr<const NativeObject> o) : kind_(Kind::Object), v_(std::move(o)) {}

    Kind kind() const { return kind_; }
    bool is(Kind k) const { return kind_ == k; }
    bool isNone() const { return kind_ == Kind::None; }
    bool isSequence() const { return kind_ == Kind::Tuple || kind_ == Kind::List; }
    /// Int or Bool (Python's bool is an int).
    bool isInt() const { return kind_ == Kind::Int || kind_ == Kind::Bool; }
    bool isNumber() const { return isInt() || kind_ == Kind::Float; }

    bool asBool() const { return std::get<bool>(v_); }
    /// The integer of an Int or Bool.
    int64_t asInt() const {
        return kind_ == Kind::Bool ? int64_t(std::get<bool>(v_)) : std::get<int64_t>(v_);
    }
    /// The number of an Int, Bool or Float.
    double asFloat() const { return kind_ == Kind::Float ? std::get<double>(v_) : double(asInt()); }
    const std::string& asString() const { return std::get<std::string>(v_); }
    const Items& items() const { return *std::get<std::shared_ptr<const Items>>(v_); }
    const tir::Expr& asExpr() const { return std::get<tir::Expr>(v_); }
    const tir::IterVar& asIterVar() const { return std::get<tir::IterVar>(v_); }
    const tir::Range& asRange() const { return std::get<tir::Range>(v_); }
    const Tensor& asTensor() const { return std::get<Tensor>(v_); }
    const Operation& asOperation() const { return std::get<Operation>(v_); }
    const Stage& asStage() const { return std::get<Stage>(v_); }
    const Schedule& asSchedule() const { return std::get<Schedule>(v_); }
    const FunctionObject& asFunction() const {
        return *std::get<std::shared_ptr<const FunctionObject>>(v_);
    }
    const ModuleObject& asModule() const {
        return *std::get<std::shared_ptr<const ModuleObject>>(v_);
    }
    const OpaqueObject& asOpaque() const {
        return *std::get<std::shared_ptr<const OpaqueObject>>(v_);
    }
    const NativeObject& asObject() const {
        return *std::get<std::shared_ptr<const NativeObject>>(v_);
    }

private:
    template <class T> Value(Kind k, T v) : kind_(k), v_(std::move(v)) {}

    Kind kind_ = Kind::None;
    std::variant<std::monostate, bool, int64_t, double, std::string, std::shared_ptr<const Items>,
                 tir::Expr, tir::IterVar, tir::Range, Tensor, Operation, Stage, Schedule,
                 std::shared_ptr<const FunctionObject>, std::shared_ptr<const ModuleObject>,
                 std::shared_ptr<const OpaqueObject>, std::shared_ptr<const NativeObject>>
        v_;
};

/// How messages name a value's type: "int", "tuple", "Tensor", "IterVar" ...
std::string typeName(const Value& v);
/// Python's repr(): strings quoted, `(1,)`, `Tensor(shape=[1024, 1024], op.name=C)`.
std::string repr(const Value& v);
/// Python's str(): like repr() but strings unquoted.
std::string str(const Value& v);
/// Python's repr of a float: "1.0", "0.1", "1e-05".
std::string formatFloat(double d);

} // namespace tessel::te::script
