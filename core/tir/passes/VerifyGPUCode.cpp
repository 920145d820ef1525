#include "tir/passes/VerifyGPUCode.h"

#include "tir/IROperators.h"
#include "tir/IRVisitor.h"

#include <map>
#include <set>

namespace tessel::tir {

namespace {

class Verifier : public IRVisitor {
public:
    explicit Verifier(const GpuLimits& limits) : limits_(limits) {}
    std::vector<GpuIssue> issues;
    using IRVisitor::visit;

protected:
    void visit(const ForNode* op) override {
        bool bound = op->forKind == ForKind::ThreadBinding && !isVirtualThreadTag(op->threadTag);
        // inject-virtual-thread interleaves every vthread loop of constant extent; one left is a serial loop.
        if (op->forKind == ForKind::ThreadBinding && !bound && !asConstInt(op->extent))
            add("the loop '" + op->loopVar->name + "' bound to " + op->threadTag +
                    " has no constant extent: virtual threads are written out one copy each, so split it by a "
                    "constant first",
                op->loopVar.get());
        if (!bound) {
            if (depth_ == 0 && containsThreadLoop(op->body)) {
                add("loop '" + op->loopVar->name +
                        "' is outside the kernel but has loops bound to threads inside: a kernel starts at its "
                        "outermost loop, so bind this one to blockIdx too (or move it inside)",
                    op->loopVar.get());
                return;
            }
            if (op->forKind == ForKind::Parallel && depth_ > 0)
                add("loop '" + op->loopVar->name + "' is parallel inside a GPU kernel: bind it to threads instead",
                    op->loopVar.get());
            IRVisitor::visit(op);
            return;
        }
        const std::string& tag = op->threadTag;
        bool kernelStart = depth_ == 0;
        if (kernelStart) {
            extents_.clear();
            shared_.clear();
            threadsReported_ = false;
        }
        auto ext = asConstInt(op->extent);
        if (!ext) {
            add("the loop '" + op->loopVar->name + "' bound to " + tag + " has no constant extent", op->loopVar.get());
        } else {
            if (tag.rfind("blockIdx.", 0) == 0 && threadDepth_ > 0)
                add("loop '" + op->loopVar->name + "' is bound to " + tag +
                        " inside a loop bound to threadIdx: blocks are outside threads",
                    op->loopVar.get());
            auto [it, fresh] = extents_.emplace(tag, std::make_pair(*ext, op->loopVar.get()));
            if (!fresh && it->second.first != *ext)
                add(tag + " has extent " + std::to_string(*ext) + " at loop '" + op->loopVar->name + "' but " +
                        std::to_string(it->second.first) + " at loop '" + it->second.second->name +
                        "' in the same kernel: split so that loops bound to the same thread have the same extent",
                    op->loopVar.get());
            int64_t dimLimit = tag == "threadIdx.z" ? 64 : tag.rfind("threadIdx.", 0) == 0 ? 1024
                               : tag == "blockIdx.x"                                      ? 2147483647
                                                                                           : 65535;
            if (*ext > dimLimit)
                add(tag + " has extent " + std::to_string(*ext) + " at loop '" + op->loopVar->name +
                        "'; a GPU allows at most " + std::to_string(dimLimit),
                    op->loopVar.get());
            int64_t threads = 1;
            for (auto& [t, e] : extents_)
                if (t.rfind("threadIdx.", 0) == 0) threads *= e.first;
            if (threads > limits_.maxThreadsPerBlock && !threadsReported_) {
                threadsReported_ = true;
                add("a block of " + std::to_string(threads) + " threads (at loop '" + op->loopVar->name +
                        "'): the GPU allows at most " + std::to_string(limits_.maxThreadsPerBlock) +
                        " per block; bind shorter loops to threadIdx",
                    op->loopVar.get());
            }
        }
        ++depth_;
        bool isThread = tag.rfind("threadIdx.", 0) == 0;
        threadDepth_ += isThread;
        IRVisitor::visit(op);
        threadDepth_ -= isThread;
        --depth_;
        if (kernelStart) {
            int64_t bytes = 0;
            const VarNode* largest = nullptr;
            int64_t largestBytes = 0;
            for (auto& [v, b] : shared_) {
                bytes += b;
                if (b > largestBytes) largest = v, largestBytes = b;
            }
            if (bytes > limits_.maxSharedBytesPerBlock) {
                GpuIssue i;
                i.message = "the kernel's shared buffers take " + std::to_string(bytes) + " bytes per block; the GPU has " +
                            std::to_string(limits_.maxSharedBytesPerBlock) + ": use smaller tiles";
                i.buffer = largest;
                issues.push_back(i);
            }
        }
    }

    void visit(const BufferStoreNode* op) override {
        if (depth_ == 0 && outside_.insert(op->buffer->data.get()).second) {
            GpuIssue i;
            i.message = "on a GPU every stage runs in a kernel, but '" + op->buffer->name +
                        "' is computed outside the loops bound to blockIdx/threadIdx: bind its outer loops "
                        "(s[T].bind(xo, te.thread_axis(\"blockIdx.x\")))";
            i.buffer = op->buffer->data.get();
            issues.push_back(i);
        }
        noteShared(op->buffer);
        IRVisitor::visit(op);
    }
    void visit(const BufferLoadNode* op) override {
        noteShared(op->buffer);
        IRVisitor::visit(op);
    }

private:
    static bool containsThreadLoop(const Stmt& s) {
        bool found = false;
        postOrderVisit(s, [&](const Object* n) {
            auto* st = dynamic_cast<const BaseStmtNode*>(n);
            if (st && st->kind == NodeKind::For && static_cast<const ForNode*>(st)->forKind == ForKind::ThreadBinding)
                found = true;
        });
        return found;
    }
    void noteShared(const Buffer& b) {
        if (depth_ == 0 || b->scope != "shared" || shared_.count(b->data.get())) return;
        int64_t n = (b->dtype.bits() * b->dtype.lanes() + 7) / 8;
        for (auto& s : b->shape) n *= asConstInt(s).value_or(0);
        shared_[b->data.get()] = n;
    }
    void add(std::string msg, const VarNode* loop) { issues.push_back({std::move(msg), loop, nullptr}); }

    const GpuLimits& limits_;
    int depth_ = 0, threadDepth_ = 0;
    bool threadsReported_ = false;
    std::map<std::string, std::pair<int64_t, const VarNode*>> extents_;
    std::map<const VarNode*, int64_t> shared_;
    std::set<const VarNode*> outside_;
};

} // namespace

std::vector<GpuIssue> verifyGpuCode(const PrimFunc& f, const GpuLimits& limits) {
    Verifier v(limits);
    v.visitStmt(f->body);
    return std::move(v.issues);
}

} // namespace tessel::tir
