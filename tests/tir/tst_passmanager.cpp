// The TIR pass manager, its instruments, the pass registry and the default pipeline.
#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/passes/PassManager.h"
#include "tir/passes/PassRegistry.h"
#include "tir/passes/Pipeline.h"

#include "TirBuilders.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

namespace {

/// B[i, j] = A[i, j] + 1 over 16 x 20, j split by 8 (not dividing 20) and vectorized.
PrimFunc sampleFunc() {
    Buffer A = Buffer::make("A", DataType::float32(), {16, 20});
    Buffer B = Buffer::make("B", DataType::float32(), {16, 20});
    Var i("i"), jo("jo"), ji("ji");
    Expr j = jo * 8 + ji;
    Stmt guarded = IfThenElseNode::make(call(Intrinsic::Likely, {j < 20}),
                                        store(B, load(A, {i, j}) + 1.0, {i, j}));
    Stmt nest = ForNode::make(i, 0, 16, ForKind::Serial,
                              ForNode::make(jo, 0, 3, ForKind::Serial,
                                            ForNode::make(ji, 0, 8, ForKind::Vectorized, guarded)));
    return PrimFunc::make("add_one", {A, B}, nest);
}

/// Records every hook call as a line.
class Recorder : public PassInstrument {
public:
    Recorder(std::string tag, std::vector<std::string>& log) : tag_(std::move(tag)), log_(log) {}
    void beforePipeline(const std::vector<std::string>& names, const PrimFunc&) override {
        log_.push_back(tag_ + " pipeline " + std::to_string(names.size()));
    }
    void beforePass(const PassInfo& p, const PrimFunc&) override {
        log_.push_back(tag_ + " before " + p.name);
    }
    void afterPass(const PassInfo& p, const PrimFunc&, const PrimFunc&, double s) override {
        QVERIFY(s >= 0);
        log_.push_back(tag_ + " after " + p.name);
    }
    void passFailed(const PassInfo& p, const PrimFunc&, const std::exception& e) override {
        log_.push_back(tag_ + " failed " + p.name + ": " + e.what());
    }
    void afterPipeline(const PrimFunc&) override { log_.push_back(tag_ + " done"); }

private:
    std::string tag_;
    std::vector<std::string>& log_;
};

PassInfo failingPass() {
    return PassInfo{"boom",
                    "Always fails.",
                    "A pass for tests that throws.",
                    {},
                    [](const PrimFunc&, const PassOptionValues&) -> PrimFunc {
                        throw CompileError("boom went the pass");
                    }};
}

std::string readFile(const QString& path) {
    std::ifstream in(path.toStdString());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

class TestPassManager : public QObject {
    Q_OBJECT
private slots:
    void instrumentsCalledInOrder() {
        std::vector<std::string> log;
        PassManager pm;
        pm.addInstrument(std::make_shared<Recorder>("a", log));
        pm.addInstrument(std::make_shared<Recorder>("b", log));
        pm.run(sampleFunc(), {"storage-flatten", "remove-no-op"});
        std::vector<std::string> expected = {
            "a pipeline 2",
            "b pipeline 2",
            "a before storage-flatten",
            "b before storage-flatten",
            "a after storage-flatten",
            "b after storage-flatten",
            "a before remove-no-op",
            "b before remove-no-op",
            "a after remove-no-op",
            "b after remove-no-op",
            "a done",
            "b done",
        };
        QCOMPARE(log, expected);
    }

    void snapshotsRecorded() {
        PassManager pm;
        auto snap = std::make_shared<SnapshotInstrument>();
        auto timing = std::make_shared<TimingInstrument>();
        pm.addInstrument(snap);
        pm.addInstrument(timing);
        PrimFunc in = sampleFunc();
        std::vector<std::string> pipeline = {"storage-flatten", "loop-partition", "vectorize",
                                             "remove-no-op"};
        PrimFunc out = pm.run(in, pipeline);

        QCOMPARE(snap->input().pass, std::string("input"));
        QCOMPARE(snap->input().text.text, toString(in));
        QCOMPARE(snap->snapshots().size(), pipeline.size());
        for (size_t k = 0; k < pipeline.size(); ++k)
            QCOMPARE(snap->snapshots()[k].pass, pipeline[k]);
        QVERIFY(snap->snapshots()[0].changed);  // flattened
        QVERIFY(snap->snapshots()[1].changed);  // partitioned
        QVERIFY(snap->snapshots()[2].changed);  // vectorized
        QVERIFY(!snap->snapshots()[3].changed); // nothing to remove
        QCOMPARE(snap->snapshots().back().text.text, toString(out));
        // The line table points at nodes of the function the snapshot keeps alive.
        QVERIFY(snap->snapshots().back().text.lineOf(out->body.get()) > 0);
        QCOMPARE(QString::fromStdString(toString(out)), QString(R"(@T.prim_func
def add_one(A: T.Buffer((320,), "float32"), B: T.Buffer((320,), "float32")):
    for i in range(16):
        for jo in range(2):
            B[T.Ramp(i * 20 + jo * 8, 1, 8)] = A[T.Ramp(i * 20 + jo * 8, 1, 8)] + T.Broadcast(T.float32(1.0), 8)
        B[T.Ramp(i * 20 + 16, 1, 4)] = A[T.Ramp(i * 20 + 16, 1, 4)] + T.Broadcast(T.float32(1.0), 4)
)"));

        QCOMPARE(timing->entries().size(), pipeline.size());
        QCOMPARE(timing->entries()[2].passName, std::string("vectorize"));
        QVERIFY(timing->totalSeconds() >= 0);
    }

    void printAfterChange() {
        std::vector<std::string> printed;
        PassManager pm;
        pm.addInstrument(std::make_shared<PrintAfterChangeInstrument>(
            [&](const std::string& pass, const std::string& text) {
                printed.push_back(pass);
                QVERIFY(!text.empty());
            }));
        pm.run(sampleFunc(), {"remove-no-op", "storage-flatten", "remove-no-op"});
        QCOMPARE(printed, std::vector<std::string>{"storage-flatten"});
    }

    void unknownPassName() {
        PassManager pm;
        std::vector<std::string> log;
        pm.addInstrument(std::make_shared<Recorder>("a", log));
        try {
            pm.run(sampleFunc(), {"storage-flatten", "no-such-pass"});
            QFAIL("expected a CompileError");
        } catch (const CompileError& e) {
            std::string msg = e.what();
            QVERIFY2(msg.find("no-such-pass") != std::string::npos, msg.c_str());
            QVERIFY2(msg.find("storage-flatten") != std::string::npos, msg.c_str());
            QVERIFY2(msg.find("vectorize") != std::string::npos, msg.c_str());
        }
        QVERIFY(log.empty()); // nothing ran
    }

    void passOptions() {
        PassManager pm;
        try {
            pm.run(sampleFunc(), {"unroll-loop{max-step=3}"});
            QFAIL("expected a CompileError");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("max-steps") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(CompileError,
                                 pm.run(sampleFunc(), {"unroll-loop{max-steps=many}"}));

        Buffer C = Buffer::make("C", DataType::float32(), {4});
        Var k("k");
        PrimFunc f = PrimFunc::make(
            "f", {C}, ForNode::make(k, 0, 4, ForKind::Unrolled, store(C, Expr(0.0), {k})));
        QVERIFY(pm.run(f, {"unroll-loop{max-steps=2}"}).sameAs(f));
        QVERIFY(!pm.run(f, {"unroll-loop"}).sameAs(f));
        pm.setPassOptions("unroll-loop", {{"max-steps", "3"}});
        QVERIFY(pm.run(f, {"unroll-loop"}).sameAs(f));
        QVERIFY(!pm.run(f, {"unroll-loop{max-steps=4}"}).sameAs(f)); // the entry's own options win

        PassSpec spec = parsePassSpec(" loop-partition{ only-likely = true , max-splits=2 } ");
        QCOMPARE(spec.name, std::string("loop-partition"));
        QCOMPARE(spec.options.at("only-likely"), std::string("true"));
        QCOMPARE(spec.options.at("max-splits"), std::string("2"));
        QVERIFY_THROWS_EXCEPTION(CompileError, parsePassSpec("vectorize{max-lanes"));
    }

    void failingPassWritesCrashReproducer() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString path = dir.filePath("crash.tir");
        std::vector<std::string> log;
        PassManager pm;
        auto repro = std::make_shared<CrashReproducerInstrument>(path.toStdString());
        pm.addInstrument(std::make_shared<Recorder>("a", log));
        pm.addInstrument(repro);
        std::vector<PassInfo> passes = {*findTirPass("storage-flatten"), failingPass(),
                                        *findTirPass("remove-no-op")};
        PrimFunc in = sampleFunc();
        QVERIFY_THROWS_EXCEPTION(CompileError, pm.runPasses(in, passes));
        QCOMPARE(log.back(), std::string("a failed boom: boom went the pass"));
        QVERIFY(repro->written());
        std::string text = readFile(path);
        QVERIFY2(text.find("# failed pass: boom") != std::string::npos, text.c_str());
        QVERIFY2(text.find("# error: boom went the pass") != std::string::npos, text.c_str());
        QVERIFY2(text.find("# pipeline: storage-flatten,boom,remove-no-op") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("# reproduce: run boom,remove-no-op") != std::string::npos,
                 text.c_str());
        // The IR is the failing pass's input: flattened already.
        QVERIFY2(text.find("A: T.Buffer((320,), \"float32\")") != std::string::npos, text.c_str());
    }

    void registeredPassFailureIsRethrown() {
        // A malformed function (2-d buffer accessed with one index) makes storage-flatten fail.
        QTemporaryDir dir;
        QString path = dir.filePath("flatten.tir");
        Buffer A = Buffer::make("A", DataType::float32(), {4, 4});
        Var i("i");
        PrimFunc bad = PrimFunc::make(
            "bad", {A}, ForNode::make(i, 0, 4, ForKind::Serial, store(A, Expr(0.0), {i})));
        PassManager pm;
        auto repro = std::make_shared<CrashReproducerInstrument>(path.toStdString());
        pm.addInstrument(repro);
        QVERIFY_THROWS_EXCEPTION(InternalError, pm.run(bad, defaultTirPipeline()));
        QVERIFY(repro->written());
        std::string text = readFile(path);
        QVERIFY2(text.find("def bad(") != std::string::npos, text.c_str());
        QVERIFY2(text.find("# failed pass: storage-flatten") != std::string::npos, text.c_str());
    }

    void registryIsComplete() {
        const auto& passes = tirPasses();
        QVERIFY(passes.size() >= 7);
        for (auto& p : passes) {
            QVERIFY2(!p.name.empty(), "a pass without a name");
            for (char c : p.name)
                QVERIFY2((c >= 'a' && c <= 'z') || c == '-', p.name.c_str());
            QVERIFY2(!p.summary.empty(), p.name.c_str());
            QVERIFY2(p.summary.find('\n') == std::string::npos, p.name.c_str());
            QVERIFY2(p.description.size() > 80, p.name.c_str());
            QVERIFY2(static_cast<bool>(p.run), p.name.c_str());
            QCOMPARE(findTirPass(p.name), &p);
            for (auto& o : p.options) {
                QVERIFY2(!o.name.empty() && !o.defaultValue.empty() && !o.help.empty(),
                         (p.name + " " + o.name).c_str());
                // Every default is accepted when given explicitly.
                PassOptionValues v{{o.name, o.defaultValue}};
                checkPassOptions(p, v);
                p.run(sampleFunc(), v);
            }
            std::string file = p.name;
            for (auto& c : file)
                if (c == '-') c = '_';
            QString path = QString(TESSEL_SOURCE_DIR) + "/tests/tir/tst_pass_" +
                           QString::fromStdString(file) + ".cpp";
            QVERIFY2(QFileInfo::exists(path), qPrintable("no test file " + path));
        }
        QVERIFY(findTirPass("no-such-pass") == nullptr);
    }

    void defaultPipelineNamesRegisteredPasses() {
        auto pipeline = defaultTirPipeline();
        QVERIFY(!pipeline.empty());
        QCOMPARE(pipeline.front(), std::string("storage-flatten"));
        for (auto& n : pipeline)
            QVERIFY2(findTirPass(n), n.c_str());
        // It runs end to end on a guarded, vectorized split.
        PrimFunc out = PassManager().run(sampleFunc(), pipeline);
        std::string text = toString(out);
        QVERIFY2(text.find("T.Ramp") != std::string::npos, text.c_str());
        QVERIFY2(text.find("vectorized") == std::string::npos, text.c_str());
        QVERIFY2(text.find("likely") == std::string::npos, text.c_str());
    }
};

QTEST_APPLESS_MAIN(TestPassManager)
#include "tst_passmanager.moc"
