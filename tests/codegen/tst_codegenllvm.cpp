// LLVM codegen: hand-built flattened TIR is JIT-compiled, run, and compared
// with plain C++; assembly, line maps, objects and targets are checked too.
#include "codegen/CodeGenLLVM.h"
#include "common/PairDot.h"
#include "codegen/SharedLibrary.h"
#include "codegen/Target.h"
#include "ir/Diagnostic.h"
#include "runtime/ParallelABI.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>
#include <sys/mman.h>
#include <unistd.h>
#include <limits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <sstream>

using namespace tessel;
using namespace tessel::tir;
using tessel::codegen::BuildOptions;
using tessel::codegen::BuildResult;

namespace {

const DataType f32 = DataType::float32();
const DataType i32 = DataType::int32();

/// A 64-byte aligned array, as the runtime hands buffers to kernels.
template <class T> struct Aligned {
    explicit Aligned(size_t n, T fill = T()) : size(n) {
        size_t bytes = ((n * sizeof(T) + 63) / 64) * 64;
        data.reset(static_cast<T*>(std::aligned_alloc(64, bytes ? bytes : 64)));
        for (size_t i = 0; i < n; ++i)
            data[i] = fill;
    }
    T& operator[](size_t i) { return data[i]; }
    T* get() { return data.get(); }
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T[], Free> data;
    size_t size;
};

/// n floats whose first (or last) element touches an inaccessible page: a
/// read before (or after) them faults.
struct Guarded {
    Guarded(size_t n, bool atEnd) {
        const size_t page = size_t(sysconf(_SC_PAGESIZE));
        bytes = 3 * page;
        void* m = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) throw std::runtime_error("mmap failed");
        base = static_cast<char*>(m);
        if (mprotect(base + page, page, PROT_READ | PROT_WRITE) != 0) throw std::runtime_error("mprotect failed");
        data = reinterpret_cast<float*>(atEnd ? base + 2 * page - n * sizeof(float) : base + page);
    }
    ~Guarded() { munmap(base, bytes); }
    Guarded(const Guarded&) = delete;
    Guarded& operator=(const Guarded&) = delete;
    char* base = nullptr;
    size_t bytes = 0;
    float* data = nullptr;
};

Expr load(const Buffer& b, Expr i) {
    return BufferLoadNode::make(b, {std::move(i)});
}
Stmt store(const Buffer& b, Expr v, Expr i) {
    return BufferStoreNode::make(b, std::move(v), {std::move(i)});
}
Stmt loop(Var v, Expr mn, Expr ext, Stmt body, ForKind k = ForKind::Serial) {
    return ForNode::make(std::move(v), std::move(mn), std::move(ext), k, std::move(body));
}
Buffer buffer(const char* name, int64_t n, DataType t = f32) {
    return Buffer::make(name, t, {Expr(int(n))});
}

BuildResult buildHost(const PrimFunc& f, BuildOptions opt = {}) {
    return codegen::build({f}, codegen::hostTarget(), opt);
}

int32_t run(const BuildResult& r, const std::string& name, std::vector<void*> args) {
    auto fn = r.module->function(name);
    if (!fn) throw std::runtime_error("no function " + name);
    return fn(args.data());
}

bool close(float a, float b, float rel = 1e-5f) {
    return std::fabs(a - b) <= rel * std::max(1.0f, std::max(std::fabs(a), std::fabs(b)));
}

int64_t floorDivRef(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t floorModRef(int64_t a, int64_t b) {
    return a - floorDivRef(a, b) * b;
}

/// C[i*16 : +16] = A[...] + B[...] for i in 0..n/16.
PrimFunc vectorAdd(int n) {
    Buffer A = buffer("A", n), B = buffer("B", n), C = buffer("C", n);
    Var i("i");
    Expr idx = RampNode::make(i * 16, Expr(1), 16);
    Stmt body = loop(i, 0, n / 16, store(C, load(A, idx) + load(B, idx), idx));
    return PrimFunc::make("vadd", {A, B, C}, body);
}

/// O[slot * n + i] = pair_dot_i16(A[i], B[i]) for scalars (slot 0) and
/// vectors of 2, 4, 8 and 16 lanes (slots 1-4).
PrimFunc pairDot(int n) {
    Buffer A = buffer("A", n, i32), B = buffer("B", n, i32), O = buffer("O", 5 * n, i32);
    std::vector<Stmt> seq;
    int slot = 0;
    for (int lanes : {1, 2, 4, 8, 16}) {
        Var v("v" + std::to_string(lanes));
        Expr idx = lanes == 1 ? Expr(v) : RampNode::make(v * lanes, Expr(1), lanes);
        Expr out = lanes == 1 ? Expr(v) + slot * n : RampNode::make(v * lanes + slot * n, Expr(1), lanes);
        seq.push_back(loop(v, 0, n / lanes, store(O, call(Intrinsic::PairDotI16, {load(A, idx), load(B, idx)}), out)));
        ++slot;
    }
    return PrimFunc::make("pdot", {A, B, O}, SeqStmtNode::make(seq));
}

/// O[0:16] += pair_dot_i16(A[k*16 : +16], B[k*16 : +16]) over k: the
/// accumulation a VNNI CPU fuses into vpdpwssd.
PrimFunc pairDotAccumulate(int n) {
    Buffer A = buffer("A", n, i32), B = buffer("B", n, i32), O = buffer("O", 16, i32);
    Var k("k");
    Expr idx = RampNode::make(k * 16, Expr(1), 16), out = RampNode::make(Expr(0), Expr(1), 16);
    Stmt body = store(O, load(O, out) + call(Intrinsic::PairDotI16, {load(A, idx), load(B, idx)}), out);
    return PrimFunc::make("pdot_acc", {A, B, O}, loop(k, 0, n / 16, body));
}

} // namespace

class TestCodeGenLLVM : public QObject {
    Q_OBJECT
private slots:
    void targets() {
        const Target& h = codegen::hostTarget();
        QVERIFY(!h.triple.empty());
        QVERIFY(!h.cpu.empty());
        QVERIFY(codegen::isHostTarget(h));
        QVERIFY(h.vectorBits >= 128);
        QCOMPARE(codegen::resolveTarget("host"), h);
        QCOMPARE(codegen::resolveTarget(h.str()), h);
        QCOMPARE(Target::parse(h.str()), h);

        Target a = codegen::resolveTarget("aarch64");
        QCOMPARE(QString::fromStdString(a.triple), QString("aarch64-unknown-linux-gnu"));
        QVERIFY(!codegen::isHostTarget(a));
        QCOMPARE(a.vectorBits, 128);
        QCOMPARE(codegen::resolveTarget(a.str()), a);
        QCOMPARE(QString::fromStdString(codegen::resolveTarget("aarch64-linux-gnu").triple),
                 QString("aarch64-unknown-linux-gnu"));
        QVERIFY(codegen::resolveTarget("armv7").triple.starts_with("armv7"));
        QVERIFY(codegen::resolveTarget("riscv64").triple.starts_with("riscv64"));
        QCOMPARE(codegen::resolveTarget("x86_64").vectorBits, 128);
        QCOMPARE(codegen::resolveTarget("x86_64 -mcpu=skylake-avx512").vectorBits, 512);
        QCOMPARE(codegen::resolveTarget("llvm -mtriple=x86_64-linux-gnu -mcpu=skylake-avx512").vectorBits, 512);
        QCOMPARE(QString::fromStdString(codegen::resolveTarget("aarch64 -mcpu=cortex-a72").cpu),
                 QString("cortex-a72"));
        // The host with another CPU: the host's triple, that CPU's vectors.
        Target hx = codegen::resolveTarget("host -mcpu=x86-64");
        QCOMPARE(hx.triple, h.triple);
        QCOMPARE(hx.vectorBits, 128);
        QVERIFY_THROWS_EXCEPTION(CompileError, codegen::resolveTarget("notanarch-foo-bar"));
        QVERIFY_THROWS_EXCEPTION(CompileError, codegen::resolveTarget("x86_64 -bogus"));
        // A GPU kind resolves (its host too) to LLVM's NVPTX backend: each
        // function is a kernel in PTX, nothing to run here.
        Target cuda = codegen::resolveTarget("cuda -mcpu=sm_90 -host={llvm -mtriple=aarch64}");
        QVERIFY(cuda.isGPU());
        QCOMPARE(cuda.triple, std::string("nvptx64-nvidia-cuda"));
        QCOMPARE(cuda.host->triple, std::string("aarch64-unknown-linux-gnu"));
        BuildResult ptx = codegen::build({vectorAdd(64)}, cuda);
        QVERIFY(!ptx.module);
        QVERIFY2(QString::fromStdString(ptx.assembly).contains(".visible .entry"), ptx.assembly.c_str());
        QCOMPARE(QString::fromStdString(codegen::resolveTarget("cuda").cpu), QString("sm_80"));
        QVERIFY_THROWS_EXCEPTION(CompileError, codegen::resolveTarget("cuda -mcpu=znver4"));
    }

