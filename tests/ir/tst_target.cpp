// Target as a value: its text form round-trips, without LLVM.

#include "ir/DataType.h"
#include "ir/Diagnostic.h"
#include "ir/Target.h"

#include <QtTest>

using namespace tessel;

class TestTarget : public QObject {
    Q_OBJECT
private slots:
    void roundTrips_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("cpu") << "llvm -mtriple=x86_64-unknown-linux-gnu -mcpu=znver4 -mattr=+avx512f,+fma,-sse4a "
                                "-vector-bits=512 -max-threads=2";
        QTest::newRow("board") << "llvm -mtriple=aarch64-unknown-linux-gnu -mcpu=cortex-a72 -mattr=+neon -vector-bits=128";
        QTest::newRow("c") << "c";
        QTest::newRow("gpu with host") << "cuda -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -max-threads=1024 "
                                          "-host={llvm -mtriple=x86_64-unknown-linux-gnu -mcpu=znver4 -vector-bits=512}";
        QTest::newRow("nested hosts") << "nvptx -mcpu=sm_80 -host={cuda -mcpu=sm_90 -host={llvm -mtriple=aarch64}}";
    }
    void roundTrips() {
        QFETCH(QString, text);
        Target t = Target::parse(text.toStdString());
        QCOMPARE(QString::fromStdString(t.str()), text);
        QVERIFY(Target::parse(t.str()) == t);
    }

    void fields() {
        Target t = Target::parse("cuda -mcpu=sm_90 -max-threads=1024 -host={llvm -mtriple=x86_64-unknown-linux-gnu "
                                 "-mattr=+avx2,-avx512f,+fma -vector-bits=256}");
        QVERIFY(t.kind == TargetKind::CUDA);
        QVERIFY(t.isGPU());
        QCOMPARE(t.cpu, std::string("sm_90"));
        QCOMPARE(t.maxThreads, 1024);
        QVERIFY(t.host);
        QCOMPARE(t.host->arch(), std::string("x86_64"));
        QVERIFY(t.host->hasFeature("avx2"));
        QVERIFY(t.host->hasFeature("fma"));
        QVERIFY(!t.host->hasFeature("avx512f")); // switched off
        QVERIFY(!t.host->hasFeature("avx"));     // a prefix of avx2 is not avx
        QCOMPARE(t.host->vectorLanes(DataType::float32()), 8);
        QCOMPARE(t.host->vectorLanes(DataType::float64()), 4);
        QCOMPARE(t.vectorLanes(DataType::float32()), 1); // no vector width said
    }

    void olderForms() {
        // What project files and records wrote before targets had a kind.
        Target t = Target::parse("aarch64-linux-gnu -mcpu=cortex-a72 -mattr=+neon");
        QVERIFY(t.kind == TargetKind::LLVM);
        QCOMPARE(t.triple, std::string("aarch64-linux-gnu"));
        QCOMPARE(t.cpu, std::string("cortex-a72"));
        QCOMPARE(Target::parse("host").triple, std::string("host")); // resolved by codegen::resolveTarget
        QCOMPARE(Target::parse("").str(), std::string("llvm"));
    }

    void equality() {
        Target a = Target::parse("llvm -mtriple=x86_64 -host={c}");
        Target b = Target::parse("llvm -mtriple=x86_64 -host={c}");
        QVERIFY(a == b);
        b.host = nullptr;
        QVERIFY(a != b);
        b = Target::parse("llvm -mtriple=x86_64 -host={llvm}");
        QVERIFY(a != b);
    }

    void errors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown option") << "llvm -bogus=1" << "unknown target option '-bogus'";
        QTest::newRow("no value") << "llvm -mcpu" << "needs a value";
        QTest::newRow("bad count") << "llvm -vector-bits=wide" << "needs a count";
        QTest::newRow("negative") << "llvm -max-threads=-4" << "needs a count";
        QTest::newRow("open brace") << "cuda -host={llvm" << "unbalanced '{'";
        QTest::newRow("close brace") << "cuda -host=llvm}" << "unbalanced '}'";
        QTest::newRow("host without braces") << "cuda -host=llvm" << "in braces";
        QTest::newRow("second word") << "llvm x86_64" << "unexpected 'x86_64'";
    }
    void errors() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        try {
            Target::parse(text.toStdString());
            QFAIL("no error");
        } catch (const CompileError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestTarget)
#include "tst_target.moc"
