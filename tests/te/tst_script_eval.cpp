// Running TE scripts against the TE API: the GEMM snippet as written, TVM
// tutorial code pasted in, Python semantics, schedule primitives, inferred
// and explicit builds, and errors from the TE API located at the script call.

#include "te/script/Script.h"
#include "te/script/builtins/Builtins.h"
#include "tir/IROperators.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::te;
using namespace tessel::te::script;

namespace {

const char* kGemm = R"(k = te.reduce_axis((0, K), "k")
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], bn, bn)
(k,) = s[C].op.reduce_axis
ko, ki = s[C].split(k, factor=4)
s[C].reorder(xo, yo, ko, xi, ki, yi)
s[C].vectorize(yi)
)";

ScriptOptions gemmOptions() {
    ScriptOptions o;
    o.fileName = "examples/gemm.te";
    o.intGlobals = {{"M", 1024}, {"N", 1024}, {"K", 1024}, {"bn", 32}};
    return o;
}

/// Runs a script that must succeed; fails the test with its message otherwise.
ScriptResult run(const std::string& src, const ScriptOptions& o = {}) {
    try {
        return runScript(src, o);
    } catch (const CompileError& e) {
        qWarning("%s", e.diagnostic().str().c_str());
        throw;
    }
}

/// The error of a script that must fail.
Diagnostic failure(const std::string& src, const ScriptOptions& o = {}) {
    try {
        runScript(src, o);
    } catch (const CompileError& e) {
        return e.diagnostic();
    }
    return Diagnostic{Diagnostic::Severity::Note, "(no error)", {}};
}

const Value& global(const ScriptResult& r, const char* name) {
    const Value* v = r.global(name);
    if (!v) throw std::runtime_error(std::string("no global ") + name);
    return *v;
}

const IterVar& iv(const ScriptResult& r, const char* name) {
    return global(r, name).asIterVar();
}
const Tensor& tensor(const ScriptResult& r, const char* name) {
    return global(r, name).asTensor();
}

int64_t constOf(const tir::Expr& e) {
    auto c = tir::asConstInt(e);
    return c ? *c : -1;
}

const ComputeOpNode* computeOp(const Tensor& t) {
    return dynamic_cast<const ComputeOpNode*>(t->op.get());
}

const char* kStagePrelude = "A = te.placeholder((8,), name=\"A\")\n"
                            "C = te.compute((8,), lambda i: A[i] * 2, name=\"C\")\n"
                            "s = te.create_schedule(C.op)\n";

} // namespace

class TestScriptEval : public QObject {
    Q_OBJECT

private slots:
    void gemmSnippetRunsAsWritten();
    void gemmSnippetWithItsOwnSizes();
    void tvmTutorialPaste();
    void tensorsAndAttributes();
    void pythonSemantics();
    void expressionArithmetic();
    void reductionsAndConditions();
    void schedulePrimitives();
    void cacheWrite();
    void teApiErrorsCarryTheCallLocation();
    void inferredBuilds();
    void explicitBuilds();
    void predefinedValues();
    void printAndGlobals();
    void lambdasAndImports();
    void limitsStopHostileScripts();
    void exampleScriptsRun();
    void modulesFromTheCaller();
};

