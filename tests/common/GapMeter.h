/// \file
/// How responsive the GUI thread stays: the longest gap between ticks of a
/// 10 ms timer while a test drives long work (tuning, comparing) on workers.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>

namespace tessel::test {

class GapMeter {
public:
    GapMeter() {
        clock_.start();
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const qint64 t = clock_.elapsed();
            if (last_ >= 0) longest_ = std::max(longest_, t - last_);
            last_ = t;
        });
        timer_.start(10);
    }
    /// Milliseconds of the longest gap so far.
    qint64 longest() const { return longest_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = -1, longest_ = 0;
};

} // namespace tessel::test
