#include "tir/passes/UnrollLoop.h"

#include "tir/IRMutator.h"
#include "tir/IROperators.h"
#include "tir/arith/ConstantFold.h"

namespace tessel::tir {

namespace {

class LoopUnroller : public IRMutator {
public:
    explicit LoopUnroller(const UnrollLoopOptions& o) : options_(o) {}
    using IRMutator::mutate;
    using IRMutator::visit;

protected:
    // After visiting a statement, steps_ is how many statements it stands for
    // once unrolled (TVM's step count: a plain statement is 1, a sequence the
    // sum, an unrolled loop extent times its body), and loopInside_ whether it
    // still contains a loop.
    Stmt visit(const ForNode* op) override {
        steps_ = 1;
        loopInside_ = false;
        Stmt body = mutate(op->body);
        int64_t innerSteps = steps_;
        bool innerLoop = loopInside_;

        auto* ext = op->extent.as<IntImmNode>();
        bool constant = ext && op->min.type().isScalar() && ext->value >= 0;
        int64_t total = constant ? ext->value * innerSteps : 0;
        bool unroll = false;
        if (constant && op->forKind == ForKind::Unrolled) unroll = total <= options_.maxSteps;
        if (constant && op->forKind == ForKind::Serial && options_.autoMaxStep > 0 && !innerLoop)
            unroll = total <= options_.autoMaxStep;

        Stmt result;
        if (unroll) {
            std::vector<Stmt> copies;
            for (int64_t i = 0; i < ext->value; ++i) {
                Expr value = arith::foldConstants(op->min + makeConst(op->min.type(), i));
                copies.push_back(arith::substituteAndFold(body, VarMap{{op->loopVar.get(), value}}));
            }
            result = SeqStmtNode::make(copies);
            steps_ = std::max<int64_t>(total, 1);
            loopInside_ = innerLoop;
        } else {
            result = body.sameAs(op->body) ? Stmt(op)
                                           : ForNode::remake(*op, op->min, op->extent, body);
            // A loop left in place: the surrounding code counts it as one step.
            steps_ = 1;
            loopInside_ = true;
        }
        return result;
    }

    Stmt visit(const SeqStmtNode* op) override {
        // The copies of a sequence add up.
        int64_t sum = 0;
        bool anyLoop = false;
        std::vector<Stmt> seq;
        bool changed = false;
        for (auto& s : op->seq) {
            steps_ = 1;
            loopInside_ = false;
            seq.push_back(mutate(s));
            changed |= !seq.back().sameAs(s);
            sum += steps_;
            anyLoop |= loopInside_;
        }
        steps_ = std::max<int64_t>(sum, 1);
        loopInside_ = anyLoop;
        return changed ? SeqStmtNode::make(seq) : Stmt(op);
    }

private:
    const UnrollLoopOptions& options_;
    int64_t steps_ = 1;
    bool loopInside_ = false;
};

} // namespace

Stmt unrollLoops(const Stmt& s, const UnrollLoopOptions& options) {
    return LoopUnroller(options).mutate(s);
}

PrimFunc unrollLoops(const PrimFunc& f, const UnrollLoopOptions& options) {
    Stmt body = unrollLoops(f->body, options);
    return body.sameAs(f->body) ? f : f.withBody(body);
}

} // namespace tessel::tir
