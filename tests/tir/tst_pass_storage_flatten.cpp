// storage-flatten: N-d parameters and realizations become flat buffers (TIR text in -> text out).
#include "ir/Check.h"
#include "tir/IRParser.h"
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
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def copy(A: T.Buffer((16, 8), "float32"), B: T.Buffer((16, 8), "float32")):
    for i in range(16):
        for j in range(8):
            B[i, j] = A[i, j]
)");
        Buffer A = f->params[0], B = f->params[1];
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
        Buffer T = Buffer::make("tmp", DataType::float32(), {16, 8});
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def main(A: T.Buffer((16, 8), "float32"), B: T.Buffer((16, 8), "float32")):
    with T.realize(tmp[0:16, 0:8], "global"):
        for i in range(16):
            for j in range(8):
                tmp[i, j] = A[i, j] * T.float32(2.0)
        for i in range(16):
            for j in range(8):
                B[i, j] = tmp[i, j] + T.float32(1.0)
)",
                                   {T});
        PrimFunc g = storageFlatten(f);
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
        Buffer T = Buffer::make("tmp", DataType::float32(), {16, 8}, "local");
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def main(A: T.Buffer((16, 8), "float32"), B: T.Buffer((16, 8), "float32")):
    for i in range(16):
        with T.realize(tmp[i:i + 1, 0:8], "local"):
            for j in range(8):
                tmp[i, j] = A[i, j]
            for j in range(8):
                B[i, j] = tmp[i, j]
)",
                                   {T});
        PrimFunc g = storageFlatten(f);
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
        Buffer T = Buffer::make("tmp", DataType::float32(), {2, 3, 10});
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def main(A: T.Buffer((2, 3, 4), "float32")):
    with T.realize(tmp[0:2, 0:3, 2:6], "global"):
        for i in range(2):
            for j in range(3):
                for k in range(4):
                    tmp[i, j, k + 2] = A[i, j, k]
)",
                                   {T});
        PrimFunc g = storageFlatten(f);
        QCOMPARE(text(g), QString(R"(@T.prim_func
def main(A: T.Buffer((24,), "float32")):
    tmp = T.allocate([24], "float32", "global")
    for i in range(2):
        for j in range(3):
            for k in range(4):
                tmp[i * 12 + j * 4 + (k + 2 - 2)] = A[i * 12 + j * 4 + k]
)"));
    }

    // buffer_dim_align (storage_align): rows of a 32 x 32 tile padded to 33
    // elements; the attribute goes.
    void dimAlignPadsTheStride() {
        Buffer T = Buffer::make("tile", DataType::float32(), {32, 32}, "shared");
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def main(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32")):
    with T.realize(tile[0:32, 0:32], "shared"):
        for i in range(32):
            for j in range(32):
                tile[i, j] = A[i, j]
        for i in range(32):
            for j in range(32):
                B[i, j] = tile[j, i]
)",
                                   {T});
        auto i32 = [](int64_t v) { return makeConst(DataType::int32(), v); };
        Stmt aligned = AttrStmtNode::make(kBufferDimAlign,
                                          CallNode::makeExtern(DataType::int32(), "tvm_tuple", {T->data, i32(0), i32(32), i32(1)}),
                                          f->body);
        PrimFunc g = storageFlatten(PrimFunc::make(f->name, f->params, aligned));
        QCOMPARE(text(g), QString(R"(@T.prim_func
def main(A: T.Buffer((1024,), "float32"), B: T.Buffer((1024,), "float32")):
    tile = T.allocate([1056], "float32", "shared")
    for i in range(32):
        for j in range(32):
            tile[i * 33 + j] = A[i * 32 + j]
    for i_1 in range(32):
        for j_1 in range(32):
            B[i_1 * 32 + j_1] = tile[j_1 * 33 + i_1]
)"));
    }

    void flatFunctionIsUnchanged() {
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def copy(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
    for i in range(64):
        B[i] = A[i]
)");
        QVERIFY(storageFlatten(f).sameAs(f));
    }

    void wrongIndexCountIsAnError() {
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def bad(A: T.Buffer((4, 4), "float32")):
    for i in range(4):
        A[i] = T.float32(1.0)
)");
        QVERIFY_THROWS_EXCEPTION(InternalError, storageFlatten(f));
    }
};

QTEST_APPLESS_MAIN(TestPassStorageFlatten)
#include "tst_pass_storage_flatten.moc"