void TestScriptEval::gemmSnippetRunsAsWritten() {
    ScriptResult r = run(kGemm, gemmOptions());

    const Tensor& A = tensor(r, "A");
    const Tensor& B = tensor(r, "B");
    const Tensor& C = tensor(r, "C");
    QCOMPARE(A.name(), std::string("A"));
    QCOMPARE(B.name(), std::string("B"));
    QCOMPARE(C.name(), std::string("C"));
    QCOMPARE(A.ndim(), 2);
    QCOMPARE(constOf(A->shape[0]), int64_t(1024));
    QCOMPARE(constOf(B->shape[1]), int64_t(1024));
    QCOMPARE(constOf(C->shape[0]), int64_t(1024));
    QCOMPARE(constOf(C->shape[1]), int64_t(1024));
    QVERIFY(C->dtype == DataType::float32());
    QCOMPARE(A->op->opKind(), OpKind::Placeholder);

    // The lambda's parameters name the axes.
    const ComputeOpNode* c = computeOp(C);
    QVERIFY(c);
    QCOMPARE(c->axis[0]->var.name(), std::string("x"));
    QCOMPARE(c->axis[1]->var.name(), std::string("y"));

    // `(k,) = s[C].op.reduce_axis` rebinds k to the same IterVar te.sum got.
    QCOMPARE(c->reduceAxis.size(), size_t(1));
    QVERIFY(iv(r, "k").sameAs(c->reduceAxis[0]));
    QCOMPARE(constOf(iv(r, "k")->dom.extent), int64_t(1024));

    // The stage's leaf loops after the snippet: xo, yo, ko, xi, ki, yi.
    const Schedule& s = global(r, "s").asSchedule();
    Stage st = s[C];
    const auto& leaves = st.data().leafIterVars;
    const char* order[] = {"xo", "yo", "ko", "xi", "ki", "yi"};
    QCOMPARE(leaves.size(), size_t(6));
    for (size_t i = 0; i < 6; ++i)
        QVERIFY2(leaves[i].sameAs(iv(r, order[i])), order[i]);
    auto ann = st.data().annotations.find(iv(r, "yi").get());
    QVERIFY(ann != st.data().annotations.end());
    QCOMPARE(ann->second, IterAnnotation::Vectorize);

    // ko, ki come from splitting k by 4.
    bool found = false;
    for (auto& rel : st.data().relations)
        if (rel.kind == IterRelation::Kind::Split && rel.parent.sameAs(iv(r, "k"))) {
            found = true;
            QVERIFY(rel.outer.sameAs(iv(r, "ko")));
            QVERIFY(rel.inner.sameAs(iv(r, "ki")));
            QCOMPARE(constOf(rel.factor), int64_t(4));
        }
    QVERIFY(found);

    // No build call: one is inferred from `s`, the placeholders and the output.
    QCOMPARE(r.builds.size(), size_t(1));
    const BuildRequest& b = r.builds[0];
    QVERIFY(b.inferred);
    QCOMPARE(b.name, std::string("gemm"));
    QCOMPARE(b.args.size(), size_t(3));
    QVERIFY(b.args[0].same(A));
    QVERIFY(b.args[1].same(B));
    QCOMPARE(b.args[2].name(), std::string("C"));
    QCOMPARE(&b.schedule.data(), &s.data());
    QCOMPARE(r.placeholders.size(), size_t(2));
    QCOMPARE(r.schedules.size(), size_t(1));
}

void TestScriptEval::gemmSnippetWithItsOwnSizes() {
    ScriptResult r = run(std::string("M = N = K = 1024\nbn = 32\n") + kGemm);
    QCOMPARE(global(r, "M").asInt(), int64_t(1024));
    QCOMPARE(global(r, "K").asInt(), int64_t(1024));
    Stage st = global(r, "s").asSchedule()[tensor(r, "C")];
    QCOMPARE(st.data().leafIterVars.size(), size_t(6));
    QVERIFY(st.data().leafIterVars[2].sameAs(iv(r, "ko")));
    QCOMPARE(r.builds.size(), size_t(1));
    QCOMPARE(r.builds[0].name, std::string("main"));
    // Globals in first-assignment order.
    QCOMPARE(r.globals[0].first, std::string("M"));
    QCOMPARE(r.globals[3].first, std::string("bn"));
    QCOMPARE(r.globals[4].first, std::string("k"));
}

