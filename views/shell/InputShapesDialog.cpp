#include "shell/InputShapesDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace tessel::views {

InputShapesDialog::InputShapesDialog(const QString& modelName, const QVector<ModelInput>& inputs,
                                     const QMap<QString, QString>& given, QWidget* parent)
    : QDialog(parent), inputs_(inputs) {
    setWindowTitle(tr("Input shapes"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("%1 has inputs with dynamic dimensions (shown by name or as ?). Tessel compiles "
                                "for fixed shapes: give each input's dimensions, separated by commas.")
                                 .arg(modelName),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    const QVector<QVector<qint64>> suggested = suggestShapes(inputs_);
    QLineEdit* first = nullptr;
    for (int k = 0; k < inputs_.size(); ++k) {
        const ModelInput& in = inputs_[k];
        if (!in.dynamic()) continue;
        auto* edit = new QLineEdit(given.contains(in.name) ? given.value(in.name) : shapeText(suggested[k]), this);
        edit->setObjectName(in.name);
        edit->setPlaceholderText(shapeText(in.dims));
        edit->setToolTip(tr("The dimensions of %1, e.g. %2 (as tesselc --input-shape %1:%2 takes them)")
                             .arg(in.name, shapeText(suggested[k])));
        fields_.insert(in.name, edit);
        form->addRow(in.describe(), edit);
        connect(edit, &QLineEdit::textChanged, this, &InputShapesDialog::validate);
        if (!first) first = edit;
    }
    layout->addLayout(form);
    error_ = new QLabel(this);
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    layout->addWidget(error_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons_);
    validate();
    // Typing replaces the first unknown dimension, or the first field's text.
    for (QLineEdit* f : fields_)
        if (const auto at = f->text().indexOf(QLatin1Char('?')); at >= 0) {
            first = f;
            f->setSelection(int(at), 1);
            break;
        }
    if (first) {
        first->setFocus();
        if (!first->hasSelectedText()) first->selectAll();
    }
}

void InputShapesDialog::validate() {
    QString err;
    for (const auto& in : inputs_)
        if (auto* f = fields_.value(in.name); f && err.isEmpty()) err = checkShapeText(in, f->text());
    error_->setText(err);
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(err.isEmpty());
}

QString InputShapesDialog::errorText() const { return error_->text(); }

QMap<QString, QString> InputShapesDialog::shapes() const {
    QMap<QString, QString> out;
    for (auto it = fields_.begin(); it != fields_.end(); ++it) {
        QString text = it.value()->text().trimmed();
        try {
            text = shapeText(parseShapeText(it.key(), text)); // "1, 3,48 ,320" -> "1,3,48,320"
        } catch (const std::exception&) {
        }
        out.insert(it.key(), text);
    }
    return out;
}

} // namespace tessel::views
