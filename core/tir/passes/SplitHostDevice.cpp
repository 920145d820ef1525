#include "tir/passes/SplitHostDevice.h"

#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "tir/IRVisitor.h"

#include <algorithm>
#include <map>
#include <set>

namespace tessel::tir {

namespace {

int64_t bytesOf(const Buffer& b) {
    int64_t n = (b->dtype.bits() * b->dtype.lanes() + 7) / 8;
    for (auto& s : b->shape) {
        auto c = asConstInt(s);
        if (!c) return -1;
        n *= *c;
    }
    return n;
}

/// The buffers (by data variable) a statement reads or writes, in order of first use.
std::vector<const VarNode*> buffersUsed(const Stmt& s) {
    std::vector<const VarNode*> out;
    std::set<const VarNode*> seen;
    auto note = [&](const Buffer& b) {
        if (seen.insert(b->data.get()).second) out.push_back(b->data.get());
    };
    postOrderVisit(s, [&](const Object* n) {
        if (auto* e = dynamic_cast<const BaseExprNode*>(n); e && e->kind == NodeKind::BufferLoad)
            note(static_cast<const BufferLoadNode*>(e)->buffer);
        if (auto* st = dynamic_cast<const BaseStmtNode*>(n); st && st->kind == NodeKind::BufferStore)
            note(static_cast<const BufferStoreNode*>(st)->buffer);
    });
    return out;
}

class Splitter {
public:
    explicit Splitter(const PrimFunc& f) : f_(f) {
        for (size_t i = 0; i < f->params.size(); ++i) index_[f->params[i]->data.get()] = i;
    }

    DeviceSplit run() {
        walk(f_->body);
        return std::move(out_);
    }

private:
    void walk(const Stmt& s) {
        switch (s.kind()) {
        case NodeKind::SeqStmt:
            for (auto& c : s.as<SeqStmtNode>()->seq) walk(c);
            return;
        case NodeKind::Allocate: {
            auto* op = s.as<AllocateNode>();
            if (op->buffer->scope == "global" || op->buffer->scope.empty()) {
                index_[op->buffer->data.get()] = f_->params.size() + out_.workspaces.size();
                out_.workspaces.push_back(op->buffer);
            } else {
                deviceAllocs_[op->buffer->data.get()] = op->buffer;
            }
            walk(op->body);
            return;
        }
        case NodeKind::Evaluate:
            if (isNoOp(s)) return;
            break;
        case NodeKind::For: {
            auto* op = s.as<ForNode>();
            if (op->forKind == ForKind::ThreadBinding && !isVirtualThreadTag(op->threadTag)) return kernel(s);
            break;
        }
        default: break;
        }
        std::string what;
        for (auto* v : buffersUsed(s)) what += (what.empty() ? "" : ", ") + v->name;
        throw CompileError("on a GPU every stage runs in a kernel, but the code writing " +
                           (what.empty() ? std::string("(nothing)") : what) +
                           " is not under a loop bound to blockIdx/threadIdx: bind its outer loops "
                           "(s[T].bind(xo, te.thread_axis(\"blockIdx.x\")))");
    }

    void kernel(const Stmt& s) {
        KernelLaunch k;
        std::map<std::string, int64_t> extent;
        postOrderVisit(s, [&](const Object* n) {
            auto* st = dynamic_cast<const BaseStmtNode*>(n);
            if (!st || st->kind != NodeKind::For) return;
            auto* loop = static_cast<const ForNode*>(st);
            if (loop->forKind != ForKind::ThreadBinding || isVirtualThreadTag(loop->threadTag)) return;
            auto c = asConstInt(loop->extent);
            if (!c) throw CompileError("the loop bound to " + loop->threadTag + " has no constant extent");
            extent[loop->threadTag] = std::max(extent[loop->threadTag], *c);
        });
        const char* axes = "xyz";
        for (int i = 0; i < 3; ++i) {
            if (auto it = extent.find(std::string("blockIdx.") + axes[i]); it != extent.end()) k.grid[i] = it->second;
            if (auto it = extent.find(std::string("threadIdx.") + axes[i]); it != extent.end()) k.block[i] = it->second;
        }
        Stmt body = s;
        std::vector<Buffer> params;
        for (auto* v : buffersUsed(s)) {
            if (auto d = deviceAllocs_.find(v); d != deviceAllocs_.end()) {
                if (d->second->scope == "shared") k.sharedBytes += bytesOf(d->second);
                body = AllocateNode::make(d->second, body);
                continue;
            }
            auto i = index_.find(v);
            if (i == index_.end()) throw CompileError("kernel uses buffer '" + v->name + "' that the function does not have");
            k.args.push_back(i->second);
            params.push_back(i->second < f_->params.size() ? f_->params[i->second]
                                                           : out_.workspaces[i->second - f_->params.size()]);
        }
        k.minBlocksPerSM = launchMinBlocks(s);
        k.kernel = PrimFunc::make(f_->name + "_kernel" + std::to_string(out_.kernels.size()), params, body);
        out_.kernels.push_back(std::move(k));
    }

    const PrimFunc& f_;
    std::map<const VarNode*, size_t> index_;
    std::map<const VarNode*, Buffer> deviceAllocs_;
    DeviceSplit out_;
};

} // namespace

int64_t launchMinBlocks(const Stmt& kernel) {
    int64_t most = 0;
    postOrderVisit(kernel, [&](const Object* n) {
        auto* st = dynamic_cast<const BaseStmtNode*>(n);
        if (!st || st->kind != NodeKind::For) return;
        for (auto& [key, value] : static_cast<const ForNode*>(st)->annotations)
            if (key == kLaunchMinBlocks) most = std::max(most, asConstInt(value).value_or(0));
    });
    return most;
}

DeviceSplit splitHostDevice(const PrimFunc& f) {
    return Splitter(f).run();
}

} // namespace tessel::tir
