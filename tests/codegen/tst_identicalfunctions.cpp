// Functions that are the same code under other names are built once and
// aliased (codegen/IdenticalFunctions.h); different ones never are.
#include "codegen/CodeGenLLVM.h"
#include "codegen/IdenticalFunctions.h"
#include "codegen/Target.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <QtTest>

#include <cstdlib>
#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::tir;

namespace {

/// name(A, B, C): C[i] = A[i] * scale + B[i] + offset, vectors of 8 over 64
/// elements; every call makes new variables and buffers named after `prefix`.
PrimFunc scaledAdd(const std::string& name, const std::string& prefix, double scale, int offset) {
    auto buf = [&](const char* b) { return Buffer::make(prefix + b, DataType::float32(), {Expr(64)}); };
    Buffer a = buf("A"), b = buf("B"), c = buf("C");
    Var i(prefix + "i");
    Expr idx = RampNode::make(i * 8, Expr(1), 8);
    Expr v = BufferLoadNode::make(a, {idx}) * BroadcastNode::make(Expr(scale), 8) + BufferLoadNode::make(b, {idx});
    if (offset) v = v + BroadcastNode::make(Expr(double(offset)), 8);
    Stmt body = ForNode::make(i, Expr(0), Expr(8), ForKind::Serial, BufferStoreNode::make(c, v, {idx}));
    return PrimFunc::make(name, {a, b, c}, body);
}

} // namespace

class TestIdenticalFunctions : public QObject {
    Q_OBJECT
private slots:
    void canonicalNamesKeepTheLanguage() {
        const std::string text = "def f(A: T.Buffer((4,), \"float32\")):\n"
                                 "    for i in range(4):\n"
                                 "        A[i] = T.float32(1e-05) + A[i]\n";
        QCOMPARE(codegen::canonicalNames(text), std::string("def %0(%1: T.Buffer((4,), \"float32\")):\n"
                                                            "    for %2 in range(4):\n"
                                                            "        %1[%2] = T.float32(1e-05) + %1[%2]\n"));
    }

    void sameCodeUnderOtherNamesIsFound() {
        std::vector<PrimFunc> fs = {scaledAdd("f0", "x_", 1.5, 0), scaledAdd("f1", "y_", 1.5, 0),
                                    // differs in the last bit of a float32 constant only, which
                                    // the printer's 9 digits may not show
                                    scaledAdd("f2", "z_", 1.5000001, 0), scaledAdd("f3", "w_", 1.5, 2),
                                    scaledAdd("f4", "v_", 1.5, 0)};
        std::vector<std::string> printed;
        for (auto& f : fs) printed.push_back(printPrimFunc(f).text);
        QCOMPARE(codegen::identicalFunctions(fs, printed), (std::vector<size_t>{0, 0, 2, 3, 0}));
    }

    void identicalFunctionsAreBuiltOnceAndAllCallable() {
        std::vector<PrimFunc> fs = {scaledAdd("f0", "x_", 1.5, 0), scaledAdd("f1", "y_", 1.5, 0),
                                    scaledAdd("f2", "z_", 2.5, 0), scaledAdd("f3", "w_", 1.5, 0)};
        codegen::BuildOptions o;
        o.debugInfo = false;
        o.emitAssembly = false;
        codegen::BuildResult r = codegen::build(fs, codegen::hostTarget(), o);
        QVERIFY2(r.llvmIR.find("@f1 = alias") != std::string::npos, r.llvmIR.c_str());
        QVERIFY(r.llvmIR.find("@f3 = alias") != std::string::npos);
        QVERIFY(r.llvmIR.find("@f2 = alias") == std::string::npos);
        QVERIFY(r.llvmIR.find("define i32 @f2(") != std::string::npos);
        alignas(64) float a[64], b[64], c[64]; // kernels assume 64-byte aligned buffers
        for (int i = 0; i < 64; ++i) a[i] = float(i), b[i] = float(100 - i);
        for (const char* name : {"f0", "f1", "f2", "f3"}) {
            auto fn = r.module->function(name);
            QVERIFY2(fn, name);
            std::vector<void*> args{a, b, c};
            QCOMPARE(fn(args.data()), 0);
            const float scale = std::string(name) == "f2" ? 2.5f : 1.5f;
            for (int i = 0; i < 64; ++i) QCOMPARE(c[i], a[i] * scale + b[i]);
        }
        // With debug lines (the IDE's builds) every function keeps its own code.
        codegen::BuildResult d = codegen::build(fs, codegen::hostTarget());
        QVERIFY(d.llvmIR.find("= alias") == std::string::npos);
        QVERIFY(d.llvmIR.find("define i32 @f1(") != std::string::npos);
    }

    void anExportHasEverySymbol() {
        std::vector<PrimFunc> fs = {scaledAdd("g0", "x_", 1.5, 0), scaledAdd("g1", "y_", 1.5, 0)};
        codegen::BuildOptions o;
        o.debugInfo = false;
        const std::vector<char> obj = codegen::emitObject(fs, codegen::hostTarget(), o);
        const std::string text(obj.begin(), obj.end());
        QVERIFY(text.find("g0") != std::string::npos && text.find("g1") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestIdenticalFunctions)
#include "tst_identicalfunctions.moc"
