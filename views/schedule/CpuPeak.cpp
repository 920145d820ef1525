#include "schedule/CpuPeak.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSet>
#include <QThread>

namespace tessel::views {

namespace {

QString readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromLatin1(f.readAll());
}

/// The highest cpuinfo_max_freq of any CPU, in kHz; 0 without cpufreq.
double cpufreqMaxKHz() {
    double best = 0;
    QDir dir(QStringLiteral("/sys/devices/system/cpu"));
    const auto cpus = dir.entryList({QStringLiteral("cpu[0-9]*")}, QDir::Dirs);
    for (const auto& cpu : cpus) {
        bool ok = false;
        double khz = readFile(dir.filePath(cpu + QStringLiteral("/cpufreq/cpuinfo_max_freq"))).trimmed().toDouble(&ok);
        if (ok) best = qMax(best, khz);
    }
    return best;
}

} // namespace

QString CpuPeak::explanation() const {
    if (ghz <= 0)
        return QCoreApplication::translate("CpuPeak", "The peak is unknown: the clock of this CPU could not be read.");
    return QCoreApplication::translate(
               "CpuPeak",
               "Peak = %1 cores × %2 GHz × %3 FLOP/cycle = %4 GFLOP/s.\n"
               "FLOP/cycle: %5 single-precision vectors, two fused multiply-add units per core.\n"
               "Clock: %6.")
        .arg(cores)
        .arg(ghz, 0, 'f', 2)
        .arg(flopsPerCycle)
        .arg(gflops(), 0, 'f', 0)
        .arg(isa, clockSource);
}

CpuPeak detectCpuPeak(const QString& cpuinfo, double maxFreqKHz, bool avx512, bool avx2, bool fma, bool avx) {
    CpuPeak p;
    // Cores: distinct (physical id, core id) pairs; hyper-threads share a core's units.
    QSet<QString> cores;
    QString physical = QStringLiteral("0");
    double mhz = 0;
    bool amd = false;
    const auto lines = cpuinfo.split(QLatin1Char('\n'));
    for (const auto& line : lines) {
        int colon = line.indexOf(QLatin1Char(':'));
        if (colon < 0) continue;
        QString key = line.left(colon).trimmed();
        QString value = line.mid(colon + 1).trimmed();
        if (key == QLatin1String("physical id")) physical = value;
        else if (key == QLatin1String("core id")) cores.insert(physical + QLatin1Char('/') + value);
        else if (key == QLatin1String("cpu MHz")) mhz = qMax(mhz, value.toDouble());
        else if (key == QLatin1String("vendor_id")) amd = value.contains(QLatin1String("AMD"));
    }
    p.cores = cores.isEmpty() ? qMax(1, QThread::idealThreadCount()) : int(cores.size());
    if (maxFreqKHz > 0) {
        p.ghz = maxFreqKHz / 1e6;
        p.clockSource = QCoreApplication::translate("CpuPeak", "highest cpufreq maximum");
    } else if (mhz > 0) {
        p.ghz = mhz / 1e3;
        p.clockSource = QCoreApplication::translate("CpuPeak", "\"cpu MHz\" in /proc/cpuinfo");
    }
    if (avx512) {
        p.flopsPerCycle = amd ? 32 : 64;
        p.isa = QStringLiteral("AVX-512");
    } else if (avx2 && fma) {
        p.flopsPerCycle = 32;
        p.isa = QStringLiteral("AVX2 + FMA");
    } else if (avx) {
        p.flopsPerCycle = 16;
        p.isa = QStringLiteral("AVX");
    } else {
        p.flopsPerCycle = 8;
        p.isa = QStringLiteral("SSE");
    }
    return p;
}

const CpuPeak& cpuPeak() {
    static const CpuPeak peak = [] {
        bool avx512 = false, avx2 = false, fma = false, avx = false;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_cpu_init();
        avx512 = __builtin_cpu_supports("avx512f");
        avx2 = __builtin_cpu_supports("avx2");
        fma = __builtin_cpu_supports("fma");
        avx = __builtin_cpu_supports("avx");
#endif
        return detectCpuPeak(readFile(QStringLiteral("/proc/cpuinfo")), cpufreqMaxKHz(), avx512, avx2, fma, avx);
    }();
    return peak;
}

} // namespace tessel::views