void TestScriptEval::tvmTutorialPaste() {
    const char* src = R"(import tvm
from tvm import te

# The sizes of the matrices.
M = 1024
K = 1024
N = 1024
dtype = "float32"
target = tvm.target.Target(target="llvm", host="llvm")

k = te.reduce_axis((0, K), "k")
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
C = te.compute((M, N), lambda m, n: te.sum(A[m, k] * B[k, n], axis=k), name="C")

s = te.create_schedule(C.op)
bn = 32
xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], bn, bn)
(k,) = s[C].op.reduce_axis
ko, ki = s[C].split(k, factor=4)
s[C].reorder(xo, yo, ko, ki, xi, yi)
print(tvm.lower(s, [A, B, C], simple_mode=True))
func = tvm.build(s, [A, B, C], target=target, name="mmult")
assert_ok = func is not None if False else True
)";
    // `is` is not supported: check that the last line fails where expected,
    // and that everything before it runs.
    Diagnostic d = failure(src);
    QCOMPARE(d.str(), std::string("24:18: error: 'is' is not supported in TE scripts"));

    std::string ok(src);
    ok = ok.substr(0, ok.find("assert_ok"));
    ScriptResult r = run(ok);
    QCOMPARE(r.builds.size(), size_t(2));
    QCOMPARE(r.builds[0].kind, BuildRequest::Kind::Lower);
    const BuildRequest& b = r.builds[1];
    QCOMPARE(b.kind, BuildRequest::Kind::Build);
    QVERIFY(!b.inferred);
    QCOMPARE(b.name, std::string("mmult"));
    QCOMPARE(b.target, std::string("llvm"));
    QCOMPARE(b.loc.line, 23);
    QCOMPARE(b.loc.column, 12);
    QCOMPARE(b.args.size(), size_t(3));
    QVERIFY(b.args[2].same(tensor(r, "C")));
    QCOMPARE(r.printed.size(), size_t(1));
    QCOMPARE(r.printed[0], std::string("<IRModule>"));
    QCOMPARE(global(r, "dtype").asString(), std::string("float32"));

    // The build result cannot be used further.
    Diagnostic use = failure(ok + "func(1, 2, 3)\n");
    QCOMPARE(use.loc.line, 24);
    QVERIFY(use.message.find("cannot be used inside a TE script") != std::string::npos);
}

void TestScriptEval::tensorsAndAttributes() {
    ScriptResult r = run(R"(
A = te.placeholder((M, N), name="A", dtype="float64")
C = te.compute((M, N), lambda i, j: A[i, j] + 1, name="C", tag="elemwise")
shape = C.shape
ndim = C.ndim
dt = C.dtype
nm = C.name
ins = C.op.input_tensors
ax = C.op.axis
dom = ax[1].dom
ext = dom.extent
v = ax[0].var
tag = C.op.tag
same = C.op.output(0) == C
P = A.op.shape
n = len(C.shape)
)",
                         gemmOptions());
    const Value& shape = global(r, "shape");
    QVERIFY(shape.is(Value::Kind::Tuple));
    QCOMPARE(shape.items().size(), size_t(2));
    QCOMPARE(shape.items()[0].asInt(), int64_t(1024));
    QCOMPARE(global(r, "ndim").asInt(), int64_t(2));
    QCOMPARE(global(r, "dt").asString(), std::string("float64"));
    QCOMPARE(global(r, "nm").asString(), std::string("C"));
    QCOMPARE(global(r, "tag").asString(), std::string("elemwise"));
    QCOMPARE(global(r, "ins").items().size(), size_t(1));
    QVERIFY(global(r, "ins").items()[0].asTensor().same(tensor(r, "A")));
    QCOMPARE(global(r, "ax").items().size(), size_t(2));
    QCOMPARE(global(r, "ext").asInt(), int64_t(1024));
    QCOMPARE(global(r, "v").asExpr().as<tir::VarNode>()->name, std::string("i"));
    QVERIFY(global(r, "same").asBool());
    QCOMPARE(global(r, "P").items()[1].asInt(), int64_t(1024));
    QCOMPARE(global(r, "n").asInt(), int64_t(2));
    QCOMPARE(computeOp(tensor(r, "C"))->axis[1]->var.name(), std::string("j"));
    QVERIFY(tensor(r, "C")->dtype == DataType::float64());
}

