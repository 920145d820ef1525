// The runtime's description of its device: cores, features, clock, memory and
// the peak estimate, from /proc texts of known machines and from this one.

#include "runtime/DeviceInfo.h"

#include <QtTest>

using namespace tessel;
using tessel::runtime::DeviceInfo;

namespace {

std::string twoCores(const std::string& vendor, const std::string& family, const std::string& flags) {
    std::string cpu;
    for (int core = 0; core < 2; ++core)
        cpu += "processor\t: " + std::to_string(core) + "\nvendor_id\t: " + vendor + "\ncpu family\t: " + family +
               "\nmodel name\t: Test CPU\nphysical id\t: 0\ncore id\t: " + std::to_string(core) +
               "\ncpu MHz\t\t: 2000.000\nflags\t\t: " + flags + "\n\n";
    return cpu;
}

const std::string kTriple = "x86_64-unknown-linux-gnu";

} // namespace

class TestDeviceInfo : public QObject {
    Q_OBJECT
private slots:
    void jsonRoundTrips() {
        const DeviceInfo& here = DeviceInfo::local();
        const DeviceInfo back = DeviceInfo::fromJson(here.toJson("0.1.0"));
        QCOMPARE(back.triple, here.triple);
        QCOMPARE(back.cpuName, here.cpuName);
        QCOMPARE(back.features, here.features);
        QCOMPARE(back.cores, here.cores);
        QCOMPARE(back.memoryBytes, here.memoryBytes);
        QCOMPARE(back.l2Bytes, here.l2Bytes);
        QCOMPARE(back.l1dBytes, here.l1dBytes);
        QCOMPARE(back.l3Bytes, here.l3Bytes);
        QCOMPARE(back.peakGflops(), here.peakGflops());
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, DeviceInfo::fromJson("{not json"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, DeviceInfo::fromJson("{\"cores\": \"many\"}"));
    }

