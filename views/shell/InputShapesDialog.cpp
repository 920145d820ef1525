#include "shell/InputShapesDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace tessel::views {

QString checkShapeText(const ModelInput& input, const QString& text) {
    const QStringList parts = text.trimmed().split(QLatin1Char('x'), Qt::KeepEmptyParts);
    if (text.trimmed().isEmpty()) return InputShapesDialog::tr("%1: give a shape such as 1x3x224x224").arg(input.name);
    if (parts.size() != input.dims.size())
        return InputShapesDialog::tr("%1 has %2 dimensions, %3 given").arg(input.name).arg(input.dims.size()).arg(parts.size());
    for (int i = 0; i < parts.size(); ++i) {
        bool ok = false;
        qint64 d = parts[i].trimmed().toLongLong(&ok);
        if (!ok || d <= 0)
            return InputShapesDialog::tr("%1: dimension %2 is not a positive number").arg(input.name).arg(i);
        if (input.dims[i] >= 0 && input.dims[i] != d)
            return InputShapesDialog::tr("%1: dimension %2 is fixed to %3 by the model").arg(input.name).arg(i).arg(input.dims[i]);
    }
    return {};
}

InputShapesDialog::InputShapesDialog(const QString& modelName, const QVector<ModelInput>& inputs, QWidget* parent)
    : QDialog(parent), inputs_(inputs) {
    setWindowTitle(tr("Input shapes"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(
        tr("%1 has inputs with dynamic dimensions (shown as ?). Tessel compiles for fixed shapes: "
           "give each input's shape.")
            .arg(modelName),
        this));
    auto* form = new QFormLayout;
    for (const auto& in : inputs_) {
        if (!in.dynamic()) continue;
        QStringList shown, guess;
        for (qint64 d : in.dims) {
            shown << (d < 0 ? QStringLiteral("?") : QString::number(d));
            guess << QString::number(d < 0 ? 1 : d);
        }
        auto* edit = new QLineEdit(guess.join(QLatin1Char('x')), this);
        edit->setObjectName(in.name);
        edit->setToolTip(tr("%1 %2[%3]").arg(in.name, in.dtype, shown.join(QStringLiteral(", "))));
        fields_.insert(in.name, edit);
        form->addRow(QStringLiteral("%1  %2[%3]").arg(in.name, in.dtype, shown.join(QStringLiteral(", "))), edit);
        connect(edit, &QLineEdit::textChanged, this, &InputShapesDialog::validate);
    }
    layout->addLayout(form);
    error_ = new QLabel(this);
    error_->setStyleSheet(QStringLiteral("color: #c0392b"));
    layout->addWidget(error_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons_);
    validate();
}

void InputShapesDialog::validate() {
    QString err;
    for (const auto& in : inputs_)
        if (auto* f = fields_.value(in.name); f && err.isEmpty()) err = checkShapeText(in, f->text());
    error_->setText(err);
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(err.isEmpty());
}

QMap<QString, QString> InputShapesDialog::shapes() const {
    QMap<QString, QString> out;
    for (auto it = fields_.begin(); it != fields_.end(); ++it) out.insert(it.key(), it.value()->text().trimmed());
    return out;
}

} // namespace tessel::views