void TestScriptEval::pythonSemantics() {
    ScriptResult r = run(R"(
a = 7 // 2
b = -7 // 2
c = -7 % 3
d = 2 ** 10
e = 7 / 2
f = (1, 2) + (3,)
g = [0] * 3
h = len(range(10))
i = min(3, 1, 2)
j = max([4, 9, 2])
l = int(3.9)
m = 1 if 0 else 2
n = not 0
o = 1 < 2 < 3
o2 = 1 < 3 < 2
p = "ab" * 2
q = abs(-5)
r = True + 1
t = -7.5 // 2
u = 2 ** -1
w = (1, 2)[-1]
x = 0 or "x"
y = 3 and 4
z = range(2, 10, 3)
bn = 4
bn += 1
bn *= 3
mx = M // bn
)",
                         gemmOptions());
    auto I = [&](const char* n) { return global(r, n).asInt(); };
    QCOMPARE(I("a"), int64_t(3));
    QCOMPARE(I("b"), int64_t(-4));
    QCOMPARE(I("c"), int64_t(2));
    QCOMPARE(I("d"), int64_t(1024));
    QCOMPARE(global(r, "e").asFloat(), 3.5);
    QCOMPARE(global(r, "f").items().size(), size_t(3));
    QVERIFY(global(r, "g").is(Value::Kind::List));
    QCOMPARE(global(r, "g").items().size(), size_t(3));
    QCOMPARE(I("h"), int64_t(10));
    QCOMPARE(I("i"), int64_t(1));
    QCOMPARE(I("j"), int64_t(9));
    QCOMPARE(I("l"), int64_t(3));
    QCOMPARE(I("m"), int64_t(2));
    QVERIFY(global(r, "n").asBool());
    QVERIFY(global(r, "o").asBool());
    QVERIFY(!global(r, "o2").asBool());
    QCOMPARE(global(r, "p").asString(), std::string("abab"));
    QCOMPARE(I("q"), int64_t(5));
    QCOMPARE(I("r"), int64_t(2));
    QCOMPARE(global(r, "t").asFloat(), -4.0);
    QCOMPARE(global(r, "u").asFloat(), 0.5);
    QCOMPARE(I("w"), int64_t(2));
    QCOMPARE(global(r, "x").asString(), std::string("x"));
    QCOMPARE(I("y"), int64_t(4));
    QCOMPARE(repr(global(r, "z")), std::string("[2, 5, 8]"));
    QCOMPARE(I("bn"), int64_t(15));
    QCOMPARE(I("mx"), int64_t(68));
}