    void vectorAddRuns() {
        const int n = 1024;
        BuildResult r = buildHost(vectorAdd(n));
        QVERIFY(r.module);
        Aligned<float> a(n), b(n), c(n, -1.0f);
        for (int i = 0; i < n; ++i)
            a[i] = 0.5f * i, b[i] = 1000.0f - i;
        QCOMPARE(run(r, "vadd", {a.get(), b.get(), c.get()}), 0);
        for (int i = 0; i < n; ++i)
            QCOMPARE(c[i], a[i] + b[i]);
        QCOMPARE(r.module->functionNames(), std::vector<std::string>{"vadd"});
        QVERIFY(r.module->function("nope") == nullptr);
        // The ABI: noalias + align 64 pointers on the internal function.
        QVERIFY(r.llvmIR.find("noalias nocapture align 64") != std::string::npos);
        QVERIFY(r.llvmIR.find("load <16 x float>") != std::string::npos);
    }

    void vectorAddUsesZmm() {
        if (codegen::hostTarget().vectorBits < 512) QSKIP("no AVX-512 on this host");
        BuildResult r = buildHost(vectorAdd(1024));
        QVERIFY2(r.assembly.find("zmm") != std::string::npos, r.assembly.c_str());
        QVERIFY(r.llvmIROptimized.find("\"prefer-vector-width\"=\"512\"") != std::string::npos);
    }

    void lineMaps() {
        PrimFunc f = vectorAdd(1024);
        AnnotatedText tir = printPrimFunc(f);
        const ForNode* forNode = f->body.as<ForNode>();
        QVERIFY(forNode);
        int storeLine = tir.lineOf(forNode->body.get());
        int forLine = tir.lineOf(forNode);
        QVERIFY(storeLine > 0 && forLine > 0);

        BuildResult r = buildHost(f);
        QCOMPARE(QString::fromStdString(r.tir), QString::fromStdString(tir.text));
        QCOMPARE(r.tirFirstLine, std::vector<int>{1});
        QVERIFY(r.assembly.find(".loc") != std::string::npos);
        QVERIFY(r.assembly.find(".debug_info") == std::string::npos); // stripped
        QVERIFY(r.llvmIROptimized.find("!DILocation(line: " + std::to_string(storeLine)) !=
                std::string::npos);

        // Assembly lines of the store exist and point back to it.
        const auto& asmLines = r.assemblyLines.linesOf(storeLine);
        QVERIFY2(!asmLines.empty(), r.assembly.c_str());
        for (int l : asmLines)
            QCOMPARE(r.assemblyLines.tirLine(l), storeLine);
        bool storeInstr =
            false; // one of them stores to memory (vmovups/vmovaps/movups ... to (%reg))
        std::vector<std::string> lines;
        {
            std::istringstream in(r.assembly);
            for (std::string s; std::getline(in, s);)
                lines.push_back(s);
        }
        for (int l : asmLines) {
            const std::string& s = lines[l - 1];
            if (s.find("mov") != std::string::npos && s.find(")") != std::string::npos)
                storeInstr = true;
            QVERIFY(s.find(".loc") == std::string::npos);
        }
        QVERIFY(storeInstr);
        // Every mapped TIR line is a real line of the TIR text.
        int tirLines = static_cast<int>(tir.lineNode.size());
        for (int l : r.assemblyLines.toTir)
            QVERIFY(l >= 0 && l <= tirLines);
        QVERIFY(!r.llvmIROptimizedLines.linesOf(storeLine).empty());
        QVERIFY(!r.llvmIRLines.linesOf(forLine).empty());

        // Without debug info there are no maps.
        BuildOptions opt;
        opt.debugInfo = false;
        BuildResult nd = buildHost(f, opt);
        QVERIFY(nd.assemblyLines.empty());
        QVERIFY(nd.assembly.find(".loc") == std::string::npos);
    }

    void lineMapParsers() {
        std::string ir = "define i32 @f(ptr %a) !dbg !4 {\n"
                         "  %x = load float, ptr %a, align 4, !dbg !9\n"
                         "  ret i32 0, !dbg !10\n"
                         "}\n"
                         "!4 = distinct !DISubprogram(name: \"f\", line: 2, scopeLine: 2)\n"
                         "!9 = !DILocation(line: 5, column: 0, scope: !4)\n"
                         "!10 = !DILocation(line: 0, scope: !4)\n";
        auto m = codegen::LineMap::fromLLVMIR(ir);
        QCOMPARE(m.tirLine(1), 2);
        QCOMPARE(m.tirLine(2), 5);
        QCOMPARE(m.tirLine(3), 0);
        QCOMPARE(m.tirLine(6), 0);
        QCOMPARE(m.linesOf(5), std::vector<int>{2});

        std::string s = "f:\n"
                        "\t.loc\t0 3 0\n"
                        "\tvmovups\t(%rdi), %zmm0\n"
                        "# %bb.1:\n"
                        "\t.loc\t0 0 0 is_stmt 0\n"
                        "\tvaddps\t%zmm1, %zmm0, %zmm0\n"
                        "\t.loc\t0 4 7 prologue_end\n"
                        ".LBB0_1:\n"
                        "\tvmovups\t%zmm0, (%rdx)\n"
                        "\tretq\n"
                        ".Lfunc_end0:\n"
                        "\tnop\n";
        auto a = codegen::LineMap::fromAssembly(s);
        QCOMPARE(a.toTir, (std::vector<int>{0, 0, 3, 0, 0, 0, 0, 0, 4, 4, 0, 0}));
        QCOMPARE(a.linesOf(4), (std::vector<int>{9, 10}));
        QVERIFY(a.linesOf(99).empty());
    }

