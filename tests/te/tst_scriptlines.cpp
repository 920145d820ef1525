// te::ScriptLineTable: the TIR of a script's schedule links back to the
// script's lines through what the interpreter and lowering recorded (the
// stages' sources and te::LoweringRecord), after the whole TIR pipeline; a
// schedule built in C++ records nothing and links nothing.
#include "te/Lower.h"
#include "te/ScriptLines.h"
#include "te/script/Script.h"
#include "tir/IRPrinter.h"
#include "tir/passes/PassManager.h"
#include "tir/passes/Pipeline.h"

#include <QtTest>

#include <set>
#include <sstream>

using namespace tessel;

namespace {

const char* kScript = R"(M = 64
N = 64
K = 32
k = te.reduce_axis((0, K), "k")
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
x, y = s[C].op.axis
yo, yi = s[C].split(y, factor=16)
ko, ki = s[C].split(k, factor=4)
s[C].reorder(x, yo, ko, ki, yi)
s[C].vectorize(yi)
s[C].parallel(x)
)";

struct Lowered {
    AnnotatedText text;
    te::ScriptLineTable table;
};

Lowered lower(const te::Schedule& sch, const std::vector<te::Tensor>& args) {
    te::LoweringRecord record;
    tir::PrimFunc f = te::scheduleToPrimFunc(sch, args, "gemm", &record);
    tir::PassManager pm;
    f = pm.run(f, tir::defaultTirPipeline());
    Lowered l;
    l.text = tir::printPrimFunc(f);
    l.table = te::ScriptLineTable::build(l.text, f, record);
    return l;
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);)
        out.push_back(l);
    return out;
}

/// The lines (1-based) whose text, without indentation, starts with `prefix`.
std::set<int> find(const std::string& text, const std::string& prefix) {
    std::set<int> out;
    auto lines = linesOf(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string t = lines[i].substr(std::min(lines[i].find_first_not_of(' '), lines[i].size()));
        if (t.rfind(prefix, 0) == 0) out.insert(int(i) + 1);
    }
    return out;
}

int scriptLine(const std::string& prefix) {
    auto l = find(kScript, prefix);
    return l.size() == 1 ? *l.begin() : 0;
}

std::set<int> asSet(const std::vector<int>& v) {
    return {v.begin(), v.end()};
}

} // namespace

class TestScriptLines : public QObject {
    Q_OBJECT
private slots:
    void scriptLinesReachTheLoopsTheyMade() {
        auto r = te::script::runScript(kScript);
        QCOMPARE(r.builds.size(), size_t(1));
        QVERIFY(r.builds[0].schedule.hasSources());
        Lowered l = lower(r.builds[0].schedule, r.builds[0].args);
        const std::string& tir = l.text.text;
        QCOMPARE(l.table.tirLineCount(), int(linesOf(tir).size()));
        auto loop = [&](const std::string& v) {
            auto s = find(tir, "for " + v + " in ");
            return s.size() == 1 ? *s.begin() : -1;
        };
        const int x = loop("x"), yo = loop("y_outer"), ko = loop("k_outer"), ki = loop("k_inner");
        QVERIFY(x > 0 && yo > 0 && ko > 0 && ki > 0);
        auto links = [&](const char* prefix) {
            return asSet(l.table.tirLinesOf(scriptLine(prefix)));
        };
        // Each split lights the loops it made; the reduction's init nest has
        // a copy of y_outer, which the y split made too.
        QCOMPARE(links("ko, ki = s[C].split(k"), (std::set<int>{ko, ki}));
        auto ySplit = links("yo, yi = s[C].split(y");
        QVERIFY(ySplit.count(yo));
        for (int t : ySplit)
            QVERIFY(linesOf(tir)[size_t(t - 1)].find("y_outer") != std::string::npos ||
                    linesOf(tir)[size_t(t - 1)].find("C[") != std::string::npos);
        QCOMPARE(links("s[C].parallel(x)"), (std::set<int>{x}));
        // The vectorized loop is gone: its line lights the statements in the
        // innermost loop that is left (k_inner's body: the vector update).
        auto vec = links("s[C].vectorize(yi)");
        QVERIFY(!vec.empty());
        for (int t : vec)
            QVERIFY2(linesOf(tir)[size_t(t - 1)].find("C[") != std::string::npos,
                     linesOf(tir)[size_t(t - 1)].c_str());
        // The compute defines the stage: its stores and its loops.
        auto compute = links("C = te.compute(");
        for (int t : find(tir, "C["))
            QVERIFY(compute.count(t));
        QVERIFY(compute.count(x) && compute.count(ko));
        // And back: k_inner comes from the reduce axis, the compute, the split, the reorder.
        QCOMPARE(asSet(l.table.scriptLinesOf(ki)),
                 (std::set<int>{scriptLine("k = te.reduce_axis"), scriptLine("C = te.compute("),
                                scriptLine("ko, ki = s[C].split(k"),
                                scriptLine("s[C].reorder(x, yo, ko, ki, yi)")}));
        // Lines that make nothing link nothing; out of range is harmless.
        QVERIFY(links("M = 64").empty());
        QVERIFY(l.table.tirLinesOf(1000).empty());
        QVERIFY(l.table.scriptLinesOf(-1).empty());
    }

    void cppScheduleRecordsNothing() {
        using namespace te;
        Tensor A = placeholder({Expr(16)}, DataType::float32(), "A");
        Tensor B = compute({Expr(16)}, [&](const std::vector<tir::Var>& v) { return A({v[0]}); }, "B");
        Schedule s = createSchedule({B->op});
        s[B].split(dynamic_cast<const ComputeOpNode*>(B->op.get())->axis[0], Expr(4));
        QVERIFY(!s.hasSources());
        Lowered l = lower(s, {A, B});
        QVERIFY(l.table.empty());
        QVERIFY(l.table.tirLineCount() > 0);
    }
};

QTEST_APPLESS_MAIN(TestScriptLines)
#include "tst_scriptlines.moc"