void TestScriptEval::expressionArithmetic() {
    ScriptResult r = run(R"(
n = te.var("n")
e1 = n // 4
e2 = n % 4
e3 = n * 2 + 1
e4 = te.floordiv(7, 2)
e5 = te.truncdiv(-7, 2)
e6 = te.floormod(-7, 2)
e7 = n < 3
e8 = (n < 3) & (n > 0)
e9 = te.const(1.5)
e10 = te.const(3, "int64")
e11 = -n
A = te.placeholder((16,), name="A")
C = te.compute((16,), lambda i: A[i // 4] * 2 + A[i % 4], name="C")
ax = C.op.axis[0] + 1
f = A[3].astype("float64")
)");
    auto E = [&](const char* n) { return global(r, n).asExpr(); };
    QVERIFY(E("e1").as<tir::FloorDivNode>());
    QVERIFY(E("e2").as<tir::FloorModNode>());
    QVERIFY(E("e3").as<tir::AddNode>());
    QCOMPARE(global(r, "e4").asInt(), int64_t(3));
    QCOMPARE(global(r, "e5").asInt(), int64_t(-3));
    QCOMPARE(global(r, "e6").asInt(), int64_t(1));
    QVERIFY(E("e7").as<tir::LTNode>());
    QVERIFY(E("e8").as<tir::AndNode>());
    QVERIFY(E("e9").type() == DataType::float32());
    QVERIFY(E("e10").type() == DataType::int64());
    QVERIFY(E("e11").as<tir::SubNode>() || E("e11").as<tir::MulNode>());
    QVERIFY(E("f").type() == DataType::float64());

    // An IterVar in arithmetic stands for its variable.
    const ComputeOpNode* c = computeOp(tensor(r, "C"));
    auto* add = E("ax").as<tir::AddNode>();
    QVERIFY(add);
    QVERIFY(add->a.sameAs(c->axis[0]->var));
    // Reads of A in the body: A[i // 4] and A[i % 4].
    QCOMPARE(c->inputTensors().size(), size_t(1));
}

void TestScriptEval::reductionsAndConditions() {
    ScriptResult r = run(R"(
N = 16
A = te.placeholder((N, N), name="A")
r = te.reduce_axis((0, N), name="r")
Mx = te.compute((N,), lambda i: te.max(A[i, r], axis=r, where=r < i), name="Mx")
r2 = te.reduce_axis((0, N), name="r2")
Mn = te.compute((N,), lambda i: te.min(A[i, r2], axis=[r2]), name="Mn")
Relu = te.compute((N, N), lambda i, j: te.if_then_else(A[i, j] > 0, A[i, j], 0.0), name="Relu")
Relu2 = te.compute((N, N), lambda i, j: A[i, j] if A[i, j] > 0 else 0.0, name="Relu2")
Pad = te.compute((N + 2,), lambda i: te.if_then_else(te.all(i >= 1, i < N + 1), A[i - 1, 0], 0.0), name="Pad")
E = te.compute((N,), lambda i: te.exp(A[i, 0]) + te.sqrt(A[i, 1]) * te.max(A[i, 2], 0.0), name="E")
)");
    auto body = [&](const char* n) { return computeOp(tensor(r, n))->body[0]; };
    auto* mx = body("Mx").as<tir::ReduceNode>();
    QVERIFY(mx);
    QCOMPARE(mx->combiner, tir::ReduceKind::Max);
    QVERIFY(mx->condition.defined());
    QVERIFY(mx->axis[0].sameAs(global(r, "r").asIterVar()));
    QCOMPARE(body("Mn").as<tir::ReduceNode>()->combiner, tir::ReduceKind::Min);
    QVERIFY(body("Relu").as<tir::SelectNode>());
    QVERIFY(body("Relu2").as<tir::SelectNode>());
    QCOMPARE(constOf(tensor(r, "Pad")->shape[0]), int64_t(18));
    QVERIFY(body("E").as<tir::AddNode>());
}

void TestScriptEval::schedulePrimitives() {
    ScriptResult r = run(R"(
A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] * 2, name="B")
C = te.compute((64, 64), lambda i, j: B[i, j] + 1, name="C")
s = te.create_schedule(C.op)
io, ii = s[C].split(C.op.axis[0], nparts=4)
f = s[C].fuse(ii, C.op.axis[1])
fo, fi = s[C].split(f, 8)
s[C].parallel(io)
s[C].unroll(fi)
s[C].pragma(io, "auto_unroll_max_step", 16)
s[B].compute_at(s[C], fo)
leaves = s[C].leaf_iter_vars
stages = s.stages
order = [fi, fo]
s[B].reorder(*B.op.axis)
)");
    const Schedule& s = global(r, "s").asSchedule();
    Stage c = s[tensor(r, "C")];
    const auto& leaves = c.data().leafIterVars;
    QCOMPARE(leaves.size(), size_t(3));
    QVERIFY(leaves[0].sameAs(iv(r, "io")));
    QVERIFY(leaves[1].sameAs(iv(r, "fo")));
    QVERIFY(leaves[2].sameAs(iv(r, "fi")));
    QCOMPARE(c.data().annotations.at(iv(r, "io").get()), IterAnnotation::Parallel);
    QCOMPARE(c.data().annotations.at(iv(r, "fi").get()), IterAnnotation::Unroll);
    const auto& pragmas = c.data().pragmas.at(iv(r, "io").get());
    QCOMPARE(pragmas.size(), size_t(1));
    QCOMPARE(pragmas[0].first, std::string("auto_unroll_max_step"));
    QCOMPARE(constOf(pragmas[0].second), int64_t(16));
    Stage b = s[tensor(r, "B")];
    QCOMPARE(b.data().attach, AttachKind::Scope);
    QVERIFY(b.data().attachIter.sameAs(iv(r, "fo")));
    QCOMPARE(global(r, "leaves").items().size(), size_t(3));
    QCOMPARE(global(r, "stages").items().size(), size_t(3));
}

void TestScriptEval::cacheWrite() {
    ScriptResult r = run(std::string(kGemm) + R"(
s = te.create_schedule(C.op)
CC = s.cache_write(C, "local")
xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], 32, 32)
s[CC].compute_at(s[C], yo)
)",
                         gemmOptions());
    const Schedule& s = global(r, "s").asSchedule();
    QCOMPARE(s.stages().size(), size_t(4));
    Stage cc = s[tensor(r, "CC")];
    QCOMPARE(cc.data().scope, std::string("local"));
    QCOMPARE(cc.data().attach, AttachKind::Scope);
    // The inferred build uses the last `s`, and its output is still named C.
    QCOMPARE(r.builds.size(), size_t(1));
    QCOMPARE(&r.builds[0].schedule.data(), &s.data());
    QCOMPARE(r.builds[0].args.back().name(), std::string("C"));
}

