// The session's tensor arena: blocks in whole pages, first fit, released
// blocks merged with their free neighbours and zero when handed out again,
// full when no free range is large enough, and shared with a forked child.
#include "rpc/TensorArena.h"

#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

using namespace tessel::rpc;

class TestTensorArena : public QObject {
    Q_OBJECT
private slots:
    void blocksAreWholePagesFirstFit() {
        TensorArena a(1 << 20);
        const uint64_t page = a.blockSize(1);
        QCOMPARE(a.blockSize(0), page);
        QCOMPARE(a.blockSize(page + 1), 2 * page);
        const auto x = a.allocate(10), y = a.allocate(page + 1), z = a.allocate(0);
        QVERIFY(x && y && z);
        QCOMPARE(*x, uint64_t(0));
        QCOMPARE(*y, page);
        QCOMPARE(*z, 3 * page);
        QCOMPARE(a.used(), 4 * page);
        a.release(*y, page + 1);
        QCOMPARE(a.used(), 2 * page);
        // A hole of two pages takes a block of two pages or less.
        const auto w = a.allocate(2 * page);
        QVERIFY(w);
        QCOMPARE(*w, page);
    }

    void releasedBlocksMergeAndReadAsZeros() {
        TensorArena a(16 << 12);
        const uint64_t page = a.blockSize(1);
        const uint64_t n = a.capacity() / page;
        std::vector<uint64_t> blocks;
        for (uint64_t i = 0; i < n; ++i) {
            const auto b = a.allocate(page);
            QVERIFY(b);
            std::memset(a.at(*b), 0xab, page);
            blocks.push_back(*b);
        }
        QVERIFY(!a.allocate(1)); // full
        // Free every other block, then the rest: one range again.
        for (uint64_t i = 0; i < n; i += 2) a.release(blocks[i], page);
        QVERIFY(!a.allocate(2 * page));
        for (uint64_t i = 1; i < n; i += 2) a.release(blocks[i], page);
        QCOMPARE(a.used(), uint64_t(0));
        const auto all = a.allocate(a.capacity());
        QVERIFY(all);
        for (uint64_t i = 0; i < a.capacity(); i += 997) QCOMPARE(int(a.at(*all)[i]), 0);
        QVERIFY(!a.allocate(a.capacity() + 1));
    }

    void aForkedChildSeesAndWritesTheSameBlocks() {
        TensorArena a(1 << 20);
        const auto b = a.allocate(64);
        QVERIFY(b);
        std::strcpy(a.at(*b), "parent");
        const pid_t pid = ::fork();
        if (pid == 0) {
            const bool saw = std::strcmp(a.at(*b), "parent") == 0;
            std::strcpy(a.at(*b), "child");
            ::_exit(saw ? 0 : 1);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        QCOMPARE(QString(a.at(*b)), QString("child"));
    }
};

QTEST_GUILESS_MAIN(TestTensorArena)
#include "tst_tensorarena.moc"
