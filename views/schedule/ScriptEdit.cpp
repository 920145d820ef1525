#include "schedule/ScriptEdit.h"

#include "topi/script/ScriptModule.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QScrollBar>
#include <QStringListModel>
#include <QTextBlock>

namespace tessel::views {

namespace {

bool isWordChar(QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); }

} // namespace

QStringList ScriptEdit::primitives() {
    QStringList words = {QStringLiteral("split"),          QStringLiteral("tile"),         QStringLiteral("reorder"),
            QStringLiteral("fuse"),           QStringLiteral("vectorize"),    QStringLiteral("unroll"),
            QStringLiteral("parallel"),       QStringLiteral("compute_at"),   QStringLiteral("compute_inline"),
            QStringLiteral("compute_root"),   QStringLiteral("cache_write"),  QStringLiteral("cache_read"),
            QStringLiteral("pragma"),         QStringLiteral("op"),           QStringLiteral("axis"),
            QStringLiteral("reduce_axis"),    QStringLiteral("leaf_iter_vars"), QStringLiteral("factor"),
            QStringLiteral("nparts"),         QStringLiteral("placeholder"),  QStringLiteral("compute"),
            QStringLiteral("create_schedule"), QStringLiteral("sum"),         QStringLiteral("max"),
            QStringLiteral("min"),            QStringLiteral("build"),        QStringLiteral("lower")};
    // topi.nn.conv2d and the rest: the words after each dot.
    words << QStringLiteral("topi") << QStringLiteral("nn");
    for (const auto& f : topi::script::scriptFunctions()) {
        const QString leaf = QString::fromStdString(f.name.substr(f.name.rfind('.') + 1));
        if (!words.contains(leaf)) words << leaf;
    }
    return words;
}

ScriptEdit::ScriptEdit(QWidget* parent)
    : CodeEditor(parent), completer_(new QCompleter(this)), model_(new QStringListModel(this)) {
    setReadOnly(false);
    setLanguage(Language::Te);
    model_->setStringList(completions());
    completer_->setModel(model_);
    completer_->setWidget(this);
    completer_->setCompletionMode(QCompleter::PopupCompletion);
    completer_->setCaseSensitivity(Qt::CaseInsensitive);
    completer_->setModelSorting(QCompleter::UnsortedModel);
    completer_->setWrapAround(false);
    connect(completer_, qOverload<const QString&>(&QCompleter::activated), this, &ScriptEdit::insertCompletion);
    // Undo steps follow the user's edits: QTextDocument merges a typed key
    // into the previous step only while the document is modified since its
    // last clean mark, so moving the cursor away marks it clean (the text's
    // saved state is the Session's business, not this flag's).
    connect(document(), &QTextDocument::contentsChange, this,
            [this](int position, int, int added) { editEnd_ = position + added; });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        if (textCursor().position() != editEnd_) endUndoStep();
    });
}

void ScriptEdit::endUndoStep() { document()->setModified(false); }

void ScriptEdit::setNames(const QStringList& names) {
    QStringList words = primitives();
    for (const auto& n : names)
        if (!words.contains(n)) words << n;
    std::sort(words.begin(), words.end(), [](const QString& a, const QString& b) {
        return a.compare(b, Qt::CaseInsensitive) < 0;
    });
    model_->setStringList(words);
}

QStringList ScriptEdit::completions() const {
    QStringList words = model_->stringList();
    return words.isEmpty() ? primitives() : words;
}

QString ScriptEdit::wordBeforeCursor() const {
    QTextCursor c = textCursor();
    const QString text = c.block().text();
    int end = c.positionInBlock(), start = end;
    while (start > 0 && isWordChar(text[start - 1])) --start;
    return text.mid(start, end - start);
}

void ScriptEdit::showPopup(const QString& prefix) {
    if (prefix != completer_->completionPrefix()) {
        completer_->setCompletionPrefix(prefix);
        completer_->popup()->setCurrentIndex(completer_->completionModel()->index(0, 0));
    }
    if (completer_->completionCount() == 0) {
        completer_->popup()->hide();
        return;
    }
    QRect r = cursorRect();
    r.setWidth(completer_->popup()->sizeHintForColumn(0) + completer_->popup()->verticalScrollBar()->sizeHint().width());
    completer_->complete(r);
}

void ScriptEdit::complete() {
    if (isReadOnly()) return;
    showPopup(wordBeforeCursor());
}

void ScriptEdit::insertCompletion(const QString& word) {
    if (completer_->widget() != this) return;
    QTextCursor c = textCursor();
    // Replace the typed prefix with the whole word (the case may differ).
    c.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, int(completer_->completionPrefix().size()));
    c.insertText(word);
    setTextCursor(c);
}

void ScriptEdit::focusInEvent(QFocusEvent* event) {
    completer_->setWidget(this);
    CodeEditor::focusInEvent(event);
}

void ScriptEdit::keyPressEvent(QKeyEvent* event) {
    QAbstractItemView* popup = completer_->popup();
    if (popup->isVisible()) {
        // The popup takes these; the completer inserts or closes.
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Tab:
            if (popup->currentIndex().isValid()) {
                insertCompletion(popup->currentIndex().data().toString());
                popup->hide();
                event->accept();
                return;
            }
            popup->hide();
            break;
        case Qt::Key_Escape:
        case Qt::Key_Backtab:
            popup->hide();
            event->accept();
            return;
        default: break;
        }
    }
    const bool ctrlSpace = event->key() == Qt::Key_Space && (event->modifiers() & Qt::ControlModifier);
    if (ctrlSpace) {
        complete();
        event->accept();
        return;
    }
    CodeEditor::keyPressEvent(event);
    if (isReadOnly()) return;
    const QString typed = event->text();
    if (typed == QLatin1String(".")) {
        showPopup(QString());
    } else if (popup->isVisible()) {
        // Narrow while a word is typed; anything else ends the completion.
        if (!typed.isEmpty() && !isWordChar(typed.back()) && event->key() != Qt::Key_Backspace)
            popup->hide();
        else
            showPopup(wordBeforeCursor());
    }
}

} // namespace tessel::views