void TestScriptEval::teApiErrorsCarryTheCallLocation() {
    struct Case {
        std::string src;
        int line, column;
        const char* prefix;
    };
    const std::string gemm = std::string(kGemm);
    const std::vector<Case> cases = {
        {kStagePrelude + std::string("xo, xi = s[C].split(C.op.axis[0], factor=0)\n"), 4, 15,
         "split"},
        {gemm + "s[C].vectorize(ki)\n", 11, 6, "vectorize"},
        {gemm + "s[C].parallel(ko)\n", 11, 6, "parallel"},
        {gemm + "s[C].fuse(xo, ki)\n", 11, 6, "fuse"},
        {gemm + "s[C].reorder(xo, xo)\n", 11, 6, "reorder"},
        {gemm + "s[C].compute_inline()\n", 11, 6, "compute_inline"},
        {gemm + "s[C].vectorize(C.op.axis[0])\n", 11, 6, "vectorize"},
        {gemm + "D = te.compute((4,), lambda i: i)\nx = s[D]\n", 12, 6, ""},
        {"s = te.create_schedule([])\n", 1, 8, "create_schedule"},
        {"C = te.compute((0,), lambda i: i)\n", 1, 8, ""},
        {"k = te.reduce_axis((4, 4), \"k\")\n", 1, 8, "reduce_axis"},
        {"A = te.placeholder((4,), name=\"A\")\nx = te.sum(A[0], axis=A.op)\n", 2, 18, "te.sum()"},
        {"A = te.placeholder((4,), name=\"A\")\nC = te.compute((4,), lambda i: te.sum(A[i], "
         "axis=[]))\n",
         2, 35, ""},
    };
    for (auto& c : cases) {
        Diagnostic d = failure(c.src, gemmOptions());
        QVERIFY2(d.severity == Diagnostic::Severity::Error, c.src.c_str());
        std::string what = c.src + "\n=> " + d.str();
        QVERIFY2(d.loc.line == c.line && d.loc.column == c.column, what.c_str());
        QVERIFY2(d.message.rfind(c.prefix, 0) == 0, what.c_str());
    }
}

void TestScriptEval::inferredBuilds() {
    ScriptOptions o;
    o.fileName = "/tmp/kernels/my_op.te";
    // Two schedules, `s` bound to the first: `s` wins.
    ScriptResult r =
        run(std::string(kStagePrelude) + "D = te.compute((8,), lambda i: C[i] + 1, name=\"D\")\n"
                                         "s2 = te.create_schedule(D.op)\n",
            o);
    QCOMPARE(r.builds.size(), size_t(1));
    QCOMPARE(r.builds[0].name, std::string("my_op"));
    QCOMPARE(&r.builds[0].schedule.data(), &global(r, "s").asSchedule().data());
    QCOMPARE(r.builds[0].args.size(), size_t(2));
    QCOMPARE(r.builds[0].args[1].name(), std::string("C"));

    // No `s`: the last schedule.
    r = run(
        "A = te.placeholder((8,), name=\"A\")\nC = te.compute((8,), lambda i: A[i], name=\"C\")\n"
        "a = te.create_schedule(C.op)\nD = te.compute((8,), lambda i: C[i] + 1, name=\"D\")\n"
        "b = te.create_schedule(D.op)\n");
    QCOMPARE(r.builds.size(), size_t(1));
    QCOMPARE(&r.builds[0].schedule.data(), &global(r, "b").asSchedule().data());
    QCOMPARE(r.builds[0].args.back().name(), std::string("D"));

    // No schedule at all: the default schedule of the last compute.
    r = run("A = te.placeholder((8,), name=\"A\")\nC = te.compute((8,), lambda i: A[i] * 3, "
            "name=\"C\")\n");
    QCOMPARE(r.builds.size(), size_t(1));
    QVERIFY(r.builds[0].inferred);
    QCOMPARE(r.builds[0].args.size(), size_t(2));
    QCOMPARE(r.builds[0].name, std::string("main"));

    // Nothing to build.
    r = run("A = te.placeholder((8,), name=\"A\")\n");
    QCOMPARE(r.builds.size(), size_t(0));

    // Inference off.
    ScriptOptions off;
    off.inferBuild = false;
    r = run(kStagePrelude, off);
    QCOMPARE(r.builds.size(), size_t(0));
}

