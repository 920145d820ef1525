// The knob space of tunable schedules (te::ConfigSpace) and the script's
// `cfg` over it: the enumeration of splits, knobs, reorders and annotations
// against hand-written lists, the defaults, choices from the config, the
// entities' apply(), the C++ API a schedule written in C++ uses, what
// ScriptResult reports, and the errors.

#include "te/ConfigSpace.h"
#include "te/script/Script.h"
#include "tir/IROperators.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::te;
using namespace tessel::te::script;

namespace {

using Lists = std::vector<std::vector<int64_t>>;

ScriptResult run(const std::string& src, std::map<std::string, int64_t> config = {}) {
    ScriptOptions o;
    o.config = std::move(config);
    try {
        return runScript(src, o);
    } catch (const CompileError& e) {
        qWarning("%s", e.diagnostic().str().c_str());
        throw;
    }
}

/// "L:C: error: message" of a script that must fail.
std::string failure(const std::string& src, std::map<std::string, int64_t> config = {}) {
    ScriptOptions o;
    o.config = std::move(config);
    try {
        runScript(src, o);
    } catch (const CompileError& e) {
        return e.diagnostic().str();
    }
    return "(no error)";
}

const Knob& knob(const ScriptResult& r, const std::string& name) {
    for (auto& k : r.knobs)
        if (k.name == name) return k;
    throw std::runtime_error("no knob " + name);
}

std::vector<std::string> texts(const Knob& k) {
    std::vector<std::string> out;
    for (int64_t i = 0; i < k.size(); ++i)
        out.push_back(k.choiceText(i));
    return out;
}

std::string global(const ScriptResult& r, const char* name) {
    const Value* v = r.global(name);
    return v ? repr(*v) : "(undefined)";
}

const char* kGemmHead = R"(M = 64
N = 48
K = 32
k = te.reduce_axis((0, K), "k")
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
x, y = s[C].op.axis
)";

} // namespace

class TestConfigSpace : public QObject {
    Q_OBJECT
private slots:
    void factorizationsInOrder() {
        QCOMPARE(ConfigSpace::factorizations(12, 2),
                 (Lists{{12, 1}, {6, 2}, {4, 3}, {3, 4}, {2, 6}, {1, 12}}));
        // size[1] ascending, then size[2]; size[0] is what remains.
        QCOMPARE(ConfigSpace::factorizations(8, 3), (Lists{{8, 1, 1},
                                                           {4, 1, 2},
                                                           {2, 1, 4},
                                                           {1, 1, 8},
                                                           {4, 2, 1},
                                                           {2, 2, 2},
                                                           {1, 2, 4},
                                                           {2, 4, 1},
                                                           {1, 4, 2},
                                                           {1, 8, 1}}));
        QCOMPARE(ConfigSpace::factorizations(7, 1), (Lists{{7}}));
        QCOMPARE(ConfigSpace::factorizations(1, 3), (Lists{{1, 1, 1}}));
        // max_factor bounds the inner factors only.
        QCOMPARE(ConfigSpace::factorizations(12, 2, 4), (Lists{{12, 1}, {6, 2}, {4, 3}, {3, 4}}));
        QVERIFY(ConfigSpace::factorizations(0, 2).empty());
        QCOMPARE(ConfigSpace::factorizations(1024, 4).size(), size_t(286)); // C(13, 3)
    }

    void evenSplitAndPermutations() {
        QCOMPARE(ConfigSpace::evenSplitIndex(ConfigSpace::factorizations(12, 2)), int64_t(2));
        QCOMPARE(ConfigSpace::evenSplitIndex(ConfigSpace::factorizations(56, 2)), int64_t(3));
        QCOMPARE(ConfigSpace::factorizations(56, 2)[3], (std::vector<int64_t>{8, 7}));
        QCOMPARE(ConfigSpace::evenSplitIndex(ConfigSpace::factorizations(8, 3)), int64_t(5));
        QCOMPARE(ConfigSpace::permutations(3),
                 (Lists{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}));
        QCOMPARE(ConfigSpace::permutations(0), (Lists{{}}));
    }

