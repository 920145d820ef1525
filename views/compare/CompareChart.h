/// \file
/// A comparison as a horizontal grouped bar chart (QCustomPlot, the Qt 6
/// build): per fused function a bar for side A and one for side B (ms per
/// run of the model, log scale, as the figures span orders of magnitude),
/// the end-to-end pair at the top and the functions under it, slowest on A
/// first (compareRowOrder); beside each pair its ratio B / A, green where B
/// is faster and red where it is slower. A function only one side runs has
/// one bar and says so. Exports as PNG and PDF at a size that shows every
/// function.
#pragma once

#include <qcustomplot.h>

#include <memory>

namespace tessel::driver {
struct CompareResult;
}

namespace tessel::views {

class CompareChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit CompareChart(QWidget* parent = nullptr);

    /// Draws `result` (null: an empty chart with a hint); the legend names the sides.
    void setResult(std::shared_ptr<const driver::CompareResult> result);

    /// Side A's bars and B's; key 0 is the end-to-end pair (at the top), key
    /// i the i-th function in compareRowOrder; value: milliseconds.
    QCPBars* barsA() const { return barsA_; }
    QCPBars* barsB() const { return barsB_; }
    /// The category names from the top: "end to end", then the functions.
    QStringList categories() const { return categories_; }
    /// The labels beside the pairs, from the top (a pair with one bar says
    /// which side runs it).
    QList<QCPItemText*> ratioLabels() const { return labels_; }
    /// A height (pixels) that gives every category room.
    int preferredHeight() const;

    /// Saves the chart at its preferred height (and at least 900 px wide).
    bool exportPng(const QString& path);
    bool exportPdf(const QString& path);

private:
    QSize exportSize() const;

    QCPBars* barsA_;
    QCPBars* barsB_;
    QCPTextElement* title_;
    QStringList categories_;
    QList<QCPItemText*> labels_;
};

} // namespace tessel::views
