// C backend: the C source of hand-built TIR compiles with the system `cc`
// into a shared library whose functions give the same results as the LLVM JIT
// (and as plain C++ references); its line table links each C line to the
// TIR line it was printed for.
#include "codegen/CodeGenC.h"
#include "codegen/CodeGenLLVM.h"
#include "codegen/Target.h"
#include "common/PairDot.h"
#include "ir/Diagnostic.h"
#include "runtime/ParallelABI.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <tuple>

using namespace tessel;
using namespace tessel::tir;

namespace {

const DataType f32 = DataType::float32();
const DataType i32 = DataType::int32();
DataType f32x8() {
    return DataType::float32(8);
}

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

/// Raw 64-byte aligned memory for one buffer parameter.
struct Memory {
    explicit Memory(size_t bytes) : size(bytes) {
        size_t n = ((bytes + 63) / 64) * 64;
        data.reset(static_cast<unsigned char*>(std::aligned_alloc(64, n ? n : 64)));
        std::memset(data.get(), 0, n ? n : 64);
    }
    template <class T> T* as() { return reinterpret_cast<T*>(data.get()); }
    struct Free {
        void operator()(unsigned char* p) const { std::free(p); }
    };
    std::unique_ptr<unsigned char[], Free> data;
    size_t size;
};

int64_t elements(const Buffer& b) {
    int64_t n = 1;
    for (auto& s : b->shape)
        n *= *asConstInt(s);
    return n;
}

/// Fills buffer parameters with deterministic data: floats in [-2, 2), ints in
/// [-20, 20] (never 0, so they can divide).
std::vector<Memory> makeInputs(const PrimFunc& f) {
    std::vector<Memory> mem;
    uint32_t seed = 12345;
    auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    for (auto& b : f->params) {
        int64_t n = elements(b);
        mem.emplace_back(n * b->dtype.bytes());
        for (int64_t i = 0; i < n; ++i) {
            if (b->dtype == f32)
                mem.back().as<float>()[i] = float(next() % 4000) / 1000.0f - 2.0f;
            else if (b->dtype == i32) {
                int v = int(next() % 41) - 20;
                mem.back().as<int32_t>()[i] = v == 0 ? 7 : v;
            }
        }
    }
    return mem;
}

std::vector<Memory> copyOf(const std::vector<Memory>& in) {
    std::vector<Memory> out;
    for (auto& m : in) {
        out.emplace_back(m.size);
        std::memcpy(out.back().data.get(), m.data.get(), m.size);
    }
    return out;
}

std::vector<void*> pointers(std::vector<Memory>& mem) {
    std::vector<void*> p;
    for (auto& m : mem)
        p.push_back(m.data.get());
    return p;
}

/// Compiles C source into a shared library and keeps it loaded.
class CLibrary {
public:
    CLibrary(const std::string& source, const QString& dir, const QString& name,
             QStringList extraFlags = {}) {
        QString c = dir + "/" + name + ".c", so = dir + "/lib" + name + ".so";
        QFile file(c);
        if (!file.open(QIODevice::WriteOnly))
            throw std::runtime_error("cannot write " + c.toStdString());
        file.write(source.data(), qint64(source.size()));
        file.close();
        QProcess cc;
        QStringList args = {
            "-std=c99", "-O2", "-shared", "-fPIC", "-Wall", "-Werror", "-Wno-unknown-pragmas"};
        args << extraFlags << "-o" << so << c << "-lm";
        cc.start("cc", args);
        if (!cc.waitForFinished(120000) || cc.exitStatus() != QProcess::NormalExit ||
            cc.exitCode() != 0)
            throw std::runtime_error("cc failed:\n" + cc.readAllStandardError().toStdString() +
                                     "\n" + source);
        handle_ = dlopen(so.toLocal8Bit().constData(), RTLD_NOW | RTLD_LOCAL);
        if (!handle_) throw std::runtime_error(std::string("dlopen failed: ") + dlerror());
    }
    ~CLibrary() {
        if (handle_) dlclose(handle_);
    }
    runtime::KernelFunction function(const std::string& name) const {
        return reinterpret_cast<runtime::KernelFunction>(dlsym(handle_, name.c_str()));
    }

private:
    void* handle_ = nullptr;
};

// -- the functions both backends run ------------------------------------------------

PrimFunc vectorAdd() {
    Buffer A = buffer("A", 256), B = buffer("B", 256), C = buffer("C", 256);
    Var i("i");
    Expr idx = RampNode::make(i * 16, Expr(1), 16);
    return PrimFunc::make("vadd", {A, B, C},
                          loop(i, 0, 16, store(C, load(A, idx) + load(B, idx), idx)));
}

PrimFunc gemm() {
    const int n = 32;
    Buffer A = buffer("A", n * n), B = buffer("B", n * n), C = buffer("C", n * n);
    Buffer acc = Buffer::make("acc", f32, {Expr(1)}, "local");
    Var i("i"), j("j"), k("k");
    Stmt inner =
        loop(k, 0, n, store(acc, load(acc, 0) + load(A, i * n + k) * load(B, k * n + j), 0));
    Stmt body = AllocateNode::make(acc, SeqStmtNode::make({store(acc, Expr(0.0), 0), inner,
                                                           store(C, load(acc, 0), i * n + j)}));
    return PrimFunc::make("gemm", {A, B, C}, loop(i, 0, n, loop(j, 0, n, body), ForKind::Parallel));
}

PrimFunc floorDivMod() {
    const int n = 64;
    Buffer A = buffer("A", n, i32), B = buffer("B", n, i32), O = buffer("O", n * 6, i32);
    Var i("i"), v("v");
    Expr a = load(A, i), b = load(B, i);
    Stmt s = loop(
        i, 0, n,
        SeqStmtNode::make({store(O, floordiv(a, b), i), store(O, floormod(a, b), i + n),
                           store(O, floordiv(a, 3), i + 2 * n), store(O, floormod(a, 4), i + 3 * n),
                           store(O, truncdiv(a, b) + truncmod(a, b) * 100, i + 4 * n)}));
    Expr idx = RampNode::make(v * 8, Expr(1), 8);
    Stmt vs = loop(v, 0, n / 8,
                   store(O, floormod(load(A, idx), BroadcastNode::make(Expr(5), 8)),
                         RampNode::make(Expr(5 * n) + v * 8, Expr(1), 8)));
    return PrimFunc::make("fdm", {A, B, O}, SeqStmtNode::make({s, vs}));
}

PrimFunc mathAndControl() {
    const int n = 64;
    Buffer A = buffer("A", n), O = buffer("O", n * 8), I = buffer("I", n, i32);
    Var i("i"), v("v"), t("t", f32), w("w", f32x8()), q("q", f32);
    Expr a = load(A, i);
    Stmt scalar =
        loop(i, 0, n,
             LetStmtNode::make(
                 t, a * Expr(0.5),
                 SeqStmtNode::make({
                     IfThenElseNode::make(truncmod(i, 3) == 0, store(O, exp(t), i),
                                          store(O, call(Intrinsic::Tanh, {t}), i)),
                     store(O, select(a > Expr(0.0), sqrt(a), -a), i + n),
                     store(O, call(Intrinsic::Sigmoid, {a}) + call(Intrinsic::Erf, {a}), i + 2 * n),
                     store(O, max(min(a, Expr(1.0)), Expr(-1.0)) + call(Intrinsic::Floor, {a}),
                           i + 3 * n),
                     store(O, call(Intrinsic::Abs, {a}) + call(Intrinsic::Round, {a * Expr(3.0)}),
                           i + 4 * n),
                     store(I, cast(i32, a * Expr(10.0)) + cast(i32, a > Expr(0.0)), i),
                     AttrStmtNode::make("pragma_note", Expr(1),
                                        store(O, LetNode::make(q, a, q * q), i + 5 * n)),
                 })));
    // Vector statements: a vector let, a stride-2 gather and a stride-1 store.
    Expr idx = RampNode::make(v * 8, Expr(1), 8);
    Stmt vec =
        loop(v, 0, n / 8,
             LetStmtNode::make(
                 w, load(A, RampNode::make(v * 8, Expr(1), 8)) * BroadcastNode::make(Expr(2.0), 8),
                 store(O, w + load(A, RampNode::make(Expr(0), Expr(2), 8)),
                       RampNode::make(Expr(6 * n) + v * 8, Expr(1), 8))),
             ForKind::Vectorized);
    (void)idx;
    // A heap allocation (global scope) inside an unrolled loop.
    Buffer H = Buffer::make("H", f32, {Expr(n)}, "global");
    Var u("u"), k("k");
    Stmt heap = AllocateNode::make(
        H, SeqStmtNode::make(
               {loop(k, 0, n, store(H, load(A, n - 1 - k), k)),
                loop(u, 0, 4, store(O, load(H, u), Expr(7 * n) + u), ForKind::Unrolled)}));
    return PrimFunc::make("mix", {A, O, I}, SeqStmtNode::make({scalar, vec, heap}));
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

/// The line (1-based) of the nth line whose text, without indentation, starts
/// with `prefix`; 0 when there is none.
int lineStarting(const std::vector<std::string>& lines, const std::string& prefix, int nth) {
    for (size_t i = 0; i < lines.size(); ++i) {
        size_t b = lines[i].find_first_not_of(' ');
        if (b != std::string::npos && lines[i].compare(b, prefix.size(), prefix) == 0 && nth-- == 0)
            return int(i) + 1;
    }
    return 0;
}

bool contains(const std::vector<int>& v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

bool closeEnough(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::fabs(a - b) <= 2e-5f * std::max(1.0f, std::max(std::fabs(a), std::fabs(b)));
}

} // namespace

class TestCodeGenC : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void readableText() {
        std::string c = codegen::emitC(vectorAdd()).text;
        QVERIFY(c.find("int32_t vadd(void* const* args) {") != std::string::npos);
        QVERIFY(c.find("float* restrict A = (float*)args[0];") != std::string::npos);
        QVERIFY(c.find("for (int32_t i = 0; i < 16; ++i) {") != std::string::npos);
        QVERIFY(c.find("C[i * 16 + lane] = A[i * 16 + lane] + B[i * 16 + lane];") !=
                std::string::npos);
        std::string g = codegen::emitC(gemm()).text;
        QVERIFY(g.find("#pragma omp parallel for") != std::string::npos);
        QVERIFY(g.find("float acc[1] __attribute__((aligned(64)));") != std::string::npos);
        std::string f = codegen::emitC(floorDivMod()).text;
        QVERIFY(f.find("static inline int32_t tessel_floordiv_i32(int32_t a, int32_t b)") !=
                std::string::npos);
    }

    void lineTable() {
        // Each C line links to the TIR printer's line of the statement it was
        // printed for; the header to nothing, the function's frame to `def`.
        struct Case {
            PrimFunc f;
            std::vector<std::tuple<std::string, int, std::string>> links; // C, nth, TIR
        };
        std::vector<Case> cases = {
            {gemm(),
             {{"#include <math.h>", 0, ""},
              {"int32_t gemm(void* const* args) {", 0, "def gemm("},
              {"float* restrict B = (float*)args[1];", 0, "def gemm("},
              {"return 0;", 0, "def gemm("},
              {"#pragma omp parallel for", 0, "for i in T.parallel(32):"},
              {"for (int32_t i = 0; i < 32; ++i) {", 0, "for i in T.parallel(32):"},
              {"for (int32_t j = 0; j < 32; ++j) {", 0, "for j in range(32):"},
              {"float acc[1] __attribute__((aligned(64)));", 0, "acc = T.allocate("},
              {"acc[0] = 0.0f;", 0, "acc[0] = T.float32(0.0)"},
              {"for (int32_t k = 0; k < 32; ++k) {", 0, "for k in range(32):"},
              {"acc[0] = acc[0] + A[i * 32 + k]", 0, "acc[0] = acc[0] + A[i * 32 + k]"},
              {"}", 0, "for k in range(32):"}, // the closing brace of its loop
              {"C[i * 32 + j] = acc[0];", 0, "C[i * 32 + j] = acc[0]"}}},
            {mathAndControl(),
             {{"static inline void* tessel_alloc(size_t bytes) {", 0, ""},
              {"static inline float tessel_max_f32(", 0, ""},
              {"int32_t mix(void* const* args) {", 0, "def mix("},
              {"for (int32_t i = 0; i < 64; ++i) {", 0, "for i in range(64):"},
              {"float t = A[i] * 0.5f;", 0, "t: T.float32 = A[i] * T.float32(0.5)"},
              {"if (i % 3 == 0) {", 0, "if T.truncmod(i, 3) == 0:"},
              {"} else {", 0, "if T.truncmod(i, 3) == 0:"},
              {"O[i] = expf(t);", 0, "O[i] = T.exp(t)"},
              {"O[i] = tanhf(t);", 0, "O[i] = T.tanh(t)"},
              {"O[i + 64] = ", 0, "O[i + 64] = "},
              {"I[i] = ", 0, "I[i] = "},
              {"/* attr \"pragma_note\" = 1 */", 0, "with T.attr(\"pragma_note\", 1):"},
              {"O[i + 320] = ", 0, "O[i + 320] = "},
              {"/* vectorized */", 0, "for v in T.vectorized(8):"},
              {"float w[8];", 0, "w: T.float32x8 = "},
              {"for (int32_t lane = 0; lane < 8; ++lane) {", 0, "w: T.float32x8 = "},
              {"w[lane] = ", 0, "w: T.float32x8 = "},
              {"for (int32_t lane = 0; lane < 8; ++lane) {", 1, "O[T.Ramp(384 + v * 8, 1, 8)] = "},
              {"O[384 + v * 8 + lane] = ", 0, "O[T.Ramp(384 + v * 8, 1, 8)] = "},
              {"float* H = (float*)tessel_alloc(256);", 0, "H = T.allocate([64]"},
              {"if (!H) return -1;", 0, "H = T.allocate([64]"},
              {"H[k] = A[63 - k];", 0, "H[k] = A[63 - k]"},
              {"/* unrolled */", 0, "for u in T.unroll(4):"},
              {"O[448 + u] = H[u];", 0, "O[448 + u] = H[u]"},
              {"free(H);", 0, "H = T.allocate([64]"},
              {"return 0;", 0, "def mix("}}},
        };
        for (auto& [f, links] : cases) {
            codegen::CSource c = codegen::emitC(f);
            std::string tir = tir::printPrimFunc(f).text;
            std::vector<std::string> cl = linesOf(c.text), tl = linesOf(tir);
            QCOMPARE(c.lines.toTir.size(), cl.size());
            for (auto& [cPrefix, nth, tirPrefix] : links) {
                int line = lineStarting(cl, cPrefix, nth);
                QVERIFY2(line > 0, cPrefix.c_str());
                int expect = tirPrefix.empty() ? 0 : lineStarting(tl, tirPrefix, 0);
                QVERIFY2(tirPrefix.empty() || expect > 0, tirPrefix.c_str());
                QVERIFY2(c.lines.tirLine(line) == expect,
                         qPrintable(QString("C line %1 '%2' -> TIR %3, expected %4 '%5'")
                                        .arg(line)
                                        .arg(cPrefix.c_str())
                                        .arg(c.lines.tirLine(line))
                                        .arg(expect)
                                        .arg(tirPrefix.c_str())));
                if (expect) QVERIFY(contains(c.lines.linesOf(expect), line));
            }
            // Every line of the function links somewhere but the blank one
            // after the arguments; nothing before it does.
            int sig = lineStarting(cl, "int32_t " + f->name + "(", 0);
            for (int l = 1; l <= int(cl.size()); ++l) {
                bool blank = cl[size_t(l - 1)].empty();
                int t = c.lines.tirLine(l);
                QVERIFY2(l < sig ? t == 0 : (blank ? t == 0 : t >= 1 && t <= int(tl.size())),
                         cl[size_t(l - 1)].c_str());
            }
        }
    }

    void compilesAndMatches_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<bool>("openmp");
        QTest::newRow("vadd") << 0 << false;
        QTest::newRow("gemm") << 1 << false;
        QTest::newRow("gemm-openmp") << 1 << true;
        QTest::newRow("floordiv") << 2 << false;
        QTest::newRow("math-and-control") << 3 << false;
    }