    void configText() {
        auto c = parseConfig("tile_x=3,unroll=0,,order=12");
        QCOMPARE(c.size(), size_t(3));
        QCOMPARE(c["tile_x"], int64_t(3));
        QCOMPARE(c["order"], int64_t(12));
        QCOMPARE(formatConfig(c), std::string("order=12,tile_x=3,unroll=0"));
        QVERIFY(parseConfig("").empty());
        for (const char* bad : {"tile_x", "tile_x=", "=3", "tile_x=-1", "tile_x=a"}) {
            bool threw = false;
            try {
                parseConfig(bad);
            } catch (const CompileError& e) {
                threw = e.diagnostic().message.find("is not NAME=INDEX") != std::string::npos;
            }
            QVERIFY2(threw, bad);
        }
    }

    void spaceReported() {
        auto r = run(std::string(kGemmHead) + R"(
cfg.define_split("tile_x", x, num_outputs=2)
cfg.define_split("tile_k", 32, num_outputs=3, max_factor=4)
cfg.define_knob("unroll", [True, False])
cfg.define_knob("lanes", [16, 8, "auto"])
cfg.define_reorder("order", [x, y, k])
)");
        QCOMPARE(r.knobs.size(), size_t(5));
        const Knob& tx = knob(r, "tile_x");
        QCOMPARE(tx.kind, KnobKind::Split);
        QCOMPARE(std::string(knobKindName(tx.kind)), std::string("split"));
        QCOMPARE(texts(tx), (std::vector<std::string>{"[64, 1]", "[32, 2]", "[16, 4]", "[8, 8]",
                                                      "[4, 16]", "[2, 32]", "[1, 64]"}));
        QCOMPARE(tx.defaultIndex, int64_t(3));
        QCOMPARE(tx.chosen, int64_t(3));
        QVERIFY(!tx.configured);
        QCOMPARE(tx.loc.line, 11);
        QCOMPARE(texts(knob(r, "tile_k")),
                 (std::vector<std::string>{"[32, 1, 1]", "[16, 1, 2]", "[8, 1, 4]", "[16, 2, 1]",
                                           "[8, 2, 2]", "[4, 2, 4]", "[8, 4, 1]", "[4, 4, 2]",
                                           "[2, 4, 4]"}));
        QCOMPARE(texts(knob(r, "unroll")), (std::vector<std::string>{"True", "False"}));
        QCOMPARE(knob(r, "unroll").chosen, int64_t(0));
        QCOMPARE(texts(knob(r, "lanes")), (std::vector<std::string>{"16", "8", "'auto'"}));
        QCOMPARE(knob(r, "order").size(), int64_t(6));
        QCOMPARE(knob(r, "order").choiceText(0), std::string("[0, 1, 2]"));
        QCOMPARE(spaceSize(r.knobs), int64_t(7 * 9 * 2 * 3 * 6));
        QCOMPARE(r.flop, 0.0);
    }

    void entitiesFollowTheConfig() {
        const std::string src = std::string(kGemmHead) + R"(
cfg.define_split("tile_x", x, num_outputs=3)
cfg.define_knob("lanes", [16, 8, "auto"])
cfg.define_reorder("order", [x, y], policy="candidates", candidates=[[y, x], [0, 1]])
cfg.add_flop(2 * M * N * K)
size = cfg["tile_x"].size
val = cfg["lanes"].val
perm = cfg["order"].perm
fallback = cfg.is_fallback
flop = cfg.flop
e = cfg["tile_x"]
)";
        auto d = run(src);
        QCOMPARE(global(d, "size"), std::string("[4, 4, 4]"));
        QCOMPARE(global(d, "val"), std::string("16"));
        QCOMPARE(global(d, "perm"), std::string("[1, 0]"));
        QCOMPARE(global(d, "fallback"), std::string("True"));
        QCOMPARE(global(d, "flop"), std::string("196608.0"));
        QCOMPARE(global(d, "e"), std::string("SplitEntity([4, 4, 4])"));
        QCOMPARE(d.flop, 2.0 * 64 * 48 * 32);

