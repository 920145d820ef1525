#include "schedule/LoopOutline.h"

#include "driver/TeDriver.h"
#include "te/script/Script.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/IRVisitor.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <map>
#include <unordered_map>

namespace tessel::views {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("LoopOutline", text); }

bool isIdentifier(const QString& s) {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][A-Za-z_0-9]*$"));
    return re.match(s).hasMatch();
}

/// Extent and kind of every loop of the scheduled TIR, by loop variable.
class LoopCollector : public tir::IRVisitor {
public:
    using IRVisitor::visit;
    struct Loop {
        tir::Expr extent;
        tir::ForKind kind;
    };
    std::unordered_map<const tir::VarNode*, Loop> loops;

protected:
    void visit(const tir::ForNode* op) override {
        loops.emplace(op->loopVar.get(), Loop{op->extent, op->forKind});
        IRVisitor::visit(op);
    }
};

QString kindText(te::IterAnnotation a) {
    switch (a) {
    case te::IterAnnotation::Parallel: return QStringLiteral("parallel");
    case te::IterAnnotation::Vectorize: return QStringLiteral("vectorized");
    case te::IterAnnotation::Unroll: return QStringLiteral("unrolled");
    case te::IterAnnotation::None: break;
    }
    return {};
}

/// Names the script gave: per stage (operation name), loop variable name ->
/// global; operation name -> tensor global; and the schedule's global.
struct ScriptNames {
    std::map<std::string, std::map<std::string, std::string>> loops;
    std::map<std::string, std::string> tensors;
    std::string schedule;
    QStringList completions;
};

ScriptNames namesOf(const te::script::ScriptResult& r, const std::string& function) {
    using te::script::Value;
    ScriptNames n;
    const te::script::BuildRequest* build = nullptr;
    for (auto& b : r.builds)
        if (b.name == function) build = &b;
    if (!build && !r.builds.empty()) build = &r.builds.front();
    if (!build || !build->schedule.defined()) return n;
    const te::ScheduleData& sd = build->schedule.data();
    std::unordered_map<const tir::IterVarNode*, std::string> ivGlobal;
    for (auto& [name, v] : r.globals) {
        switch (v.kind()) {
        case Value::Kind::IterVar:
            ivGlobal.emplace(v.asIterVar().get(), name);
            n.completions << QString::fromStdString(name);
            break;
        case Value::Kind::Tensor: {
            // The script's C stays the tensor it made; cache_write moved its
            // stage to a new operation, which resolve() finds.
            const te::Operation& op = v.asTensor()->op;
            const std::string opName = sd.resolve(op)->name;
            bool exact = sd.resolve(op).get() == op.get();
            if (exact || !n.tensors.count(opName)) n.tensors[opName] = name;
            n.completions << QString::fromStdString(name);
            break;
        }
        case Value::Kind::Schedule:
            if (&v.asSchedule().data() == &sd || n.schedule.empty()) n.schedule = name;
            n.completions << QString::fromStdString(name);
            break;
        case Value::Kind::Int:
        case Value::Kind::Stage:
        case Value::Kind::Operation:
            n.completions << QString::fromStdString(name);
            break;
        default: break;
        }
    }
    for (auto& st : sd.stages)
        for (auto& iv : st->allIterVars)
            if (auto g = ivGlobal.find(iv.get()); g != ivGlobal.end())
                n.loops[st->op->name].emplace(iv->var.name(), g->second);
    return n;
}

} // namespace

QString OutlineLoop::label() const { return isIdentifier(ref) ? ref : var; }

QString OutlineStage::stageRef(const QString& scheduleRef) const {
    if (tensorRef.isEmpty()) return {};
    return scheduleRef + QLatin1Char('[') + tensorRef + QLatin1Char(']');
}

int ScheduleOutline::findStage(const QString& name) const {
    for (int i = 0; i < stages.size(); ++i)
        if (stages[i].name == name) return i;
    for (int i = 0; i < stages.size(); ++i)
        if (stages[i].tensorRef == name) return i;
    return -1;
}

int ScheduleOutline::findLoop(int stage, const QString& name) const {
    if (stage < 0 || stage >= stages.size()) return -1;
    const auto& loops = stages[stage].loops;
    for (int i = 0; i < loops.size(); ++i)
        if (loops[i].ref == name) return i;
    for (int i = 0; i < loops.size(); ++i)
        if (loops[i].var == name) return i;
    return -1;
}