void TestScriptEval::explicitBuilds() {
    ScriptResult r =
        run(std::string(kStagePrelude) + "tessel.build(s, [A, C], name=\"double\")\n"
                                         "m = tvm.lower(s, name=\"low\")\n"
                                         "f = tvm.build(m, target=\"llvm -mcpu=native\")\n");
    QCOMPARE(r.builds.size(), size_t(3));
    QCOMPARE(r.builds[0].name, std::string("double"));
    QCOMPARE(r.builds[0].loc.line, 4);
    QCOMPARE(r.builds[0].loc.column, 8);
    QVERIFY(!r.builds[0].inferred);
    QCOMPARE(r.builds[1].kind, BuildRequest::Kind::Lower);
    QCOMPARE(r.builds[1].args.size(), size_t(2)); // inferred args of an explicit call
    QCOMPARE(r.builds[2].kind, BuildRequest::Kind::Build);
    QCOMPARE(r.builds[2].name, std::string("low"));
    QCOMPARE(r.builds[2].target, std::string("llvm -mcpu=native"));

    Diagnostic d = failure(std::string(kStagePrelude) + "tvm.build(s, [A, 3])\n");
    QCOMPARE(d.str(), std::string("4:14: error: tvm.build(): args[1] must be a Tensor, not int"));
}

void TestScriptEval::predefinedValues() {
    Tensor A = te::placeholder({Expr(32), Expr(32)}, DataType::float32(), "A");
    ScriptOptions o;
    o.globals = {{"A", Value(A)}};
    o.intGlobals = {{"bn", 8}};
    ScriptResult r = run("C = te.compute(A.shape, lambda i, j: A[i, j] * 2, name=\"C\")\n"
                         "s = te.create_schedule(C.op)\n"
                         "xo, yo, xi, yi = s[C].tile(C.op.axis[0], C.op.axis[1], bn, bn)\n",
                         o);
    QVERIFY(computeOp(tensor(r, "C"))->inputTensors()[0].same(A));
    QCOMPARE(r.globals[0].first, std::string("bn"));
    QCOMPARE(r.globals[1].first, std::string("A"));
    // Predefined placeholders are not "created" by the script.
    QCOMPARE(r.placeholders.size(), size_t(0));
}

void TestScriptEval::printAndGlobals() {
    ScriptResult r = run(R"(print("a", 1, 2.5, None, True, sep="-")
print("x", end="")
print("y")
print((1,), [1, 'b'], 1e-05, 1e20, 0.1)
A = te.placeholder((4, 8), name="A")
print(A, A.shape, A.dtype)
C = te.compute((4,), lambda i: A[i, 0], name="C")
print(C.op.axis[0], C.op, te.reduce_axis((0, 3), "r").dom)
print("two\nlines")
)");
    std::vector<std::string> expected = {
        "a-1-2.5-None-True",
        "xy",
        "(1,) [1, 'b'] 1e-05 1e+20 0.1",
        "Tensor(shape=[4, 8], op.name=A) (4, 8) float32",
        "iter_var(i, range(min=0, ext=4)) compute(C) range(min=0, ext=3)",
        "two",
        "lines",
    };
    QCOMPARE(r.printed, expected);
}

void TestScriptEval::lambdasAndImports() {
    ScriptResult r = run(R"(import tvm.te as T
from tvm import te as t2, tir
from tessel import te as t3
add = lambda a, b: a + b
inc = lambda n: lambda x: add(x, n)
f = inc(5)
y = f(10)
z = add(b=1, a=2)
A = T.placeholder((4,), name="A")
B = t2.compute((4,), lambda i: tir.exp(A[i]), name="B")
C = t3.compute((4,), lambda i: A[i] + B[i], name="C")
same = T.compute == te.compute
)");
    QCOMPARE(global(r, "y").asInt(), int64_t(15));
    QCOMPARE(global(r, "z").asInt(), int64_t(3));
    QVERIFY(global(r, "same").asBool());
    QCOMPARE(computeOp(tensor(r, "C"))->inputTensors().size(), size_t(2));
}