        auto c = run(src, {{"tile_x", 1}, {"lanes", 2}, {"order", 1}});
        QCOMPARE(global(c, "size"), std::string("[32, 1, 2]"));
        QCOMPARE(global(c, "val"), std::string("'auto'"));
        QCOMPARE(global(c, "perm"), std::string("[0, 1]"));
        QCOMPARE(global(c, "fallback"), std::string("False"));
        QVERIFY(knob(c, "lanes").configured);
        QCOMPARE(knob(c, "lanes").chosen, int64_t(2));
    }

    void splitApply() {
        // AutoTVM's SplitEntity.apply: successive splits, loops outer to inner.
        auto r = run(std::string(kGemmHead) + R"(
cfg.define_split("tile_x", x, num_outputs=3)
cfg.define_split("tile_y", N, num_outputs=2)
loops = cfg["tile_x"].apply(s, C, x)
ys = cfg["tile_y"].apply(s, s[C], y)
n = len(loops)
)",
                     {{"tile_x", 19}}); // [4, 8, 2]
        QCOMPARE(global(r, "n"), std::string("3"));
        Stage st = r.schedules[0][r.builds[0].args.back()];
        QCOMPARE(st.data().leafIterVars.size(), size_t(6)); // x: 3 loops, y: 2, k
        // The chosen factors: x = 4 * 8 * 2 (split by 8 * 2, then by 2), y = 8 * 6
        // (the most even split of 48).
        std::vector<int64_t> factors;
        for (auto& rel : st.data().relations)
            if (rel.kind == IterRelation::Kind::Split)
                factors.push_back(tir::asConstInt(rel.factor).value_or(-1));
        QCOMPARE(factors, (std::vector<int64_t>{16, 2, 6}));
        QCOMPARE(
            global(r, "loops"),
            std::string("[iter_var(x_outer), iter_var(x_inner_outer), iter_var(x_inner_inner)]"));
    }

    void reorderApply() {
        auto r = run(std::string(kGemmHead) + R"(
(k,) = s[C].op.reduce_axis
cfg.define_reorder("order", [x, y, k])
order = cfg["order"].apply(s, C, [x, y, k])
)",
                     {{"order", 3}}); // [1, 2, 0]
        Stage st = r.schedules[0][r.builds[0].args.back()];
        const auto& leaves = st.data().leafIterVars;
        QCOMPARE(leaves.size(), size_t(3));
        QCOMPARE(leaves[0]->var.name(), std::string("y"));
        QCOMPARE(leaves[1]->var.name(), std::string("k"));
        QCOMPARE(leaves[2]->var.name(), std::string("x"));
        QCOMPARE(global(r, "order"), std::string("[iter_var(y, range(min=0, ext=48)), iter_var(k, "
                                                 "range(min=0, ext=32)), iter_var(x, "
                                                 "range(min=0, ext=64))]"));
    }

    void filter() {
        auto r = run(R"(cfg.define_split("t", 24, filter=lambda e: e.size[-1] % 4 == 0)
)");
        QCOMPARE(texts(knob(r, "t")),
                 (std::vector<std::string>{"[6, 4]", "[3, 8]", "[2, 12]", "[1, 24]"}));
        QCOMPARE(knob(r, "t").chosen, int64_t(0)); // [6, 4] is the most even left
    }

    void cppScheduleDefinesAndReadsKnobs() {
        // A schedule written in C++: define, read the chosen values, apply.
        ConfigSpace cfg({{"tile", 2}, {"ann", 3}});
        const Knob& t = cfg.defineSplit("tile", 16);
        QCOMPARE(t.size(), int64_t(5)); // [16, 1] [8, 2] [4, 4] [2, 8] [1, 16]
        QVERIFY(t.configured);
        QCOMPARE(cfg.split("tile"), (std::vector<int64_t>{4, 4}));
        QCOMPARE(cfg.defineSplit("wide", 64, {.parts = 3, .maxFactor = 4, .filter = {}}).size(), int64_t(9));
        cfg.defineSplit("even", 12, {.parts = 2, .maxFactor = 0,
                                     .filter = [](auto& f) { return f[1] % 2 == 0; }});
        QCOMPARE(texts(cfg.get("even")),
                 (std::vector<std::string>{"[6, 2]", "[3, 4]", "[2, 6]", "[1, 12]"}));
        cfg.defineKnob("unroll", {KnobValue(true), KnobValue(false)});
        QVERIFY(cfg.knob("unroll").asBool());
        QCOMPARE(cfg.defineKnob("lanes", {KnobValue(int64_t(8)), KnobValue(std::string("auto"))})
                     .choiceText(1),
                 std::string("'auto'"));
        cfg.defineReorder("order", 3);
        QCOMPARE(cfg.reorder("order"), (std::vector<int64_t>{0, 1, 2}));
        cfg.defineReorder("two", 2, ReorderPolicy::Candidates, {{1, 0}});
        QCOMPARE(cfg.reorder("two"), (std::vector<int64_t>{1, 0}));
        const Knob& ann = cfg.defineAnnotate("ann", 2, AnnotatePolicy::TryUnrollVec);
        QCOMPARE(std::string(knobKindName(ann.kind)), std::string("annotate"));
        QCOMPARE(texts(ann), (std::vector<std::string>{
                                 "['none', 'none']", "['none', 'unroll']", "['none', 'vec']",
                                 "['unroll', 'none']", "['unroll', 'unroll']", "['unroll', 'vec']"}));
        QCOMPARE(cfg.annotation("ann"), (std::vector<std::string>{"unroll", "none"}));
        QCOMPARE(cfg.defineAnnotate("vec", 3, AnnotatePolicy::TryVec).size(), int64_t(2));
        QVERIFY(!cfg.isFallback());
        cfg.checkConfigUsed();

        Tensor A = te::placeholder({Expr(16), Expr(8)}, DataType::float32(), "A");
        Tensor B = te::compute(
            {Expr(16), Expr(8)}, [&](const std::vector<tir::Var>& v) { return A({v[0], v[1]}) + A({v[0], v[1]}); },
            "B");
        Schedule s = createSchedule({B->op});
        auto* op = dynamic_cast<const ComputeOpNode*>(B->op.get());
        auto loops = cfg.applySplit("tile", s[B], op->axis[0]);
        QCOMPARE(loops.size(), size_t(2));
        QCOMPARE(*tir::asConstInt(s[B].data().relations[0].factor), int64_t(4));
        auto order = cfg.applyReorder("order", s[B], {loops[0], loops[1], op->axis[1]});
        QVERIFY(order[2].sameAs(op->axis[1]));
        cfg.applyAnnotate("ann", s[B], {loops[1], op->axis[1]});
        QVERIFY(s[B].data().annotations.at(loops[1].get()) == IterAnnotation::Unroll);
        QVERIFY(!s[B].data().annotations.count(op->axis[1].get()));

        // Reading a knob as another kind, or one never defined, is an error.
        QVERIFY_THROWS_EXCEPTION(CompileError, cfg.split("unroll"));
        QVERIFY_THROWS_EXCEPTION(CompileError, cfg.knob("nothing"));
        QVERIFY_THROWS_EXCEPTION(CompileError, cfg.defineKnob("tile", {KnobValue(true)}));
        ConfigSpace unused({{"tiles", 1}});
        unused.defineSplit("tile", 8);
        QVERIFY_THROWS_EXCEPTION(CompileError, unused.checkConfigUsed());
    }

    void scriptAnnotates() {
        // cfg.define_annotate in a script: every axis none or unroll; the
        // config's choice unrolls both loops.
        const std::string src = std::string(kGemmHead) + R"(
cfg.define_annotate("ann", [x, y], policy="try_unroll")
cfg["ann"].apply(s, C, [x, y])
a = cfg["ann"].anns
)";
        auto r = run(src, {{"ann", 3}});
        QCOMPARE(texts(knob(r, "ann")),
                 (std::vector<std::string>{"['none', 'none']", "['none', 'unroll']",
                                           "['unroll', 'none']", "['unroll', 'unroll']"}));
        QCOMPARE(global(r, "a"), std::string("['unroll', 'unroll']"));
        Stage st = r.schedules[0][r.schedules[0].outputs()[0]];
        QCOMPARE(int(st.data().annotations.size()), 2);
        for (auto& [iv, a] : st.data().annotations)
            QVERIFY(a == IterAnnotation::Unroll);
        QCOMPARE(QString::fromStdString(
                     failure(std::string(kGemmHead) +
                             "cfg.define_annotate(\"a\", [x], policy=\"try_unrol\")\n")),
                 QString("10:31: error: cfg.define_annotate(): unknown policy 'try_unrol'; "
                         "policies: \"try_unroll\", \"try_vec\", \"try_unroll_vec\"; did you "
                         "mean 'try_unroll'?"));
    }

    void errors_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown knob")
            << "cfg.define_knob(\"unroll\", [True])\nv = cfg[\"unrol\"]\n"
            << ""
            << "2:9: error: unknown knob 'unrol'; define it (cfg.define_split, cfg.define_knob or "
               "cfg.define_reorder) before cfg[...] reads it (knobs: unroll); did you mean "
               "'unroll'?";
        QTest::newRow("used before defined")
            << "v = cfg[\"tile\"]\ncfg.define_split(\"tile\", 8)\n"
            << ""
            << "1:9: error: unknown knob 'tile'; define it (cfg.define_split, cfg.define_knob or "
               "cfg.define_reorder) before cfg[...] reads it (no knob is defined yet)";
        QTest::newRow("defined twice")
            << "cfg.define_split(\"tile\", 8)\ncfg.define_knob(\"tile\", [1, 2])\n"
            << ""
            << "2:5: error: knob 'tile' is already defined (at 1:5); every knob needs its own "
               "name";
        QTest::newRow("index out of range")
            << "cfg.define_split(\"tile\", 8)\n"
            << "tile=4"
            << "1:5: error: the config chooses index 4 for knob 'tile', which has 4 choices (0 "
               "to 3)";
        QTest::newRow("config names no knob")
            << "cfg.define_split(\"tile\", 8)\n"
            << "tiles=1"
            << "error: the config sets knob 'tiles', which the script does not define; did you "
               "mean 'tile'?";
        QTest::newRow("indexed with an int")
            << "cfg.define_split(\"tile\", 8)\nv = cfg[0]\n"
            << ""
            << "2:9: error: cfg is indexed with a knob name (a string), not int";
        QTest::newRow("no constant extent")
            << "A = te.placeholder((16,), name=\"A\")\nB = te.compute((16,), lambda i: A[i], "
               "name=\"B\")\ns = te.create_schedule(B.op)\nio, ii = s[B].split(B.op.axis[0], "
               "factor=4)\ncfg.define_split(\"t\", ii)\n"
            << ""
            << "5:23: error: cfg.define_split(): loop 'i_inner' has no constant extent; pass the "
               "extent as an int";
        QTest::newRow("filter leaves nothing")
            << "cfg.define_split(\"t\", 7, filter=lambda e: e.size[-1] == 2)\n"
            << ""
            << "1:5: error: knob 't' has no choices (the filter or max_factor rules out every "
               "factorisation)";
        QTest::newRow("empty knob") << "cfg.define_knob(\"k\", [])\n"
                                    << ""
                                    << "1:5: error: knob 'k' has no choices";
        QTest::newRow("extent mismatch")
            << "A = te.placeholder((16,), name=\"A\")\nB = te.compute((16,), lambda i: A[i], "
               "name=\"B\")\ns = te.create_schedule(B.op)\ncfg.define_split(\"t\", 32)\n"
               "cfg[\"t\"].apply(s, B, B.op.axis[0])\n"
            << ""
            << "5:22: error: SplitEntity.apply(): split 't' is for an extent of 32, but loop 'i' "
               "has 16 iterations";
        QTest::newRow("bad reorder candidate")
            << "cfg.define_reorder(\"o\", [], policy=\"candidates\", candidates=[[0]])\n"
            << ""
            << "1:50: error: cfg.define_reorder(): every candidate must list the 0 axes in some "
               "order, not [0]";
        QTest::newRow("unknown policy")
            << "cfg.define_reorder(\"o\", [], policy=\"al\")\n"
            << ""
            << "1:29: error: cfg.define_reorder(): unknown policy 'al'; policies: \"all\", "
               "\"candidates\", \"identity\"; did you mean 'all'?";
        QTest::newRow("no such method")
            << "cfg.define_splt(\"t\", 8)\n"
            << ""
            << "1:5: error: ConfigSpace has no method 'define_splt'; did you mean 'define_split'?";
    }
    void errors() {
        QFETCH(QString, source);
        QFETCH(QString, config);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(
                     failure(source.toStdString(), parseConfig(config.toStdString()))),
                 expected);
    }
};

QTEST_APPLESS_MAIN(TestConfigSpace)
#include "tst_configspace.moc"
