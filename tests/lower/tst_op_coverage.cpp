// Operator coverage across layers: every operator the graph registry knows
// has shape inference and either a strategy that computes it with the
// operator library (core/lower) or is marked fold-only (constant folding
// removes it before code generation), or is rewritten by a graph pass
// (expandedBy: RNN, GRU, LSTM; the integer products).
// Failures are listed by operator name.
#include "graph/OpRegistry.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/GraphPipeline.h"
#include "lower/StrategyRegistry.h"

#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

namespace {

/// Whether lowering can compute `op`: a strategy reads its node and calls a topi compute.
bool hasCompute(const std::string& op) {
    return tessel::lower::findStrategy(op) != nullptr;
}

std::string join(const std::vector<std::string>& names) {
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

} // namespace

class TestOpCoverage : public QObject {
    Q_OBJECT
private slots:
    void everyOperatorHasInferenceAndACompute() {
        std::vector<std::string> noInfer, noCompute;
        for (const auto& op : tessel::graph::graphOps()) {
            if (!op.infer) noInfer.push_back(op.name);
            // Control flow (If, Loop, Scan) and operators whose output shape
            // is data (NonZero ...) run on the host around compiled regions
            // (driver/ControlFlowProgram.h, driver/HostOps.h), never as a kernel.
            if (!op.foldOnly && op.expandedBy.empty() && !op.controlFlow && !op.dataDependent &&
                !hasCompute(op.name))
                noCompute.push_back(op.name);
        }
        QVERIFY2(noInfer.empty(), ("no shape inference: " + join(noInfer)).c_str());
        QVERIFY2(
            noCompute.empty(),
            ("no compute in the operator library and not fold-only: " + join(noCompute)).c_str());
    }

    void expandedOperatorsNameTheirPass() {
        // An operator that a graph pass rewrites (RNN, GRU, LSTM, MatMulInteger
        // ...): the pass exists and is in the default pipeline, and the
        // operator has no compute of its own unless the pass keeps it somewhere.
        int expanded = 0;
        const auto pipeline = tessel::graph::defaultGraphPipeline();
        for (const auto& op : tessel::graph::graphOps()) {
            if (op.expandedBy.empty()) continue;
            ++expanded;
            QVERIFY2(tessel::graph::findGraphPass(op.expandedBy), op.name.c_str());
            QVERIFY2(std::find(pipeline.begin(), pipeline.end(), op.expandedBy) != pipeline.end(), op.name.c_str());
            // ConvInteger is expanded only where its record does not apply:
            // on a CPU, with constant 8-bit weights and one group, expand-quantized
            // keeps it for conv_integer_nchwc (option conv-integer).
            if (op.name == "ConvInteger") QVERIFY(hasCompute(op.name));
            else QVERIFY2(!hasCompute(op.name), op.name.c_str());
        }
        QCOMPARE(expanded, 7);
    }

    void foldOnlyOperatorsHaveNoCompute() {
        // A fold-only operator with a compute is marked wrongly: fold-constant
        // would fold it whatever its size instead of leaving it to its kernel.
        std::vector<std::string> wrong;
        int foldOnly = 0;
        for (const auto& op : tessel::graph::graphOps()) {
            if (!op.foldOnly) continue;
            ++foldOnly;
            if (hasCompute(op.name)) wrong.push_back(op.name);
        }
        QVERIFY(foldOnly > 0);
        QVERIFY2(wrong.empty(), ("fold-only but computed: " + join(wrong)).c_str());
    }
};

QTEST_GUILESS_MAIN(TestOpCoverage)
#include "tst_op_coverage.moc"
