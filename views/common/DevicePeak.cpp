#include "common/DevicePeak.h"

#include <QCoreApplication>

namespace tessel::views {

namespace {
// DeviceInfo::clockSource's texts, for lupdate.
[[maybe_unused]] const char* const kClockSources[] = {QT_TRANSLATE_NOOP("CpuPeak", "highest cpufreq maximum"),
                                                      QT_TRANSLATE_NOOP("CpuPeak", "\"cpu MHz\" in /proc/cpuinfo")};
} // namespace

QString peakExplanation(const runtime::DeviceInfo& d) {
    if (d.ghz <= 0)
        return QCoreApplication::translate("CpuPeak", "The peak is unknown: the clock of this CPU could not be read.");
    return QCoreApplication::translate(
               "CpuPeak",
               "Peak = %1 cores × %2 GHz × %3 FLOP/cycle = %4 GFLOP/s.\n"
               "FLOP/cycle: %5 single-precision vectors, two fused multiply-add units per core.\n"
               "Clock: %6.")
        .arg(d.cores)
        .arg(d.ghz, 0, 'f', 2)
        .arg(d.flopsPerCycle)
        .arg(d.peakGflops(), 0, 'f', 0)
        .arg(QString::fromStdString(d.isa),
             QCoreApplication::translate("CpuPeak", d.clockSource.c_str()));
}

} // namespace tessel::views