ScheduleOutline buildOutline(const driver::LoweredFunction& f, const te::script::ScriptResult* script) {
    ScheduleOutline out;
    if (!f.schedule.defined()) return out;
    ScriptNames names;
    if (script) names = namesOf(*script, f.name);
    if (!names.schedule.empty()) out.scheduleRef = QString::fromStdString(names.schedule);
    out.names = names.completions;

    LoopCollector loops;
    if (f.scheduled.defined() && f.scheduled->body.defined()) loops.visitStmt(f.scheduled->body);

    const te::ScheduleData& sd = f.schedule.data();
    std::unordered_map<const te::StageData*, int> index;
    for (auto& st : sd.stages) {
        auto* c = dynamic_cast<const te::ComputeOpNode*>(st->op.get());
        if (!c) continue; // placeholders have no loops
        OutlineStage s;
        s.name = QString::fromStdString(st->op->name);
        if (auto t = names.tensors.find(st->op->name); t != names.tensors.end())
            s.tensorRef = QString::fromStdString(t->second);
        else if (!script)
            s.tensorRef = s.name; // no script: the operation's name is the best guess
        s.attach = st->attach == te::AttachKind::Inline ? OutlineStage::Attach::Inline
                   : st->attach == te::AttachKind::Scope ? OutlineStage::Attach::At
                                                          : OutlineStage::Attach::Root;
        const auto& named = names.loops[st->op->name];
        const QString stageRef = s.stageRef(out.scheduleRef);
        for (size_t i = 0; i < st->leafIterVars.size(); ++i) {
            const tir::IterVar& iv = st->leafIterVars[i];
            OutlineLoop l;
            l.var = QString::fromStdString(iv->var.name());
            l.reduce = iv->kind == tir::IterVarKind::CommReduce;
            if (auto a = st->annotations.find(iv.get()); a != st->annotations.end()) l.kind = kindText(a->second);
            if (auto g = named.find(iv->var.name()); g != named.end()) {
                l.ref = QString::fromStdString(g->second);
            } else if (!stageRef.isEmpty()) {
                // Roots by their place in the operation; other leaves by their place now.
                for (size_t k = 0; k < c->axis.size() && l.ref.isEmpty(); ++k)
                    if (c->axis[k].sameAs(iv)) l.ref = stageRef + QStringLiteral(".op.axis[%1]").arg(k);
                for (size_t k = 0; k < c->reduceAxis.size() && l.ref.isEmpty(); ++k)
                    if (c->reduceAxis[k].sameAs(iv)) l.ref = stageRef + QStringLiteral(".op.reduce_axis[%1]").arg(k);
                if (l.ref.isEmpty()) l.ref = stageRef + QStringLiteral(".leaf_iter_vars[%1]").arg(i);
            }
            if (auto it = loops.loops.find(iv->var.get()); it != loops.loops.end()) {
                auto e = tir::asConstInt(it->second.extent);
                l.extent = e ? QString::number(*e) : QString::fromStdString(tir::toString(it->second.extent));
            } else if (iv->dom.extent.defined()) {
                auto e = tir::asConstInt(iv->dom.extent);
                l.extent = e ? QString::number(*e) : QString::fromStdString(tir::toString(iv->dom.extent));
            }
            s.loops.push_back(l);
        }
        index[st.get()] = int(out.stages.size());
        out.stages.push_back(s);
    }
    // Where attached stages are computed: their parent's loop.
    for (auto& st : sd.stages) {
        auto me = index.find(st.get());
        if (me == index.end() || st->attach != te::AttachKind::Scope) continue;
        auto parent = st->attachStage.lock();
        auto p = parent ? index.find(parent.get()) : index.end();
        if (p == index.end()) continue;
        const auto& leaves = parent->leafIterVars;
        for (size_t i = 0; i < leaves.size(); ++i)
            if (leaves[i].sameAs(st->attachIter)) {
                out.stages[me->second].parentStage = p->second;
                out.stages[me->second].parentLoop = int(i);
                out.stages[p->second].loops[int(i)].attached.push_back(me->second);
            }
    }
    return out;
}

QSet<QString> identifiersIn(const QString& script) {
    static const QRegularExpression re(QStringLiteral("[A-Za-z_][A-Za-z_0-9]*"));
    QSet<QString> ids;
    for (auto it = re.globalMatch(script); it.hasNext();) ids.insert(it.next().captured());
    return ids;
}

namespace {

/// `base` made a plain name that is not taken yet (base, base2, base3 ...).
QString fresh(QString base, QSet<QString>& taken) {
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z_0-9]")), QStringLiteral("_"));
    if (base.isEmpty() || base[0].isDigit()) base.prepend(QLatin1Char('v'));
    QString name = base;
    for (int i = 2; taken.contains(name); ++i) name = base + QString::number(i);
    taken.insert(name);
    return name;
}

} // namespace

