/// \file
/// The arithmetic analyzer: facts about variables, and the questions passes ask.
///
/// An Analyzer holds what is known about variables (an interval from a loop
/// range, or the value a let binds) in nested scopes, so a pass can bind a
/// loop variable on the way into a loop and forget it on the way out:
///
/// \code
///   arith::Analyzer an;
///   an.bind(xo, Range(0, 32));
///   {
///       arith::Analyzer::Scope scope(an);
///       an.bind(xi, Range(0, 32));
///       an.canProve(xo * 32 + xi < 1024);   // true
///   }                                        // xi is unbound again
/// \endcode
///
/// `simplify` runs the rewrite simplifier (Simplify.h describes its rules)
/// under the current facts.
#pragma once

#include "tir/IR.h"
#include "tir/arith/ConstIntBound.h"

#include <cstdint>
#include <vector>

namespace tessel::tir::arith {

class Analyzer {
public:
    Analyzer() = default;
    Analyzer(const Analyzer&) = delete;
    Analyzer& operator=(const Analyzer&) = delete;

    /// `v` lies in [r.min, r.min + r.extent) (bounds of min and extent are used
    /// when they are not constants). Replaces what was known about `v` until
    /// the current scope ends.
    void bind(const Var& v, const Range& r);
    /// `v` equals `value` (a LetStmt): `v` gets the bound of `value`, and when
    /// `value` is a constant, simplify replaces `v` by it.
    void bind(const Var& v, const Expr& value);
    /// `v` lies in `b`.
    void bind(const Var& v, const ConstIntBound& b);

    /// Opens a scope: bindings made until the matching popScope are undone by it.
    void pushScope();
    void popScope();

    /// Opens a scope for its lifetime.
    class Scope {
    public:
        explicit Scope(Analyzer& a) : a_(a) { a_.pushScope(); }
        ~Scope() { a_.popScope(); }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        Analyzer& a_;
    };

    /// The interval of integer expression `e` under the current bindings.
    ConstIntBound constIntBound(const Expr& e) const;
    /// True when `cond` (a bool expression) is provably true for every value
    /// of the bound variables; false when it is false or unknown. Simplifies
    /// first; arith::decideCondition(cond, varBounds()) is the bounds-only test.
    bool canProve(const Expr& cond);
    /// True when `e >= lower` is provable from bounds alone.
    bool canProveGreaterEqual(const Expr& e, int64_t lower) const;
    /// The simplified form of `e` under the current bindings; never changes its type.
    Expr simplify(const Expr& e);

    /// The current variable intervals.
    const VarBoundMap& varBounds() const { return bounds_; }
    /// The constant a variable is known to equal, or null.
    const Expr* knownValue(const VarNode* v) const;

private:
    struct Undo {
        const VarNode* var;
        bool hadBound;
        ConstIntBound bound;
        Expr value; // the previous known value (may be undefined)
        bool hadValue;
    };
    void record(const VarNode* v);

    VarBoundMap bounds_;
    std::unordered_map<const VarNode*, Expr> values_;
    std::vector<Undo> undo_;
    std::vector<size_t> scopes_;
};

} // namespace tessel::tir::arith