void TestScriptEval::limitsStopHostileScripts() {
    ScriptOptions o;
    o.maxSteps = 100000;
    Diagnostic d = failure("f = lambda n: 0 if n == 0 else f(n - 1) + f(n - 1)\nx = f(40)\n", o);
    QVERIFY2(d.message.find("too many steps") != std::string::npos, d.str().c_str());
    d = failure("x = [1] * 1000000\ny = x * 2\n");
    QVERIFY2(d.message.find("more than 1000000 elements") != std::string::npos, d.str().c_str());
    d = failure("x = range(10 ** 12)\n");
    QVERIFY2(d.message.find("range()") != std::string::npos, d.str().c_str());
    d = failure("x = 10 ** 30\n");
    QVERIFY2(d.message.find("overflow") != std::string::npos, d.str().c_str());
    d = failure("A = te.placeholder((4000000000,), name=\"A\")\n");
    QVERIFY2(d.message.find("more than 2**31 - 1") != std::string::npos, d.str().c_str());
}

void TestScriptEval::exampleScriptsRun() {
    QDir dir(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/te"));
    const QStringList files = dir.entryList({QStringLiteral("*.te")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 2);
    for (const QString& f : files) {
        QFile file(dir.filePath(f));
        QVERIFY(file.open(QIODevice::ReadOnly));
        ScriptOptions o;
        o.fileName = f.toStdString();
        ScriptResult r = run(file.readAll().toStdString(), o);
        QVERIFY2(!r.builds.empty(), qPrintable(f));
        QVERIFY2(!r.builds[0].args.empty(), qPrintable(f));
    }

    // bias_relu.te: Y inlined, R fused, split and annotated; the inferred build
    // takes the placeholders then the output.
    QFile file(dir.filePath(QStringLiteral("bias_relu.te")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    ScriptOptions o;
    o.fileName = "bias_relu.te";
    ScriptResult r = run(file.readAll().toStdString(), o);
    const Schedule& s = global(r, "s").asSchedule();
    QCOMPARE(s[tensor(r, "Y")].data().attach, AttachKind::Inline);
    Stage st = s[tensor(r, "R")];
    QCOMPARE(st.data().leafIterVars.size(), size_t(2));
    QCOMPARE(st.data().annotations.at(iv(r, "inner").get()), IterAnnotation::Vectorize);
    QCOMPARE(r.builds[0].name, std::string("bias_relu"));
    QCOMPARE(r.builds[0].args.size(), size_t(3));
    QCOMPARE(r.builds[0].args[1].name(), std::string("bias"));
    QCOMPARE(r.builds[0].args[2].name(), std::string("R"));
}

// A layer above te (topi) adds its module through ScriptOptions::modules; a
// script run without it does not know the name.
void TestScriptEval::modulesFromTheCaller() {
    const std::string src = "A = te.placeholder((4,), name=\"A\")\nB = topi.nn.relu(A)\n";
    Diagnostic d = failure(src);
    QCOMPARE(d.message, std::string("name 'topi' is not defined"));
    QCOMPARE(d.loc.line, 2);
    QCOMPARE(d.loc.column, 5);
    d = failure("from tvm import topi\n");
    QVERIFY2(d.message.find("cannot import name 'topi' from 'tvm'") != std::string::npos, d.message.c_str());

    // An installer given by the caller runs after the builtin modules: its
    // module is a global name (and `from tvm import ext` when it says so),
    // and its functions write into the run's recorder.
    ScriptOptions o;
    o.modules.push_back([](BuiltinTable& t) {
        t.module("ext.nn").fn("twice", [](Interpreter& in, const Value&, const CallArgs& c) -> Value {
            BoundArgs a(in, "ext.nn.twice", c, {{"x", true}});
            return Value::integer(2 * a.integer(0));
        });
        t.alias("tvm.ext", "ext");
        auto rec = t.recorder();
        t.module("ext").fn("placeholders", [rec](Interpreter&, const Value&, const CallArgs&) -> Value {
            return Value::integer(int64_t(rec->placeholders.size()));
        });
    });
    ScriptResult r = run("from tvm import ext as e\nA = te.placeholder((4,), name=\"A\")\n"
                         "y = e.nn.twice(21)\nn = ext.placeholders()\n",
                         o);
    QCOMPARE(global(r, "y").asInt(), int64_t(42));
    QCOMPARE(global(r, "n").asInt(), int64_t(1));
    d = failure("y = ext.nn.twice(x=1, z=2)\n", o);
    QCOMPARE(d.message, std::string("ext.nn.twice() got an unexpected keyword argument 'z'"));
    QCOMPARE(d.loc.line, 1);
}

QTEST_APPLESS_MAIN(TestScriptEval)
#include "tst_script_eval.moc"
