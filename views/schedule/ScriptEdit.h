/// \file
/// The editable TE script pane of the schedule editor: a CodeEditor with TE
/// colouring and completion of schedule primitives, topi's functions and of
/// the names the script defines.
///
/// Completion pops up after a '.' and on Ctrl+Space, narrows as the word is
/// typed, and inserts the chosen word with Return or Tab (Escape closes it),
/// as Qt Creator's completer does. Everything else is QPlainTextEdit's,
/// undo and redo included, with one rule on top: an undo step is what the
/// user typed in one place. QTextDocument merges typing into the previous
/// step whenever its position follows on from it, even after the cursor went
/// elsewhere and came back (or after a line written by the outline), so one
/// Ctrl+Z took back two edits; here a cursor that moved other than by the
/// edit itself, or a program's edit (endUndoStep()), starts a new step.
#pragma once

#include "common/CodeEditor.h"

#include <QStringList>

class QCompleter;
class QStringListModel;

namespace tessel::views {

class ScriptEdit : public CodeEditor {
    Q_OBJECT
public:
    explicit ScriptEdit(QWidget* parent = nullptr);

    /// The schedule primitives and TE API words that are always offered,
    /// with the functions of the `topi` module (topi::script::scriptFunctions()).
    static QStringList primitives();

    /// Names to offer besides the primitives (tensors, loops, the schedule).
    void setNames(const QStringList& names);
    QStringList completions() const;
    QCompleter* completer() const { return completer_; }

    /// Opens the completion popup for the word at the cursor (Ctrl+Space).
    void complete();
    /// Ends the current undo step: the next edit is undone on its own.
    void endUndoStep();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;

private:
    void insertCompletion(const QString& word);
    QString wordBeforeCursor() const;
    /// Shows the popup for `prefix`, or hides it when nothing matches.
    void showPopup(const QString& prefix);

    QCompleter* completer_;
    QStringListModel* model_;
    /// Where the last edit ended: a cursor anywhere else moved away from it.
    int editEnd_ = -1;
};

} // namespace tessel::views