    // The cache sizes come from sysfs's cache entries: data and unified
    // caches by level, instruction caches set aside, "K" and "M" sizes.
    void cachesFromSysfs() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto entry = [&](int index, const char* level, const char* type, const char* size) {
            const QString d = dir.path() + QStringLiteral("/index%1").arg(index);
            QVERIFY(QDir().mkpath(d));
            for (auto [name, text] : {std::pair{"level", level}, {"type", type}, {"size", size}}) {
                QFile f(d + QLatin1Char('/') + QLatin1String(name));
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write(QByteArray(text) + '\n');
            }
        };
        entry(0, "1", "Data", "48K");
        entry(1, "1", "Instruction", "32K");
        entry(2, "2", "Unified", "2048K");
        entry(3, "3", "Unified", "96M");
        DeviceInfo d;
        d.readCaches(dir.path().toStdString());
        QCOMPARE(d.l1dBytes, int64_t(48) * 1024);
        QCOMPARE(d.l2Bytes, int64_t(2) * 1024 * 1024);
        QCOMPARE(d.l3Bytes, int64_t(96) * 1024 * 1024);
        DeviceInfo none;
        none.readCaches(dir.path().toStdString() + "/absent");
        QCOMPARE(none.l2Bytes, int64_t(0));
    }

    void peakFormula() {
        // The formula the schedule editor's "% of peak" used before it moved to the runtime.
        DeviceInfo d = DeviceInfo::fromProc(twoCores("GenuineIntel", "6", "sse2 avx avx2 fma avx512f"), "", 0, 4, kTriple);
        QCOMPARE(d.cores, 2);
        QCOMPARE(d.threads, 4);
        QCOMPARE(d.flopsPerCycle, 64);
        QCOMPARE(d.peakGflops(), 256.0);
        QCOMPARE(QString::fromStdString(d.clockSource), QStringLiteral("\"cpu MHz\" in /proc/cpuinfo"));
        d = DeviceInfo::fromProc(twoCores("GenuineIntel", "6", "sse2 avx avx2 fma"), "", 3.5e6, 2, kTriple);
        QCOMPARE(d.peakGflops(), 2 * 3.5 * 32);
        QVERIFY(QString::fromStdString(d.explanation()).contains(QLatin1String("AVX2")));
        QCOMPARE(QString::fromStdString(d.cpuName), QStringLiteral("Test CPU"));
    }

    void amdZen4HalvesAvx512ButZen5DoesNot() {
        DeviceInfo zen4 = DeviceInfo::fromProc(twoCores("AuthenticAMD", "25", "avx avx2 fma avx512f"), "", 0, 2, kTriple);
        QCOMPARE(zen4.flopsPerCycle, 32);
        DeviceInfo zen5 = DeviceInfo::fromProc(twoCores("AuthenticAMD", "26", "avx avx2 fma avx512f"), "", 0, 2, kTriple);
        QCOMPARE(zen5.flopsPerCycle, 64);
        QCOMPARE(zen5.cpuFamily, 26);
    }

    void armFeaturesAndMemory() {
        const std::string cpu = "processor\t: 0\nFeatures\t: fp asimd evtstrm crc32\n\nprocessor\t: 1\n"
                                "Features\t: fp asimd evtstrm crc32\n";
        DeviceInfo d = DeviceInfo::fromProc(cpu, "MemTotal:        2048 kB\nMemFree: 12 kB\n", 1.5e6, 2,
                                            "aarch64-unknown-linux-gnu");
        QCOMPARE(d.isa, std::string("NEON"));
        QCOMPARE(d.cores, 2); // no core ids: one core per thread
        QCOMPARE(d.memoryBytes, int64_t(2048) * 1024);
        QCOMPARE(d.cpuName, std::string("aarch64"));
        Target t = d.target();
        QCOMPARE(t.triple, std::string("aarch64-unknown-linux-gnu"));
        QCOMPARE(t.vectorBits, 128);
        QCOMPARE(t.maxThreads, 2);
        QVERIFY(d.peakGflops() > 0);
    }

    void emulationSetsTheHostsFlagsAside() {
        // qemu-aarch64 on an x86_64 host: /proc/cpuinfo is the host's; its AVX-512
        // must not become the aarch64 device's vector width.
        const std::string x86 = twoCores("AuthenticAMD", "25", "sse2 avx avx2 fma avx512f");
        DeviceInfo d = DeviceInfo::fromProc(x86, "", 2e6, 2, "aarch64-unknown-linux-gnu", {"fp", "asimd"});
        QCOMPARE(d.emulatedOn, std::string("Test CPU"));
        QCOMPARE(d.cpuName, std::string("aarch64"));
        QVERIFY(d.vendor.empty());
        QCOMPARE(d.features, (std::vector<std::string>{"fp", "asimd"}));
        QCOMPARE(d.isa, std::string("NEON"));
        QCOMPARE(d.flopsPerCycle, 16);
        QCOMPARE(d.target().vectorBits, 128);
        QVERIFY(d.explanation().find("Emulated on Test CPU") != std::string::npos);
        QCOMPARE(DeviceInfo::fromJson(d.toJson()).emulatedOn, d.emulatedOn);
        // Without the auxiliary vector's features: scalar, no vector width.
        DeviceInfo bare = DeviceInfo::fromProc(x86, "", 2e6, 2, "aarch64-unknown-linux-gnu");
        QCOMPARE(bare.isa, std::string("scalar"));
        QCOMPARE(bare.target().vectorBits, 0);
        // The other way round: an Arm cpuinfo read by an x86_64 runtime.
        DeviceInfo x = DeviceInfo::fromProc("processor\t: 0\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n", "", 0,
                                            1, kTriple);
        QVERIFY(!x.emulatedOn.empty());
        QCOMPARE(x.isa, std::string("scalar"));
        // A native Arm cpuinfo keeps its own features over the auxiliary vector's.
        DeviceInfo native = DeviceInfo::fromProc("processor\t: 0\nFeatures\t: fp asimd asimddp\n", "", 0, 1,
                                                 "aarch64-unknown-linux-gnu", {"fp"});
        QVERIFY(native.emulatedOn.empty());
        QVERIFY(native.hasFeature("asimddp"));
        QCOMPARE(native.isa, std::string("NEON"));
    }

    void unknownClockHasNoPeak() {
        DeviceInfo d = DeviceInfo::fromProc("processor\t: 0\n", "", 0, 1, kTriple);
        QCOMPARE(d.ghz, 0.0);
        QCOMPARE(d.peakGflops(), 0.0);
        QVERIFY(d.explanation().find("unknown") != std::string::npos);
    }

    void thisMachine() {
        const DeviceInfo& d = DeviceInfo::local();
        QVERIFY(d.cores >= 1);
        QVERIFY(d.threads >= d.cores);
        QVERIFY(!d.triple.empty());
        QVERIFY(d.memoryBytes > 0);
        QVERIFY(d.emulatedOn.empty());
#if defined(__x86_64__)
        QCOMPARE(d.target().arch(), std::string("x86_64"));
        QVERIFY(d.target().vectorBits >= 128);
#endif
    }
};

QTEST_APPLESS_MAIN(TestDeviceInfo)
#include "tst_deviceinfo.moc"
