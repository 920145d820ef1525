#include "te/ScriptLines.h"

#include "tir/IR.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace tessel::te {

namespace {

void sortUnique(std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

/// A printed `for` and the last line of its body.
struct LoopLines {
    int line = 0, last = 0;
    bool init = false;
};

/// The printed lowered function, read through the lowering record: the loops
/// of every iteration variable and the statements of every stage.
class TirLines {
public:
    TirLines(const AnnotatedText& text, const LoweringRecord& record)
        : text_(text), record_(record) {}

    void read(const tir::Stmt& s) { walk(s); }

    const std::vector<LoopLines>& loopsOf(const tir::IterVarNode* iv) const {
        static const std::vector<LoopLines> kNone;
        auto it = loops_.find(iv);
        return it == loops_.end() ? kNone : it->second;
    }
    const std::vector<int>& statementsOf(const StageData* st) const {
        static const std::vector<int> kNone;
        auto it = statements_.find(st);
        return it == statements_.end() ? kNone : it->second;
    }
    /// The printed lines nested in the loop at `l` (structural lines left out).
    std::vector<int> bodyOf(const LoopLines& l) const {
        std::vector<int> out;
        for (int t = l.line + 1; t <= l.last; ++t)
            if (text_.lineNode[size_t(t - 1)]) out.push_back(t);
        return out;
    }

private:
    /// Visits `s` and returns the last line it printed (0 when none).
    int walk(const tir::Stmt& s) {
        using namespace tir;
        if (!s.defined()) return 0;
        int line = text_.lineOf(s.get());
        int last = line;
        auto sub = [&](const Stmt& c) { last = std::max(last, walk(c)); };
        auto statement = [&](const Var& data) {
            if (!line) return;
            if (auto it = record_.buffers.find(data.get()); it != record_.buffers.end())
                statements_[it->second.stage.get()].push_back(line);
        };
        switch (s.kind()) {
        case NodeKind::For: {
            auto* op = s.as<ForNode>();
            sub(op->body);
            if (auto it = record_.loops.find(op->loopVar.get()); it != record_.loops.end() && line)
                loops_[it->second.iterVar.get()].push_back({line, last, it->second.init});
            break;
        }
        case NodeKind::LetStmt:
            sub(s.as<LetStmtNode>()->body);
            break;
        case NodeKind::AttrStmt:
            sub(s.as<AttrStmtNode>()->body);
            break;
        case NodeKind::BufferStore:
            statement(s.as<BufferStoreNode>()->buffer->data);
            break;
        case NodeKind::BufferRealize: {
            auto* op = s.as<BufferRealizeNode>();
            statement(op->buffer->data);
            sub(op->body);
            break;
        }
        case NodeKind::Allocate: {
            auto* op = s.as<AllocateNode>();
            statement(op->buffer->data);
            sub(op->body);
            break;
        }
        case NodeKind::IfThenElse: {
            auto* op = s.as<IfThenElseNode>();
            sub(op->thenCase);
            sub(op->elseCase);
            break;
        }
        case NodeKind::SeqStmt:
            for (auto& c : s.as<SeqStmtNode>()->seq)
                sub(c);
            break;
        default:
            break;
        }
        return last;
    }

    const AnnotatedText& text_;
    const LoweringRecord& record_;
    std::unordered_map<const tir::IterVarNode*, std::vector<LoopLines>> loops_;
    std::unordered_map<const StageData*, std::vector<int>> statements_;
};

/// The TIR lines iteration variable `iv` of `st` became: its loops, else the
/// loops of the variables it was split or fused into, else (no loop left:
/// vectorized or unrolled away) the body of the nearest enclosing loop of the
/// stage that survived, else the stage's statements.
std::vector<int> linesOfIterVar(const TirLines& tir, const StageData& st, const IterVar& iv) {
    std::vector<int> out;
    std::unordered_set<const tir::IterVarNode*> seen;
    std::function<void(const IterVar&)> collect = [&](const IterVar& v) {
        if (!seen.insert(v.get()).second) return;
        const auto& own = tir.loopsOf(v.get());
        if (!own.empty()) {
            for (auto& l : own)
                out.push_back(l.line);
            return;
        }
        for (auto& r : st.relations) {
            if (r.kind == IterRelation::Kind::Split && r.parent.sameAs(v)) {
                collect(r.outer);
                collect(r.inner);
            } else if (r.kind == IterRelation::Kind::Fuse &&
                       (r.outer.sameAs(v) || r.inner.sameAs(v))) {
                collect(r.fused);
            }
        }
    };
    collect(iv);
    if (!out.empty()) return out;
    const auto& leaves = st.leafIterVars;
    size_t pos = leaves.size();
    for (size_t i = 0; i < leaves.size() && pos == leaves.size(); ++i)
        if (seen.count(leaves[i].get())) pos = i;
    for (size_t q = pos; q-- > 0 && pos < leaves.size();) {
        // The main nest only: a reduction's init nest is not where the variable went.
        bool any = false;
        for (auto& l : tir.loopsOf(leaves[q].get())) {
            if (l.init) continue;
            auto body = tir.bodyOf(l);
            out.insert(out.end(), body.begin(), body.end());
            any = true;
        }
        if (any) return out;
    }
    return tir.statementsOf(&st);
}

} // namespace

const std::vector<int>& ScriptLineTable::scriptLinesOf(int tirLine) const {
    static const std::vector<int> kNone;
    if (tirLine < 1 || tirLine > int(tirToScript_.size())) return kNone;
    return tirToScript_[size_t(tirLine - 1)];
}

const std::vector<int>& ScriptLineTable::tirLinesOf(int scriptLine) const {
    static const std::vector<int> kNone;
    if (scriptLine < 1 || scriptLine > int(scriptToTir_.size())) return kNone;
    return scriptToTir_[size_t(scriptLine - 1)];
}

ScriptLineTable ScriptLineTable::build(const AnnotatedText& text, const tir::PrimFunc& lowered,
                                       const LoweringRecord& record) {
    ScriptLineTable t;
    t.tirToScript_.resize(text.lineNode.size());
    if (!lowered.defined()) return t;
    TirLines tir(text, record);
    tir.read(lowered->body);

    // Every stage the TIR has something of, each once.
    std::vector<const StageData*> stages;
    std::unordered_set<const StageData*> known;
    auto addStage = [&](const std::shared_ptr<StageData>& st) {
        if (st && known.insert(st.get()).second) stages.push_back(st.get());
    };
    for (auto& [_, l] : record.loops)
        addStage(l.stage);
    for (auto& [_, b] : record.buffers)
        addStage(b.stage);

    auto link = [&](const std::vector<SourceLoc>& locs, const std::vector<int>& tirLines) {
        for (int tl : tirLines) {
            if (tl < 1 || tl > t.tirLineCount()) continue;
            for (auto& loc : locs)
                if (loc.known()) t.tirToScript_[size_t(tl - 1)].push_back(loc.line);
        }
    };
    for (const StageData* st : stages) {
        link(st->sources.stage, tir.statementsOf(st));
        for (auto& iv : st->allIterVars)
            if (auto it = st->sources.iterVars.find(iv.get()); it != st->sources.iterVars.end())
                link(it->second, linesOfIterVar(tir, *st, iv));
    }
    for (size_t i = 0; i < t.tirToScript_.size(); ++i) {
        sortUnique(t.tirToScript_[i]);
        for (int s : t.tirToScript_[i]) {
            if (size_t(s) > t.scriptToTir_.size()) t.scriptToTir_.resize(size_t(s));
            t.scriptToTir_[size_t(s - 1)].push_back(int(i) + 1);
        }
    }
    return t;
}

} // namespace tessel::te
