/// \file
/// The editable TE script pane of the schedule editor: a CodeEditor with TE
/// colouring and completion of schedule primitives, topi's functions and of
/// the names the script defines.
///
/// Completion pops up after a '.' and on Ctrl+Space, narrows as the word is
/// typed, and inserts the chosen word with Return or Tab (Escape closes it),
/// as Qt Creator's completer does. Everything else is QPlainTextEdit's,
/// undo and redo included.
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
};

} // namespace tessel::views
