// storage-flatten: N-d parameters and realizations become flat buffers.
#include "ir/Check.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/passes/StorageFlatten.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

class TestPassStorageFlatten : public QObject {
    Q_OBJECT
private slots:
    void paramsKeepTheirDataVar() {
        Buffer A = Buffer::make("A", DataType::float32(), {16, 8});
        Buffer B = Buffer::make("B", DataType::float32(), {16, 8});
        Var i("i"), j("j");
        PrimFunc f = PrimFunc::make("copy", {A, B},
                                    loop(i, 16, loop(j, 8, store(B, load(A, {i, j}), {i, j}))));
        PrimFunc g = storageFlatten(f);
        QCOMPARE(text(g), QString(R"(@T.prim_func
def copy(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    for i in range(16):
        for j in range(8):
            B[i * 8 + j] = A[i * 8 + j]
)"));
        QCOMPARE(g->params.size(), size_t(2));
        QVERIFY(g->params[0]->data.sameAs(A->data));
        QVERIFY(g->params[1]->data.sameAs(B->data));
        QVERIFY(!g->params[0].sameAs(A));
    }

    void realizeBecomesAllocate() {
        Buffer A = Buffer::make("A", DataType::float32(), {16, 8});
        Buffer B = Buffer::make("B", DataType::float32(), {16, 8});
        Buffer T = Buffer::make("tmp", DataType::float32(), {16, 8});
        Var i("i"), j("j"), i2("i"), j2("j");
        Stmt produce = loop(i, 16, loop(j, 8, store(T, load(A, {i, j}) * 2.0, {i, j})));
        Stmt consume = loop(i2, 16, loop(j2, 8, store(B, load(T, {i2, j2}) + 1.0, {i2, j2})));
        Stmt body = BufferRealizeNode::make(T, {Range(0, 16), Range(0, 8)},
                                            SeqStmtNode::make({produce, consume}));
        PrimFunc g = storageFlatten(PrimFunc::make("main", {A, B}, body));
        QCOMPARE(text(g), QString(R"(@T.prim_func
def main(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    tmp = T.allocate([128], "float32", "global")
    for i in range(16):
        for j in range(8):
            tmp[i * 8 + j] = A[i * 8 + j] * T.float32(2.0)
    for i_1 in range(16):
        for j_1 in range(8):
            B[i_1 * 8 + j_1] = tmp[i_1 * 8 + j_1] + T.float32(1.0)
)"));
        auto* alloc = g->body.as<AllocateNode>();
        QVERIFY(alloc);
        QVERIFY(alloc->buffer->data.sameAs(T->data));
    }

    void realizedRegionWithOffset() {
        // compute_at: only row i of the intermediate is realized, inside loop i.
        Buffer A = Buffer::make("A", DataType::float32(), {16, 8});
        Buffer B = Buffer::make("B", DataType::float32(), {16, 8});
        Buffer T = Buffer::make("tmp", DataType::float32(), {16, 8}, "local");
        Var i("i"), j("j"), j2("j");
        Stmt produce = loop(j, 8, store(T, load(A, {i, j}), {i, j}));
        Stmt consume = loop(j2, 8, store(B, load(T, {i, j2}), {i, j2}));
        Stmt realize = BufferRealizeNode::make(T, {Range(i, 1), Range(0, 8)},
                                               SeqStmtNode::make({produce, consume}));
        PrimFunc g = storageFlatten(PrimFunc::make("main", {A, B}, loop(i, 16, realize)));
        QCOMPARE(text(g), QString(R"(@T.prim_func
def main(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
    for i in range(16):
        tmp = T.allocate([8], "float32", "local")
        for j in range(8):
            tmp[j] = A[i * 8 + j]
        for j_1 in range(8):
            B[i * 8 + j_1] = tmp[j_1]
)"));
    }

    void constantOffsetAndThreeDimensions() {
        Buffer A = Buffer::make("A", DataType::float32(), {2, 3, 4});
        Buffer T = Buffer::make("tmp", DataType::float32(), {2, 3, 10});
        Var i("i"), j("j"), k("k");
        Stmt s = store(T, load(A, {i, j, k}), {i, j, k + 2});
        Stmt nest = loop(i, 2, loop(j, 3, loop(k, 4, s)));
        Stmt body = BufferRealizeNode::make(T, {Range(0, 2), Range(0, 3), Range(2, 4)}, nest);
        PrimFunc g = storageFlatten(PrimFunc::make("main", {A}, body));
        QCOMPARE(text(g), QString(R"(@T.prim_func
def main(A: T.Buffer((24,), "float32")):
    tmp = T.allocate([24], "float32", "global")
    for i in range(2):
        for j in range(3):
            for k in range(4):
                tmp[i * 12 + j * 4 + (k + 2 - 2)] = A[i * 12 + j * 4 + k]
)"));
    }

    void flatFunctionIsUnchanged() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Buffer B = Buffer::make("B", DataType::float32(), {64});
        Var i("i");
        PrimFunc f = PrimFunc::make("copy", {A, B}, loop(i, 64, store(B, load(A, {i}), {i})));
        QVERIFY(storageFlatten(f).sameAs(f));
    }

    void wrongIndexCountIsAnError() {
        Buffer A = Buffer::make("A", DataType::float32(), {4, 4});
        Var i("i");
        PrimFunc f = PrimFunc::make("bad", {A}, loop(i, 4, store(A, Expr(1.0), {i})));
        QVERIFY_THROWS_EXCEPTION(InternalError, storageFlatten(f));
    }
};

QTEST_APPLESS_MAIN(TestPassStorageFlatten)
#include "tst_pass_storage_flatten.moc"