QString actionLine(const ScheduleOutline& outline, int stage, int loop, LoopAction action,
                   const LoopActionArgs& args, const QSet<QString>& takenNames, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return QString();
    };
    if (stage < 0 || stage >= outline.stages.size()) return fail(tr("no such stage"));
    const OutlineStage& st = outline.stages[stage];
    const QString ref = st.stageRef(outline.scheduleRef);
    if (ref.isEmpty())
        return fail(tr("the script has no name for the tensor of stage '%1'").arg(st.name));
    QSet<QString> taken = takenNames;
    const OutlineLoop* l = loop >= 0 && loop < st.loops.size() ? &st.loops[loop] : nullptr;
    auto needLoop = [&]() -> bool {
        if (!l) return false;
        return !l->ref.isEmpty();
    };
    switch (action) {
    case LoopAction::Split: {
        if (!needLoop()) return fail(tr("choose a loop to split"));
        if (args.factor < 1) return fail(tr("the split factor must be at least 1"));
        QString base = l->label();
        QString o = fresh(base + QLatin1Char('o'), taken), i = fresh(base + QLatin1Char('i'), taken);
        return QStringLiteral("%1, %2 = %3.split(%4, factor=%5)").arg(o, i, ref, l->ref).arg(args.factor);
    }
    case LoopAction::Tile: {
        if (!needLoop()) return fail(tr("choose the first of two loops to tile"));
        if (loop + 1 >= st.loops.size() || st.loops[loop + 1].ref.isEmpty())
            return fail(tr("tile needs a second loop after '%1'").arg(l->label()));
        if (args.factor < 1 || args.factor2 < 1) return fail(tr("the tile factors must be at least 1"));
        const OutlineLoop& m = st.loops[loop + 1];
        QString xo = fresh(l->label() + QLatin1Char('o'), taken), yo = fresh(m.label() + QLatin1Char('o'), taken);
        QString xi = fresh(l->label() + QLatin1Char('i'), taken), yi = fresh(m.label() + QLatin1Char('i'), taken);
        return QStringLiteral("%1, %2, %3, %4 = %5.tile(%6, %7, %8, %9)")
            .arg(xo, yo, xi, yi, ref, l->ref, m.ref)
            .arg(args.factor)
            .arg(args.factor2);
    }
    case LoopAction::Reorder: {
        if (args.order.size() < 2) return fail(tr("reorder needs at least two loops"));
        return QStringLiteral("%1.reorder(%2)").arg(ref, args.order.join(QStringLiteral(", ")));
    }
    case LoopAction::Fuse: {
        if (!needLoop()) return fail(tr("choose the outer of two loops to fuse"));
        if (loop + 1 >= st.loops.size() || st.loops[loop + 1].ref.isEmpty())
            return fail(tr("fuse needs the next loop after '%1'").arg(l->label()));
        const OutlineLoop& m = st.loops[loop + 1];
        QString f = fresh(l->label() + QLatin1Char('_') + m.label(), taken);
        return QStringLiteral("%1 = %2.fuse(%3, %4)").arg(f, ref, l->ref, m.ref);
    }
    case LoopAction::Vectorize:
    case LoopAction::Unroll:
    case LoopAction::Parallel: {
        if (!needLoop()) return fail(tr("choose a loop"));
        const char* p = action == LoopAction::Vectorize ? "vectorize" : action == LoopAction::Unroll ? "unroll" : "parallel";
        return QStringLiteral("%1.%2(%3)").arg(ref, QLatin1String(p), l->ref);
    }
    case LoopAction::ComputeAt: {
        if (args.targetStage < 0 || args.targetStage >= outline.stages.size() || args.targetStage == stage)
            return fail(tr("choose another stage to compute '%1' at").arg(st.name));
        const OutlineStage& t = outline.stages[args.targetStage];
        if (args.targetLoop < 0 || args.targetLoop >= t.loops.size() || t.loops[args.targetLoop].ref.isEmpty())
            return fail(tr("choose a loop of stage '%1'").arg(t.name));
        QString tref = t.stageRef(outline.scheduleRef);
        if (tref.isEmpty()) return fail(tr("the script has no name for the tensor of stage '%1'").arg(t.name));
        return QStringLiteral("%1.compute_at(%2, %3)").arg(ref, tref, t.loops[args.targetLoop].ref);
    }
    case LoopAction::ComputeInline: return ref + QStringLiteral(".compute_inline()");
    case LoopAction::ComputeRoot: return ref + QStringLiteral(".compute_root()");
    case LoopAction::CacheWrite: {
        QString scope = args.scope.isEmpty() ? QStringLiteral("global") : args.scope;
        QString name = fresh(st.tensorRef + QLatin1Char('_') + scope, taken);
        return QStringLiteral("%1 = %2.cache_write(%3, \"%4\")").arg(name, outline.scheduleRef, st.tensorRef, scope);
    }
    }
    return fail(tr("unknown action"));
}

int insertionLine(const QString& script, LoopAction action) {
    const QStringList lines = script.split(QLatin1Char('\n'));
    auto blank = [&](int i) { return lines[i].trimmed().isEmpty(); };
    if (action == LoopAction::CacheWrite) {
        static const QRegularExpression create(QStringLiteral("^\\s*[A-Za-z_][A-Za-z_0-9]*\\s*=.*create_schedule\\s*\\("));
        for (int i = 0; i < lines.size(); ++i)
            if (create.match(lines[i]).hasMatch()) return i + 1;
    }
    static const QRegularExpression build(QStringLiteral("^\\s*([A-Za-z_][A-Za-z_0-9]*\\s*=\\s*)?(tvm|tessel)\\.(build|lower)\\s*\\("));
    int at = -1;
    for (int i = lines.size() - 1; i >= 0 && at < 0; --i)
        if (build.match(lines[i]).hasMatch()) at = i;
    if (at < 0) {
        // No build call: after the last line that is not blank.
        int end = int(lines.size());
        while (end > 0 && blank(end - 1)) --end;
        return end;
    }
    while (at > 0 && blank(at - 1)) --at;
    return at;
}

} // namespace tessel::views