    void gemmWithLocalAccumulator() {
        const int n = 64;
        Buffer A = buffer("A", n * n), B = buffer("B", n * n), C = buffer("C", n * n);
        Buffer acc = Buffer::make("acc", f32, {Expr(1)}, "local");
        Var i("i"), j("j"), k("k");
        Stmt inner =
            loop(k, 0, n, store(acc, load(acc, 0) + load(A, i * n + k) * load(B, k * n + j), 0));
        Stmt body =
            SeqStmtNode::make({store(acc, Expr(0.0), 0), inner, store(C, load(acc, 0), i * n + j)});
        body = AllocateNode::make(acc, body);
        Stmt s = loop(i, 0, n, loop(j, 0, n, body));
        BuildResult r = buildHost(PrimFunc::make("gemm", {A, B, C}, s));
        Aligned<float> a(n * n), b(n * n), c(n * n);
        for (int x = 0; x < n * n; ++x)
            a[x] = float((x * 7) % 13) - 6.0f, b[x] = float((x * 5) % 11) * 0.25f;
        QCOMPARE(run(r, "gemm", {a.get(), b.get(), c.get()}), 0);
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                float ref = 0;
                for (int z = 0; z < n; ++z)
                    ref = ref + a[y * n + z] * b[z * n + x];
                QVERIFY2(close(c[y * n + x], ref),
                         qPrintable(QString("%1 vs %2").arg(c[y * n + x]).arg(ref)));
            }
        QVERIFY(r.llvmIR.find("alloca float") != std::string::npos);
    }

    void reductionWithExp() {
        const int n = 1000;
        Buffer A = buffer("A", n), out = buffer("out", 1);
        Var i("i");
        Stmt s = SeqStmtNode::make({store(out, Expr(0.0), 0),
                                    loop(i, 0, n, store(out, load(out, 0) + exp(load(A, i)), 0))});
        BuildResult r = buildHost(PrimFunc::make("sumexp", {A, out}, s));
        Aligned<float> a(n), o(1);
        for (int x = 0; x < n; ++x)
            a[x] = std::sin(0.01f * x);
        QCOMPARE(run(r, "sumexp", {a.get(), o.get()}), 0);
        float ref = 0;
        for (int x = 0; x < n; ++x)
            ref += std::exp(a[x]);
        QVERIFY2(close(o[0], ref, 1e-4f), qPrintable(QString("%1 vs %2").arg(o[0]).arg(ref)));
    }

    void parallelLoop() {
        const int n = 1000;
        Buffer A = buffer("A", n), C = buffer("C", n);
        Var i("i"), scale("scale", f32), j("j");
        // let scale = 3; for i in parallel(1, n): for j in 0..1: C[i] = A[i] * scale + i
        Stmt inner = loop(j, 0, 1, store(C, load(A, i) * scale + cast(f32, i), i));
        Stmt s = LetStmtNode::make(scale, Expr(3.0), loop(i, 1, n - 1, inner, ForKind::Parallel));
        PrimFunc f = PrimFunc::make("par", {A, C}, s);
        BuildResult r = buildHost(f);
        QVERIFY(r.llvmIR.find("TesselParallelLaunch") != std::string::npos);
        Aligned<float> a(n), c(n, -7.0f);
        for (int x = 0; x < n; ++x)
            a[x] = float(x % 17);
        QCOMPARE(run(r, "par", {a.get(), c.get()}), 0);
        QCOMPARE(c[0], -7.0f);
        for (int x = 1; x < n; ++x)
            QCOMPARE(c[x], a[x] * 3.0f + float(x));
        QVERIFY(TesselParallelNumThreads() >= 1);
        // The same without debug info, and at O0.
        BuildOptions plain;
        plain.debugInfo = false;
        plain.optLevel = 0;
        BuildResult rp = buildHost(f, plain);
        Aligned<float> c2(n, -7.0f);
        QCOMPARE(run(rp, "par", {a.get(), c2.get()}), 0);
        for (int x = 0; x < n; ++x)
            QCOMPARE(c2[x], c[x]);

        // Nested parallel loops (the inner one runs serially inside a task), over 2-d data.
        Buffer D = buffer("D", 64 * 64);
        Var y("y"), x("x");
        Stmt nested =
            loop(y, 0, 64,
                 loop(x, 0, 64, store(D, cast(f32, y * 64 + x), y * 64 + x), ForKind::Parallel),
                 ForKind::Parallel);
        BuildResult r2 = buildHost(PrimFunc::make("par2", {D}, nested));
        Aligned<float> d(64 * 64);
        QCOMPARE(run(r2, "par2", {d.get()}), 0);
        for (int z = 0; z < 64 * 64; ++z)
            QCOMPARE(d[z], float(z));
    }

    void ifAndSelect() {
        const int n = 100;
        Buffer A = buffer("A", n), C = buffer("C", n);
        Var i("i");
        Expr a = load(A, i);
        Stmt s = loop(i, 0, n,
                      IfThenElseNode::make(truncmod(i, 3) == 0, store(C, a, i),
                                           store(C, select(a > Expr(0.0), a * Expr(2.0), -a), i)));
        BuildResult r = buildHost(PrimFunc::make("ifsel", {A, C}, s));
        Aligned<float> av(n), c(n);
        for (int x = 0; x < n; ++x)
            av[x] = float(x - 50) * 0.5f;
        QCOMPARE(run(r, "ifsel", {av.get(), c.get()}), 0);
        for (int x = 0; x < n; ++x) {
            float e = x % 3 == 0 ? av[x] : (av[x] > 0 ? av[x] * 2 : -av[x]);
            QCOMPARE(c[x], e);
        }
        // A vector select with a vector condition.
        Var v("v");
        Expr idx = RampNode::make(v * 8, Expr(1), 8);
        Expr va = load(A, idx);
        Stmt vs = loop(
            v, 0, n / 8,
            store(C, select(va > BroadcastNode::make(Expr(0.0), 8), va, va * Expr(-1.0)), idx));
        BuildResult r2 = buildHost(PrimFunc::make("vsel", {A, C}, vs));
        QCOMPARE(run(r2, "vsel", {av.get(), c.get()}), 0);
        for (int x = 0; x < n / 8 * 8; ++x)
            QCOMPARE(c[x], std::fabs(av[x]));
    }

    // TVM's if_then_else is lazy: a padded read evaluates its load only where
    // the condition holds. Each buffer here touches an inaccessible page (at
    // its start or its end), so an eager load of A[-1] or A[n] faults.
    void paddedReadsStayInTheirBuffer() {
        const int n = 64;
        Guarded atStart(n, false), atEnd(n, true);
        for (int x = 0; x < n; ++x) atStart.data[x] = atEnd.data[x] = float(x + 1);
        Buffer A = buffer("A", n), C = buffer("C", n);
        Var i("i"), v("v");
        auto runOn = [&](const char* name, Stmt body, Guarded& in, const std::function<float(int)>& want) {
            BuildResult r = buildHost(PrimFunc::make(name, {A, C}, body));
            Aligned<float> c(n, -7.0f);
            QCOMPARE(run(r, name, {in.data, c.get()}), 0);
            for (int x = 0; x < n; ++x)
                QVERIFY2(c[x] == want(x), qPrintable(QString("%1: C[%2] = %3, want %4").arg(name).arg(x).arg(c[x]).arg(want(x))));
        };
        const Expr zero8 = BroadcastNode::make(Expr(0.0), 8);
        // Scalar: C[i] = i >= 1 ? A[i - 1] : 0, and i < n - 1 ? A[i + 1] : 0.
        runOn("shift_right", loop(i, 0, n, store(C, select(i >= 1, load(A, i - 1), Expr(0.0)), i)), atStart,
              [&](int x) { return x >= 1 ? float(x) : 0.0f; });
        runOn("shift_left", loop(i, 0, n, store(C, select(i < n - 1, load(A, i + 1), Expr(0.0)), i)), atEnd,
              [&](int x) { return x < n - 1 ? float(x + 2) : 0.0f; });
        // Vectors, a condition per lane: masked loads.
        Expr lanes = RampNode::make(v * 8, Expr(1), 8);
        runOn("vshift_right",
              loop(v, 0, n / 8,
                   store(C, select(lanes >= BroadcastNode::make(Expr(1), 8), load(A, RampNode::make(v * 8 - 1, Expr(1), 8)), zero8),
                         lanes)),
              atStart, [&](int x) { return x >= 1 ? float(x) : 0.0f; });
        runOn("vshift_left",
              loop(v, 0, n / 8,
                   store(C, select(lanes < BroadcastNode::make(Expr(n - 1), 8), load(A, RampNode::make(v * 8 + 1, Expr(1), 8)), zero8),
                         lanes)),
              atEnd, [&](int x) { return x < n - 1 ? float(x + 2) : 0.0f; });
        // A gather (stride 2) under a lane condition, nested in a second select.
        Expr even = RampNode::make(v * 16 - 2, Expr(2), 8);
        runOn("vgather",
              loop(v, 0, n / 8,
                   store(C, select(lanes >= BroadcastNode::make(Expr(4), 8),
                                   select(lanes < BroadcastNode::make(Expr(n / 2 + 1), 8), load(A, even), zero8), zero8),
                         lanes)),
              atStart, [&](int x) { return x >= 4 && x < n / 2 + 1 ? float(2 * x - 1) : 0.0f; });
        // Vectors, one condition for the whole vector: a branch.
        runOn("vblock",
              loop(v, 0, n / 8, store(C, select(v >= 1, load(A, RampNode::make(v * 8 - 8, Expr(1), 8)), zero8), lanes)),
              atStart, [&](int x) { return x >= 8 ? float(x - 7) : 0.0f; });
        // A scalar read broadcast under a lane condition: read only when some lane takes it.
        runOn("vscalar",
              loop(v, 0, n / 8,
                   store(C, select(lanes >= BroadcastNode::make(Expr(8), 8), BroadcastNode::make(load(A, v * 8 - 8), 8), zero8),
                         lanes)),
              atStart, [&](int x) { return x >= 8 ? float(x / 8 * 8 - 7) : 0.0f; });
        // An integer division by a value that may be zero is not evaluated where its select does not take it.
        Buffer D = buffer("D", n, i32), E = buffer("E", n, i32);
        Stmt div = loop(i, 0, n, store(E, select(load(D, i) != 0, truncdiv(Expr(1000), load(D, i)), Expr(-1)), i));
        BuildResult rd = buildHost(PrimFunc::make("safediv", {D, E}, div));
        Aligned<int32_t> d(n), e(n);
        for (int x = 0; x < n; ++x) d[x] = x % 3;
        QCOMPARE(run(rd, "safediv", {d.get(), e.get()}), 0);
        for (int x = 0; x < n; ++x) QCOMPARE(e[x], x % 3 ? 1000 / (x % 3) : -1);
    }

    // On one condition for all lanes, an arm that costs more than a branch
    // (a call, a concatenation's chain of selects) is a branch of its own;
    // cheap arms stay a select. Either way the values are the select's.
    void costlyArmsBranch() {
        const int n = 64;
        Buffer A = buffer("A", n), B = buffer("B", n), C = buffer("C", n);
        Var v("v");
        Expr lanes = RampNode::make(v * 8, Expr(1), 8);
        Expr costly = CallNode::make(DataType::float32().withLanes(8), Intrinsic::Tanh, {load(A, lanes)});
        Stmt body = loop(v, 0, n / 8, store(C, select(v < 4, costly, load(B, lanes)), lanes));
        BuildResult r = buildHost(PrimFunc::make("branchy", {A, B, C}, body));
        QVERIFY2(r.llvmIR.find("if_then") != std::string::npos, r.llvmIR.c_str());
        Aligned<float> a(n), b(n), c(n, -7.0f);
        for (int x = 0; x < n; ++x) a[x] = 0.01f * float(x), b[x] = float(x);
        QCOMPARE(run(r, "branchy", {a.get(), b.get(), c.get()}), 0);
        for (int x = 0; x < n; ++x) QVERIFY(std::fabs(c[x] - (x < 32 ? std::tanh(a[x]) : b[x])) < 1e-5f);
        Stmt cheap = loop(v, 0, n / 8, store(C, select(v < 4, load(A, lanes), load(B, lanes)), lanes));
        BuildResult rc = buildHost(PrimFunc::make("cheap", {A, B, C}, cheap));
        QVERIFY2(rc.llvmIR.find("if_then") == std::string::npos, rc.llvmIR.c_str());
    }

    void floorDivModNegative() {
        const int n = 64;
        Buffer A = buffer("A", n, i32), B = buffer("B", n, i32);
        Buffer Q = buffer("Q", n, i32), R = buffer("R", n, i32);
        Buffer Q4 = buffer("Q4", n, i32), R4 = buffer("R4", n, i32);
        Buffer Q3 = buffer("Q3", n, i32), R3 = buffer("R3", n, i32);
        Buffer T = buffer("T", n, i32), M = buffer("M", n, i32);
        Var i("i");
        Expr a = load(A, i), b = load(B, i);
        Stmt s =
            loop(i, 0, n,
                 SeqStmtNode::make({store(Q, floordiv(a, b), i), store(R, floormod(a, b), i),
                                    store(Q4, floordiv(a, 4), i), store(R4, floormod(a, 4), i),
                                    store(Q3, floordiv(a, 3), i), store(R3, floormod(a, 3), i),
                                    store(T, truncdiv(a, b), i), store(M, truncmod(a, b), i)}));
        // Vector version over Ramp indices: floordiv/floormod by a broadcast constant 3 and by 8.
        Buffer VQ = buffer("VQ", n, i32), VR = buffer("VR", n, i32);
        Var v("v");
        Expr idx = RampNode::make(v * 8, Expr(1), 8);
        Stmt vs =
            loop(v, 0, n / 8,
                 SeqStmtNode::make(
                     {store(VQ, floordiv(load(A, idx), BroadcastNode::make(Expr(3), 8)), idx),
                      store(VR, floormod(load(A, idx), BroadcastNode::make(Expr(8), 8)), idx)}));
        PrimFunc f = PrimFunc::make("fdm", {A, B, Q, R, Q4, R4, Q3, R3, T, M, VQ, VR},
                                    SeqStmtNode::make({s, vs}));
        BuildResult r = buildHost(f);
        std::vector<Aligned<int32_t>> bufs;
        for (int k = 0; k < 12; ++k)
            bufs.emplace_back(n);
        for (int x = 0; x < n; ++x) {
            bufs[0][x] = (x * 37) % 41 - 20; // -20..20
            int d = (x % 9) - 4;             // -4..4, no 0
            bufs[1][x] = d == 0 ? 5 : d;
        }
        std::vector<void*> args;
        for (auto& b : bufs)
            args.push_back(b.get());
        QCOMPARE(run(r, "fdm", args), 0);
        for (int x = 0; x < n; ++x) {
            int64_t av = bufs[0][x], bv = bufs[1][x];
            QCOMPARE(int64_t(bufs[2][x]), floorDivRef(av, bv));
            QCOMPARE(int64_t(bufs[3][x]), floorModRef(av, bv));
            QCOMPARE(int64_t(bufs[4][x]), floorDivRef(av, 4));
            QCOMPARE(int64_t(bufs[5][x]), floorModRef(av, 4));
            QCOMPARE(int64_t(bufs[6][x]), floorDivRef(av, 3));
            QCOMPARE(int64_t(bufs[7][x]), floorModRef(av, 3));
            QCOMPARE(int64_t(bufs[8][x]), av / bv);
            QCOMPARE(int64_t(bufs[9][x]), av % bv);
            QCOMPARE(int64_t(bufs[10][x]), floorDivRef(av, 3));
            QCOMPARE(int64_t(bufs[11][x]), floorModRef(av, 8));
        }
    }

    void localAndHeapAllocate() {
        const int rows = 8, w = 32;
        Buffer A = buffer("A", rows * w), B = buffer("B", rows * w);
        Buffer tmp = Buffer::make("tmp", f32, {Expr(w)}, "local");
        Var i("i"), j("j"), k("k");
        Stmt fill = loop(j, 0, w, store(tmp, load(A, i * w + j) * Expr(2.0), j));
        Stmt back = loop(k, 0, w, store(B, load(tmp, w - 1 - k), i * w + k));
        Stmt s = loop(i, 0, rows, AllocateNode::make(tmp, SeqStmtNode::make({fill, back})));
        BuildResult r = buildHost(PrimFunc::make("rev", {A, B}, s));
        QVERIFY(r.llvmIR.find("alloca float, i64 32, align 64") != std::string::npos);
        Aligned<float> a(rows * w), b(rows * w);
        for (int x = 0; x < rows * w; ++x)
            a[x] = float(x);
        QCOMPARE(run(r, "rev", {a.get(), b.get()}), 0);
        for (int y = 0; y < rows; ++y)
            for (int x = 0; x < w; ++x)
                QCOMPARE(b[y * w + x], 2.0f * a[y * w + (w - 1 - x)]);

        // A large "global" allocation goes to the heap (and is freed).
        const int big = 100000;
        Buffer O = buffer("O", 1);
        Buffer H = Buffer::make("H", f32, {Expr(big)}, "global");
        Var p("p"), q("q");
        Stmt hs = AllocateNode::make(
            H,
            SeqStmtNode::make({loop(p, 0, big, store(H, cast(f32, p), p)), store(O, Expr(0.0), 0),
                               loop(q, 0, big, store(O, load(O, 0) + load(H, q), 0))}));
        BuildResult r2 = buildHost(PrimFunc::make("heap", {O}, hs));
        QVERIFY(r2.llvmIR.find("TesselWorkspaceAlloc") != std::string::npos);
        QVERIFY(r2.llvmIR.find("@TesselWorkspaceFree") != std::string::npos);
        Aligned<float> o(1);
        QCOMPARE(run(r2, "heap", {o.get()}), 0);
        float ref = 0;
        for (int x = 0; x < big; ++x)
            ref += float(x);
        QVERIFY(close(o[0], ref, 1e-4f));
    }

    void gatherScatterUnroll() {
        const int n = 64;
        Buffer A = buffer("A", n * 5), C = buffer("C", n * 3);
        Var v("v"), u("u");
        // C[v*12 + 3*l] = A[v*20 + 5*l] for l in 0..3 (stride-5 gather, stride-3 scatter;
        // strides 2 to 4 load the span: stridedLoadsReadTheSpan)
        Stmt s = loop(v, 0, n / 4,
                      store(C, load(A, RampNode::make(v * 20, Expr(5), 4)),
                            RampNode::make(v * 12, Expr(3), 4)));
        Stmt s2 = loop(u, 0, 4, store(C, Expr(-1.0), u * 3 + 1), ForKind::Unrolled);
        BuildResult r = buildHost(PrimFunc::make("gs", {A, C}, SeqStmtNode::make({s, s2})));
        QVERIFY(r.llvmIR.find("llvm.masked.gather") != std::string::npos);
        QVERIFY(r.llvmIR.find("llvm.masked.scatter") != std::string::npos);
        QVERIFY(r.llvmIR.find("llvm.loop.unroll.full") != std::string::npos);
        Aligned<float> a(n * 5), c(n * 3, 5.0f);
        for (int x = 0; x < n * 5; ++x)
            a[x] = float(x);
        QCOMPARE(run(r, "gs", {a.get(), c.get()}), 0);
        for (int x = 0; x < n; ++x)
            QCOMPARE(c[3 * x], a[5 * x]);
        for (int x = 0; x < n; ++x)
            QCOMPARE(c[3 * x + 1], x < 4 ? -1.0f : 5.0f);
        for (int x = 0; x < n; ++x)
            QCOMPARE(c[3 * x + 2], 5.0f);
    }

    void llvmUnrollPragma() {
        // A schedule's pragma(axis, "llvm_unroll", N) becomes loop metadata:
        // 0 forbids LLVM's unrolling, N > 1 asks for N copies.
        const int n = 64;
        Buffer A = buffer("A", n), C = buffer("C", n);
        Var v("v"), u("u");
        Stmt s0 = ForNode::make(v, Expr(0), Expr(n / 2), ForKind::Serial, store(C, load(A, v) + Expr(1.0f), v),
                                {{"pragma_llvm_unroll", Expr(0)}});
        Stmt s4 = ForNode::make(u, Expr(n / 2), Expr(n / 2), ForKind::Serial, store(C, load(A, u) * Expr(2.0f), u),
                                {{"pragma_llvm_unroll", Expr(4)}});
        BuildResult r = buildHost(PrimFunc::make("up", {A, C}, SeqStmtNode::make({s0, s4})));
        QVERIFY(r.llvmIR.find("!\"llvm.loop.unroll.disable\"") != std::string::npos);
        QVERIFY(r.llvmIR.find("!\"llvm.loop.unroll.count\", i32 4") != std::string::npos);
        Aligned<float> a(n), c(n, 0.0f);
        for (int x = 0; x < n; ++x)
            a[x] = float(x);
        QCOMPARE(run(r, "up", {a.get(), c.get()}), 0);
        for (int x = 0; x < n; ++x)
            QCOMPARE(c[x], x < n / 2 ? a[x] + 1.0f : a[x] * 2.0f);
    }

    void intrinsicsAndCasts() {
        const int n = 32;
        const int k = 17; // number of outputs per element
        Buffer A = buffer("A", n), O = buffer("O", n * k), I = buffer("I", n, i32);
        Var v("v");
        Expr idx = RampNode::make(v * 8, Expr(1), 8);
        Expr a = load(A, idx);
        auto out = [&](int slot, Expr e) {
            return store(O, e, RampNode::make(Expr(slot * n) + v * 8, Expr(1), 8));
        };
        std::vector<Stmt> seq = {
            out(0, exp(a)),
            out(1, call(Intrinsic::Log, {a + Expr(3.0)})),
            out(2, sqrt(a + Expr(3.0))),
            out(3, call(Intrinsic::Rsqrt, {a + Expr(3.0)})),
            out(4, fma(a, a, a)),
            out(5, call(Intrinsic::Tanh, {a})),
            out(6, call(Intrinsic::Sigmoid, {a})),
            out(7, call(Intrinsic::Pow, {a + Expr(3.0), BroadcastNode::make(Expr(1.5), 8)})),
            out(8, call(Intrinsic::Abs, {a})),
            out(9, call(Intrinsic::Erf, {a})),
            out(10, call(Intrinsic::Floor, {a})),
            out(11, call(Intrinsic::Ceil, {a})),
            out(12, call(Intrinsic::Round, {a})),
            out(13, call(Intrinsic::Trunc, {a})),
            out(14, call(Intrinsic::Sin, {a}) + call(Intrinsic::Cos, {a})),
            out(15,
                max(min(a, BroadcastNode::make(Expr(1.0), 8)), BroadcastNode::make(Expr(-1.0), 8))),
            // Exact halves (multiples of 0.5) go to the even neighbour.
            out(16, call(Intrinsic::RoundEven, {call(Intrinsic::Floor, {a * Expr(4.0)}) * Expr(0.5)})),
        };
        // Scalar casts: I[i] = int(A[i] * 4) + int(A[i] > 0); scalar tanh through libm.
        Var s("s");
        Expr as = load(A, s);
        seq.push_back(loop(
            s, 0, n,
            store(I,
                  cast(i32, as * Expr(4.0)) + cast(i32, as > Expr(0.0)) +
                      cast(i32, cast(DataType::float64(), call(Intrinsic::Tanh, {as})) * Expr(0.0)),
                  s)));
        Stmt body = SeqStmtNode::make(
            {loop(v, 0, n / 8, SeqStmtNode::make(std::vector<Stmt>(seq.begin(), seq.end() - 1))),
             seq.back()});
        BuildResult r = buildHost(PrimFunc::make("intr", {A, O, I}, body));
        Aligned<float> av(n), o(n * k);
        Aligned<int32_t> iv(n);
        for (int x = 0; x < n; ++x)
            av[x] = (float(x) - 15.5f) * 0.17f;
        QCOMPARE(run(r, "intr", {av.get(), o.get(), iv.get()}), 0);
        for (int x = 0; x < n; ++x) {
            float a0 = av[x];
            float ref[k] = {std::exp(a0),
                            std::log(a0 + 3),
                            std::sqrt(a0 + 3),
                            1.0f / std::sqrt(a0 + 3),
                            std::fma(a0, a0, a0),
                            std::tanh(a0),
                            1.0f / (1.0f + std::exp(-a0)),
                            std::pow(a0 + 3, 1.5f),
                            std::fabs(a0),
                            std::erf(a0),
                            std::floor(a0),
                            std::ceil(a0),
                            std::round(a0),
                            std::trunc(a0),
                            std::sin(a0) + std::cos(a0),
                            std::max(std::min(a0, 1.0f), -1.0f),
                            std::nearbyint(std::floor(a0 * 4.0f) * 0.5f)};
            for (int slot = 0; slot < k; ++slot)
                QVERIFY2(close(o[slot * n + x], ref[slot], 1e-5f),
                         qPrintable(QString("slot %1 x %2: %3 vs %4")
                                        .arg(slot)
                                        .arg(x)
                                        .arg(o[slot * n + x])
                                        .arg(ref[slot])));
            QCOMPARE(iv[x], int32_t(a0 * 4.0f) + int32_t(a0 > 0));
        }
    }

    void stridedLoadsReadTheSpan() {
        // A vector load with stride 2 or 3 is a load of the span and a
        // shuffle, not a gather; a span that would pass the buffer's end
        // when widened to lanes * stride is not widened (the guard page
        // after A2 faults otherwise).
        const int n = 64;
        Buffer A = buffer("A", n), A2 = buffer("A2", 16), O = buffer("O", 48);
        Buffer B = buffer("B", 2 * n, DataType::uint8()), P = buffer("P", 32, DataType::uint8());
        Var v("v");
        auto vec = [](Expr base, int stride, int lanes) { return RampNode::make(base, Expr(stride), lanes); };
        Stmt body = SeqStmtNode::make({
            loop(v, 0, 4, store(O, load(A, vec(v * 16, 2, 8)), vec(v * 8, 1, 8))),
            store(O, load(A, vec(Expr(1), 3, 8)), vec(Expr(32), 1, 8)),
            store(O, load(A2, vec(Expr(1), 2, 8)), vec(Expr(40), 1, 8)), // A2[15] is the last
            store(P, load(B, vec(Expr(1), 2, 32)), vec(Expr(0), 1, 32)),
        });
        BuildResult r = buildHost(PrimFunc::make("strided", {A, A2, O, B, P}, body));
        QVERIFY2(r.llvmIROptimized.find("masked.gather") == std::string::npos, r.llvmIROptimized.c_str());
        Aligned<float> a(n), o(48);
        Guarded a2(16, true);
        Aligned<uint8_t> b(2 * n), pv(32);
        for (int i = 0; i < n; ++i) a[i] = float(i) * 0.5f;
        for (int i = 0; i < 16; ++i) a2.data[i] = float(100 + i);
        for (int i = 0; i < 2 * n; ++i) b[i] = uint8_t(i * 3);
        QCOMPARE(run(r, "strided", {a.get(), a2.data, o.get(), b.get(), pv.get()}), 0);
        for (int i = 0; i < 32; ++i) QCOMPARE(o[i], a[2 * i]);
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(o[32 + i], a[1 + 3 * i]);
            QCOMPARE(o[40 + i], a2.data[1 + 2 * i]);
        }
        for (int i = 0; i < 32; ++i) QCOMPARE(pv[i], b[1 + 2 * i]);
    }

    void pairDotI16() {
        const int n = 512;
        auto [a, b] = test::pairDotInputs(n, 7);
        // The host, x86-64's baseline (SSE2: wider vectors in 4-lane pieces)
        // and Zen 3 (AVX2) run here; 1 and 2 lanes take the generic form.
        for (const char* name : {"host", "x86_64", "x86_64 -mcpu=znver3"}) {
            Target t = codegen::resolveTarget(name);
            if (!codegen::isHostTarget(t)) QSKIP("not an x86-64 host");
            BuildResult r = codegen::build({pairDot(n)}, t);
            QVERIFY(r.module);
            Aligned<int32_t> av(n), bv(n), o(5 * n, 12345);
            for (int i = 0; i < n; ++i)
                av[i] = a[i], bv[i] = b[i];
            QCOMPARE(run(r, "pdot", {av.get(), bv.get(), o.get()}), 0);
            for (int slot = 0; slot < 5; ++slot)
                for (int i = 0; i < n; ++i)
                    QVERIFY2(o[slot * n + i] == test::pairDotI16(a[i], b[i]),
                             qPrintable(QString("%1, slot %2, i %3: %4 vs %5")
                                            .arg(name)
                                            .arg(slot)
                                            .arg(i)
                                            .arg(o[slot * n + i])
                                            .arg(test::pairDotI16(a[i], b[i]))));
        }
        // The instruction from the target's features, not the host's.
        auto assembly = [](const char* target, const PrimFunc& f) {
            return codegen::build({f}, codegen::resolveTarget(target)).assembly;
        };
        // A line with the instruction on registers of the width.
        auto has = [](const std::string& text, const char* op, const char* reg) {
            std::istringstream in(text);
            for (std::string line; std::getline(in, line);)
                if (line.find(std::string("\t") + op + "\t") != std::string::npos && line.find(reg) != std::string::npos)
                    return true;
            return false;
        };
        const std::string zen3 = assembly("x86_64 -mcpu=znver3", pairDot(n));
        QVERIFY2(has(zen3, "vpmaddwd", "%ymm"), zen3.c_str());
        const std::string sse2 = assembly("x86_64", pairDot(n));
        QVERIFY2(has(sse2, "pmaddwd", "%xmm"), sse2.c_str());
        const std::string avx512 = assembly("x86_64 -mcpu=skylake-avx512", pairDot(n));
        QVERIFY2(has(avx512, "vpmaddwd", "%zmm"), avx512.c_str());
        // With VNNI, LLVM folds the accumulating add into vpdpwssd.
        const std::string vnni = assembly("x86_64 -mcpu=znver4", pairDotAccumulate(n));
        QVERIFY2(vnni.find("vpdpwssd") != std::string::npos, vnni.c_str());
        // Elsewhere the generic form compiles.
        const std::string arm = assembly("aarch64", pairDot(n));
        QVERIFY2(arm.find("pmaddwd") == std::string::npos && !arm.empty(), arm.c_str());
    }

    void inlineMathCoversTheFloatRange() {
        // Float exp/erf/sigmoid/tanh are inline polynomials (vectorised, no
        // libm call per lane): compare with libm in double over the whole
        // float range, with the edges (overflow, subnormal results,
        // infinities, NaN, tiny arguments).
        std::vector<float> xs;
        for (double x = -110; x <= 95; x += 0.0371) xs.push_back(float(x));
        for (float x : {0.0f, -0.0f, 1e-30f, -1e-30f, 88.72f, 88.73f, -87.5f, -103.9f, -104.0f, 3.9f, 4.0f, 4.5f,
                        -6.0f, 3e-4f, -4.1e-4f, 7.9f, 7.91f, -9.0f, 1e-8f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN()})
            xs.push_back(x);
        while (xs.size() % 16) xs.push_back(0.5f);
        const int n = int(xs.size());
        Buffer A = buffer("A", n), E = buffer("E", n), F = buffer("F", n), S = buffer("S", n),
               T = buffer("T", n);
        Var v("v");
        Expr idx = RampNode::make(v * 16, Expr(1), 16);
        Expr a = load(A, idx);
        Stmt body = loop(v, 0, n / 16,
                         SeqStmtNode::make({store(E, exp(a), idx), store(F, call(Intrinsic::Erf, {a}), idx),
                                            store(S, call(Intrinsic::Sigmoid, {a}), idx),
                                            store(T, call(Intrinsic::Tanh, {a}), idx)}));
        BuildResult r = buildHost(PrimFunc::make("fastmath", {A, E, F, S, T}, body));
        QVERIFY2(r.llvmIROptimized.find("@expf") == std::string::npos, "exp still calls libm");
        QVERIFY2(r.llvmIROptimized.find("@erff") == std::string::npos, "erf still calls libm");
        QVERIFY2(r.llvmIROptimized.find("@tanhf") == std::string::npos, "tanh still calls libm");
        Aligned<float> av(n), e(n), f(n), sg(n), th(n);
        for (int i = 0; i < n; ++i) av[i] = xs[i];
        QCOMPARE(run(r, "fastmath", {av.get(), e.get(), f.get(), sg.get(), th.get()}), 0);
        double worstExp = 0, worstErf = 0, worstSigmoid = 0, worstSigmoidRel = 0, worstTanhRel = 0;
        for (int i = 0; i < n; ++i) {
            const double x = xs[i];
            if (std::isnan(x)) {
                QVERIFY(std::isnan(e[i]) && std::isnan(f[i]) && std::isnan(sg[i]) && std::isnan(th[i]));
                continue;
            }
            // Relative near 0 as well (tanh(x) ~ x), and never past +-1.
            const double wantTanh = std::tanh(x);
            QVERIFY2(std::fabs(th[i]) <= 1.0f, qPrintable(QString("tanh(%1) = %2").arg(x).arg(th[i])));
            if (wantTanh != 0.0) worstTanhRel = std::max(worstTanhRel, std::fabs(th[i] - wantTanh) / std::fabs(wantTanh));
            else QVERIFY(th[i] == 0.0f && std::signbit(th[i]) == std::signbit(x)); // +-0 keeps its sign
            const float wantExp = float(std::exp(x)); // inf past FLT_MAX, subnormal or 0 below
            if (std::isinf(wantExp) || wantExp == 0.0f) {
                QVERIFY2(e[i] == wantExp || (wantExp == 0.0f && e[i] < 2e-45f),
                         qPrintable(QString("exp(%1) = %2, want %3").arg(x).arg(e[i]).arg(wantExp)));
            } else if (wantExp >= std::numeric_limits<float>::min()) {
                worstExp = std::max(worstExp, std::fabs(e[i] - std::exp(x)) / std::exp(x));
            } else {
                QVERIFY(std::fabs(e[i] - wantExp) <= 2e-45f); // subnormal: within one step
            }
            worstErf = std::max(worstErf, std::fabs(f[i] - std::erf(x)));
            const double wantSigmoid = 1.0 / (1.0 + std::exp(-x));
            worstSigmoid = std::max(worstSigmoid, std::fabs(sg[i] - wantSigmoid));
            if (x >= -87) worstSigmoidRel = std::max(worstSigmoidRel, std::fabs(sg[i] - wantSigmoid) / wantSigmoid);
        }
        qInfo("inline exp: %.3g relative, erf: %.3g absolute, sigmoid %.3g absolute, tanh %.3g relative", worstExp,
              worstErf, worstSigmoid, worstTanhRel);
        QVERIFY2(worstTanhRel < 1e-6, qPrintable(QString::number(worstTanhRel)));
        QVERIFY2(worstExp < 2.5e-7, qPrintable(QString::number(worstExp)));
        QVERIFY2(worstErf < 1e-6, qPrintable(QString::number(worstErf)));
        QVERIFY2(worstSigmoid < 1e-6, qPrintable(QString::number(worstSigmoid)));
        // Down to e^-87 the clamp changes nothing: relative accuracy, not only absolute.
        QVERIFY2(worstSigmoidRel < 5e-7, qPrintable(QString::number(worstSigmoidRel)));
    }

    void multipleFunctions() {
        PrimFunc f1 = vectorAdd(256);
        Buffer X = buffer("X", 16);
        Var i("i");
        PrimFunc f2 = PrimFunc::make("fill", {X}, loop(i, 0, 16, store(X, Expr(1.5), i)));
        BuildResult r = codegen::build({f1, f2}, codegen::hostTarget());
        QCOMPARE(r.tirFirstLine.size(), size_t(2));
        QVERIFY(r.tirFirstLine[1] > r.tirFirstLine[0]);
        // The store of f2 maps to its line in the joined TIR text.
        int storeLine =
            printPrimFunc(f2).lineOf(f2->body.as<ForNode>()->body.get()) + r.tirFirstLine[1] - 1;
        QVERIFY(r.tir.find("def fill") != std::string::npos);
        QVERIFY(!r.llvmIROptimizedLines.linesOf(storeLine).empty());
        Aligned<float> x(16);
        QCOMPARE(run(r, "fill", {x.get()}), 0);
        for (int z = 0; z < 16; ++z)
            QCOMPARE(x[z], 1.5f);
        QVERIFY(r.module->function("vadd"));
        QVERIFY_THROWS_EXCEPTION(CompileError, codegen::build({f2, f2}, codegen::hostTarget()));
    }

    void externCallsAndOptLevels() {
        const int n = 32;
        Buffer A = buffer("A", n), C = buffer("C", n);
        Var i("i");
        // A libm function by symbol name, resolved in this process by the JIT.
        Stmt s = loop(i, 0, n,
                      store(C, CallNode::makeExtern(f32, "hypotf", {load(A, i), Expr(3.0)}), i));
        PrimFunc f = PrimFunc::make("ext", {A, C}, s);
        Aligned<float> a(n), c(n);
        for (int x = 0; x < n; ++x)
            a[x] = float(x);
        for (int level : {0, 1, 2, 3}) {
            BuildOptions opt;
            opt.optLevel = level;
            BuildResult r = buildHost(f, opt);
            QCOMPARE(run(r, "ext", {a.get(), c.get()}), 0);
            for (int x = 0; x < n; ++x)
                QCOMPARE(c[x], std::hypot(a[x], 3.0f));
            QVERIFY(!r.assemblyLines.empty());
        }
        // An unknown symbol is a diagnostic, not a crash.
        Stmt bad =
            loop(i, 0, n,
                 store(C, CallNode::makeExtern(f32, "tessel_no_such_function", {load(A, i)}), i));
        QVERIFY_THROWS_EXCEPTION(CompileError, buildHost(PrimFunc::make("ext2", {A, C}, bad)));
        // No JIT wanted: texts only.
        BuildOptions noJit;
        noJit.jit = false;
        noJit.emitAssembly = false;
        BuildResult t = buildHost(f, noJit);
        QVERIFY(!t.module);
        QVERIFY(t.assembly.empty());
        QVERIFY(!t.llvmIROptimized.empty());
    }

    void interactiveAndBatchUnrollDiffer() {
        // A recurrence C = C * A[i] + B[i] over a constant trip count: at some
        // trip count its full unrolling costs more than O2's threshold (150)
        // and less than O3's (300), and without reassociation nothing
        // vectorises it. There Batch (LLVM's O3) unrolls it away and
        // Interactive (O3 with O2's threshold) keeps the loop. Where that trip
        // count lies depends on the CPU's cost model (znver3 and znver4 price
        // the body differently), so the test looks for it.
        auto count = [](const std::string& text, const std::string& what) {
            size_t k = 0;
            for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
                ++k;
            return k;
        };
        int n = 0;
        BuildResult rb, ri;
        PrimFunc f;
        BuildOptions batch, interactive;
        interactive.mode = codegen::CompileMode::Interactive;
        for (int trips : {48, 64, 80, 96, 112, 128}) {
            Buffer A = buffer("A", trips), B = buffer("B", trips), C = buffer("C", 1);
            Var i("i");
            Stmt s = loop(i, 0, trips, store(C, load(C, Expr(0)) * load(A, i) + load(B, i), Expr(0)));
            f = PrimFunc::make("recur", {A, B, C}, s);
            QVERIFY(batch.mode == codegen::CompileMode::Batch); // the default
            rb = buildHost(f, batch);
            ri = buildHost(f, interactive);
            QCOMPARE(ri.llvmIR, rb.llvmIR); // the same module goes in ...
            // ... and a different one comes out: a loop (a back edge with its
            // metadata, a phi) only in the interactive one.
            if (count(rb.llvmIROptimized, "!llvm.loop") == 0 && count(ri.llvmIROptimized, "!llvm.loop") >= 1) {
                n = trips;
                break;
            }
        }
        // Seen on znver3: LLVM's X86 unrolling preferences for that CPU unroll
        // both alike up to 96 trips and neither beyond, whatever the threshold.
        if (n == 0)
            QSKIP(qPrintable("on " + QString::fromStdString(codegen::hostTarget().cpu) +
                             " LLVM unrolls the recurrence alike in both modes at every trip count tried"));
        QCOMPARE(count(rb.llvmIROptimized, " phi "), size_t(0));
        QVERIFY(count(ri.llvmIROptimized, " phi ") >= 1);
        QVERIFY(count(rb.llvmIROptimized, "fmul") >= size_t(n)); // every iteration's multiply
        QVERIFY(count(ri.llvmIROptimized, "fmul") < size_t(n));
        // Both compute the same values (the same operations in the same order).
        Aligned<float> a(n), b(n), cb(1, 0.5f), ci(1, 0.5f);
        float expect = 0.5f;
        for (int x = 0; x < n; ++x) {
            a[x] = 0.9f + 0.005f * float(x);
            b[x] = 0.25f - 0.01f * float(x);
            expect = std::fma(expect, a[x], b[x]);
        }
        QCOMPARE(run(rb, "recur", {a.get(), b.get(), cb.get()}), 0);
        QCOMPARE(run(ri, "recur", {a.get(), b.get(), ci.get()}), 0);
        QCOMPARE(ci[0], cb[0]);
        QVERIFY(close(cb[0], expect, 1e-4f));
        // Below O3 there is nothing to choose: the modes give the same code.
        batch.optLevel = interactive.optLevel = 2;
        QCOMPARE(buildHost(f, interactive).llvmIROptimized, buildHost(f, batch).llvmIROptimized);

        // A link in between (LLD resets LLVM's options when it ends) changes nothing.
        QTemporaryDir dir;
        codegen::linkSharedLibrary(codegen::emitObject({f}, codegen::hostTarget()),
                                   dir.filePath(QStringLiteral("recur.so")).toStdString());
        interactive.optLevel = 3;
        QCOMPARE(buildHost(f, interactive).llvmIROptimized, ri.llvmIROptimized);
    }

    void errorsAreDiagnostics() {
        Buffer A = Buffer::make("A", f32, {Expr(4), Expr(4)});
        Var i("i"), j("j"), free("free");
        // Two indices: not flattened.
        Stmt s = loop(i, 0, 4, BufferStoreNode::make(A, Expr(1.0), {i, i}));
        QVERIFY_THROWS_EXCEPTION(CompileError, buildHost(PrimFunc::make("bad1", {A}, s)));
        // A variable out of scope.
        Stmt s2 = loop(i, 0, 4, store(A, Expr(1.0), i + free));
        QVERIFY_THROWS_EXCEPTION(CompileError, buildHost(PrimFunc::make("bad2", {A}, s2)));
        // A buffer that is neither a parameter nor allocated.
        Buffer other = buffer("other", 4);
        Stmt s3 = loop(i, 0, 4, store(other, Expr(1.0), i));
        QVERIFY_THROWS_EXCEPTION(CompileError, buildHost(PrimFunc::make("bad3", {A}, s3)));
        QVERIFY_THROWS_EXCEPTION(CompileError, codegen::build({}, codegen::hostTarget()));
    }

    void aarch64ObjectAndAssembly() {
        Target t = codegen::resolveTarget("aarch64-linux-gnu");
        std::vector<char> obj = codegen::emitObject({vectorAdd(1024)}, t);
        QVERIFY(obj.size() > 64);
        QCOMPARE(obj[0], char(0x7f));
        QCOMPARE(obj[1], 'E');
        QCOMPARE(obj[2], 'L');
        QCOMPARE(obj[3], 'F');
        QCOMPARE(int(obj[4]), 2); // ELFCLASS64
        uint16_t machine = uint16_t(uint8_t(obj[18]) | (uint8_t(obj[19]) << 8));
        QCOMPARE(int(machine), 183); // EM_AARCH64

        BuildResult r = codegen::build({vectorAdd(1024)}, t);
        QVERIFY(!r.module); // no JIT for another machine
        QVERIFY2(r.assembly.find("fadd\tv") != std::string::npos, r.assembly.c_str());
        QVERIFY(r.assembly.find("ret") != std::string::npos);
        QVERIFY(r.assembly.find("ldp\tq") != std::string::npos ||
                r.assembly.find("ldr\tq") != std::string::npos);
        QVERIFY(!r.assemblyLines.empty());

        // Parallel loops stay calls into the runtime.
        Buffer D = buffer("D", 256);
        Var y("y");
        PrimFunc par =
            PrimFunc::make("p", {D}, loop(y, 0, 256, store(D, cast(f32, y), y), ForKind::Parallel));
        BuildResult rp = codegen::build({par}, t);
        QVERIFY(rp.assembly.find("bl\tTesselParallelLaunch") != std::string::npos);

        // Other boards' targets build too.
        for (const char* name : {"armv7", "riscv64"}) {
            BuildResult o = codegen::build({vectorAdd(256)}, codegen::resolveTarget(name));
            QVERIFY2(!o.assembly.empty(), name);
            std::vector<char> ob = codegen::emitObject({vectorAdd(256)}, codegen::resolveTarget(name));
            QVERIFY(ob.size() > 4 && ob[0] == 0x7f && ob[1] == 'E');
        }
    }
};

QTEST_APPLESS_MAIN(TestCodeGenLLVM)
#include "tst_codegenllvm.moc"
