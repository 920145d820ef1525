/// \file
/// The stage view: the compiler pipeline as a list of passes (the graph
/// passes, the lowering steps, then for the selected function its TIR passes
/// and LLVM's optimisation), each with its summary, description, time and a
/// mark when it changed the IR; selecting one shows the IR before and after
/// it side by side, as a line diff whose two sides scroll together.
///
/// Graph passes come from Session::model()->graphStages, the lowering steps
/// (fused groups to TE, storage planning: a new form rather than a changed
/// one, so shown whole) from Session::model()->lowerStages, TIR passes from the
/// selected function's snapshots (Session::artifacts(), or the model's
/// function while those are not computed), LLVM from the artifacts' IR before
/// and after optimisation. Pass documentation comes from the graph and TIR
/// pass registries and the lowering steps' records, so it never drifts from
/// the passes that exist. Diffs are
/// computed on a worker (Jobs); only the result is applied here.
#pragma once

#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QSplitter;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace tessel::driver {
struct CompiledModel;
struct FunctionArtifacts;
struct LoweredFunction;
} // namespace tessel::driver

namespace tessel::views {

class CodeEditor;
class Session;
struct SideBySide;

class StageView : public QWidget {
    Q_OBJECT
public:
    /// The groups of passes, top to bottom.
    enum Group { GraphPasses, LoweringSteps, TirPasses, LlvmPasses };
    Q_ENUM(Group)

    explicit StageView(Session* session, QWidget* parent = nullptr);
    ~StageView() override;

    /// The pass list: one top-level item per group present, one child per pass.
    QTreeWidget* passList() const { return tree_; }
    /// The group's top-level item, or null when the group has no passes now.
    QTreeWidgetItem* groupItem(Group group) const;
    /// Selects the `occurrence`-th pass called `name` of `group` (as a click
    /// would); false when there is none.
    bool selectPass(Group group, const QString& name, int occurrence = 0);
    /// The selected pass's name, or empty.
    QString selectedPass() const;

    /// "Hide passes that changed nothing".
    void setHideUnchanged(bool hide);
    bool hideUnchanged() const;
    QCheckBox* hideUnchangedBox() const { return hideUnchanged_; }
    /// Passes listed and not hidden, over all groups.
    int visiblePassCount() const;

    /// The two sides of the diff, and the label with the pass's documentation.
    CodeEditor* beforeEditor() const { return before_; }
    CodeEditor* afterEditor() const { return after_; }
    QLabel* descriptionLabel() const { return description_; }

    /// Colours of the diff rows, set as the background of the editors' text
    /// blocks (QTextBlockFormat): removed rows on the left, added rows on the
    /// right, filler rows on either side.
    static QColor removedColor();
    static QColor addedColor();
    static QColor fillerColor();

signals:
    /// The diff of the selected pass is on screen.
    void diffShown();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The pass list as wide as its columns; then arrange().
    void fitListToColumns();
    /// The pass list beside the diff or above it, as the room allows.
    void arrange();
    int listLeastWidth_ = 0;
    struct Entry;
    void rebuild();
    void addGraphGroup(const driver::CompiledModel& model);
    void addLoweringGroup(const driver::CompiledModel& model);
    void addTirGroup(const driver::LoweredFunction& f, const QString& function);
    void addLlvmGroup(const driver::FunctionArtifacts& a);
    QTreeWidgetItem* addGroup(Group group, const QString& title);
    void addEntry(QTreeWidgetItem* group, Entry entry);
    void applyHideUnchanged();
    void showSelected();
    void showDiff(int entry, const SideBySide& diff, bool hasBefore);

    Session* session_;
    /// Keep the texts the entries point into alive.
    std::shared_ptr<const driver::CompiledModel> model_;
    std::shared_ptr<const driver::FunctionArtifacts> artifacts_;
    std::vector<Entry> entries_;

    QTreeWidget* tree_;
    QCheckBox* hideUnchanged_;
    QSplitter* split_ = nullptr; ///< the pass list beside (or above) the description and the diff
    QLabel* description_;
    QLabel* beforeTitle_;
    QLabel* afterTitle_;
    QLabel* stats_;
    CodeEditor* before_;
    CodeEditor* after_;
    bool syncing_ = false;
};

} // namespace tessel::views