    void compilesAndMatches() {
        QFETCH(int, which);
        QFETCH(bool, openmp);
        PrimFunc f = which == 0   ? vectorAdd()
                     : which == 1 ? gemm()
                     : which == 2 ? floorDivMod()
                                  : mathAndControl();
        std::string src = codegen::emitC(f).text;
        std::unique_ptr<CLibrary> lib;
        try {
            lib = std::make_unique<CLibrary>(
                src, dir_.path(), QString::fromStdString(f->name) + (openmp ? "_omp" : ""),
                openmp ? QStringList{"-fopenmp"} : QStringList{});
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        runtime::KernelFunction cfn = lib->function(f->name);
        QVERIFY(cfn);

        codegen::BuildResult jit = codegen::build({f}, codegen::hostTarget());
        runtime::KernelFunction jfn = jit.module->function(f->name);
        QVERIFY(jfn);

        std::vector<Memory> in = makeInputs(f);
        std::vector<Memory> viaC = copyOf(in), viaJit = copyOf(in);
        QCOMPARE(cfn(pointers(viaC).data()), 0);
        QCOMPARE(jfn(pointers(viaJit).data()), 0);
        for (size_t p = 0; p < f->params.size(); ++p) {
            const Buffer& b = f->params[p];
            int64_t n = elements(b);
            for (int64_t i = 0; i < n; ++i) {
                if (b->dtype == f32) {
                    float x = viaC[p].as<float>()[i], y = viaJit[p].as<float>()[i];
                    QVERIFY2(closeEnough(x, y), qPrintable(QString("%1[%2]: C %3, JIT %4")
                                                               .arg(b->name.c_str())
                                                               .arg(i)
                                                               .arg(x)
                                                               .arg(y)));
                } else {
                    QCOMPARE(viaC[p].as<int32_t>()[i], viaJit[p].as<int32_t>()[i]);
                }
            }
        }

        // And against plain C++ for the first two.
        if (which == 0)
            for (int i = 0; i < 256; ++i)
                QCOMPARE(viaC[2].as<float>()[i], in[0].as<float>()[i] + in[1].as<float>()[i]);
        if (which == 2)
            for (int i = 0; i < 64; ++i) {
                int a = in[0].as<int32_t>()[i], b = in[1].as<int32_t>()[i];
                int q = a / b - ((a % b != 0 && ((a < 0) != (b < 0))) ? 1 : 0);
                QCOMPARE(viaC[2].as<int32_t>()[i], q);
                QCOMPARE(viaC[2].as<int32_t>()[i + 64], a - q * b);
            }
    }

    void pairDotI16() {
        // Scalar and 8-lane calls (printed lane by lane) through the C helper.
        const int n = 512;
        Buffer A = buffer("A", n, i32), B = buffer("B", n, i32), O = buffer("O", 2 * n, i32);
        Var s("s"), v("v");
        Expr idx = RampNode::make(v * 8, Expr(1), 8);
        Stmt body = SeqStmtNode::make(
            {loop(s, 0, n, store(O, call(Intrinsic::PairDotI16, {load(A, s), load(B, s)}), s)),
             loop(v, 0, n / 8,
                  store(O, call(Intrinsic::PairDotI16, {load(A, idx), load(B, idx)}),
                        RampNode::make(v * 8 + n, Expr(1), 8)))});
        PrimFunc f = PrimFunc::make("pdot", {A, B, O}, body);
        std::string src = codegen::emitC(f).text;
        QVERIFY2(src.find("static inline int32_t tessel_pair_dot_i16(") != std::string::npos, src.c_str());
        std::unique_ptr<CLibrary> lib;
        try {
            lib = std::make_unique<CLibrary>(src, dir_.path(), "pdot");
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        auto [a, b] = test::pairDotInputs(n, 3);
        std::vector<Memory> mem;
        mem.emplace_back(n * 4);
        mem.emplace_back(n * 4);
        mem.emplace_back(2 * n * 4);
        std::memcpy(mem[0].data.get(), a.data(), n * 4);
        std::memcpy(mem[1].data.get(), b.data(), n * 4);
        QCOMPARE(lib->function("pdot")(pointers(mem).data()), 0);
        for (int i = 0; i < 2 * n; ++i)
            QCOMPARE(mem[2].as<int32_t>()[i], test::pairDotI16(a[i % n], b[i % n]));
    }

    void errors() {
        Buffer A = Buffer::make("A", f32, {Expr(4), Expr(4)});
        Var i("i");
        QVERIFY_THROWS_EXCEPTION(
            CompileError,
            codegen::emitC(PrimFunc::make(
                "bad", {A}, loop(i, 0, 4, BufferStoreNode::make(A, Expr(1.0), {i, i})))));
        Buffer B = buffer("B", 4);
        Var free("free");
        QVERIFY_THROWS_EXCEPTION(CompileError,
                                 codegen::emitC(PrimFunc::make(
                                     "bad2", {B}, loop(i, 0, 4, store(B, Expr(1.0), i + free)))));
    }

private:
    QTemporaryDir dir_;
};

QTEST_APPLESS_MAIN(TestCodeGenC)
#include "tst_codegenc.moc"
