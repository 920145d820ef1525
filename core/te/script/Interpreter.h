/// \file
/// The tree-walking evaluator behind runScript() (internal to the script
/// library): Interpreter.cpp evaluates syntax; the builtin modules
/// (te/script/builtins) provide the `te` API, Python's builtins and the
/// attributes and methods of TE objects, and write what the script produces
/// into the ScriptRecorder (Recorder.h).
#pragma once

#include "ir/Check.h"
#include "te/script/Script.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessel::te::script {

class ScriptRecorder;

/// The local names of a running lambda, chained to the scope it was written in.
struct Scope {
    std::vector<std::pair<std::string, Value>> vars;
    std::shared_ptr<const Scope> parent;
    const Value* find(std::string_view name) const {
        for (const Scope* s = this; s; s = s->parent.get())
            for (auto& [n, v] : s->vars)
                if (n == name) return &v;
        return nullptr;
    }
};
using ScopePtr = std::shared_ptr<const Scope>;

/// An attribute getter of a TE object type.
using AttrGetter = std::function<Value(Interpreter&, const Value& self, SourceLoc loc)>;

/// The attributes and methods of one value kind.
struct TypeInfo {
    std::string name;
    std::vector<std::pair<std::string, AttrGetter>> attrs;
    std::vector<std::pair<std::string, NativeFunction>> methods;
};

class Interpreter {
public:
    explicit Interpreter(const ScriptOptions& opts);

    ScriptResult run(std::shared_ptr<const AstModule> module);

    // --------------------------------------------------------------- evaluation
    Value eval(const AstExprPtr& e, const ScopePtr& scope);
    /// Calls a function value (native or lambda).
    Value call(const Value& fn, const CallArgs& args);
    /// `obj.name`; `forCall` says it is being called (for the message).
    Value getAttr(const Value& obj, const std::string& name, SourceLoc loc, bool forCall);
    Value binary(BinaryOp op, const Value& a, const Value& b, SourceLoc loc);
    Value compare(CompareOp op, const Value& a, const Value& b, SourceLoc loc);
    bool truthy(const Value& v, SourceLoc loc);
    bool valueEquals(const Value& a, const Value& b) const;

    // -------------------------------------------------------------- conversions
    /// The expression a value stands for: numbers become constants, an
    /// IterVar its variable. Nullopt for anything else.
    std::optional<tir::Expr> exprOf(const Value& v) const;
    static bool isExprLike(const Value& v) {
        return v.is(Value::Kind::Expr) || v.is(Value::Kind::IterVar);
    }

    [[noreturn]] void fail(SourceLoc loc, std::string msg) const {
        throw CompileError(std::move(msg), loc);
    }

    /// Runs `f`, giving a location to errors that have none (those the TE
    /// API throws) and turning internal errors into diagnostics.
    template <class F> auto guarded(SourceLoc loc, F&& f) -> decltype(f()) {
        try {
            return f();
        } catch (const CompileError& e) {
            if (e.diagnostic().loc.known()) throw;
            Diagnostic d = e.diagnostic();
            d.loc = loc;
            throw CompileError(d);
        } catch (const InternalError& e) {
            throw CompileError(e.what(), loc);
        } catch (const std::bad_alloc&) {
            throw CompileError("out of memory", loc);
        } catch (const std::bad_variant_access&) {
            throw CompileError("internal error: a value of the wrong kind", loc);
        }
    }

    // -------------------------------------------------------------- state
    const ScriptOptions& opts;

    void setGlobal(const std::string& name, Value v);
    /// Every name visible from `scope` (for suggestions).
    std::vector<std::string> visibleNames(const Scope* scope) const;

    /// A bound method or native function value.
    static Value makeFunction(std::string name, NativeFunction fn,
                              std::shared_ptr<const Value> self = nullptr);

private:
    const TypeInfo* typeInfo(Value::Kind k) const;

    void exec(const AstStmt& s);
    void execImport(const AstStmt& s);
    void assign(const AstExpr& target, const Value& v);
    Value lookup(const std::string& name, const Scope* scope, SourceLoc loc) const;
    Value evalCall(const AstExpr& e, const ScopePtr& scope);
    Value subscript(const Value& obj, const Value& index, const AstExpr& e);
    Value unary(UnaryOp op, const Value& v, SourceLoc loc);
    Value callLambda(const FunctionObject& f, const CallArgs& args);
    void inferBuild();

    /// What the script produces: the builtins write it (they hold it from
    /// the BuiltinTable), run() reads the result out of it.
    std::shared_ptr<ScriptRecorder> recorder_;
    /// The globals the script sees (user-visible names).
    std::unordered_map<std::string, Value> globals_;
    std::vector<std::string> globalOrder_;
    /// Names that exist before anything else (modules, builtins).
    std::unordered_map<std::string, Value> builtins_;
    /// The importable root modules: tvm, tessel.
    std::unordered_map<std::string, Value> rootModules_;
    std::unordered_map<int, TypeInfo> types_;
    int64_t steps_ = 0;
    int evalDepth_ = 0;
    int callDepth_ = 0;
};

/// Parses a dtype string ("float32"), with a suggestion when it is misspelt.
DataType parseDType(const std::string& text, SourceLoc loc);

} // namespace tessel::te::script

#include "te/script/BoundArgs.h"
