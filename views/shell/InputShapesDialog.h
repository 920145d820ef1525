/// \file
/// Asks for the shapes of a model's dynamic inputs ("?" dimensions) before it
/// is compiled: Tessel compiles static shapes, as TVM does. Each field is
/// checked as it is typed ("1x3x224x224", every dimension a positive number
/// where the model has "?", equal to the model's where it is fixed).
#pragma once

#include <QDialog>
#include <QMap>
#include <QString>
#include <QVector>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace tessel::views {

/// One model input as the dialog shows it: dimensions with -1 for dynamic.
struct ModelInput {
    QString name;
    QString dtype;
    QVector<qint64> dims;
    bool dynamic() const { return dims.contains(-1); }
};

/// Checks `text` against `input`; returns an error message or "".
QString checkShapeText(const ModelInput& input, const QString& text);

class InputShapesDialog : public QDialog {
    Q_OBJECT
public:
    InputShapesDialog(const QString& modelName, const QVector<ModelInput>& inputs, QWidget* parent = nullptr);
    /// Input name -> "1x3x224x224" for every dynamic input.
    QMap<QString, QString> shapes() const;
    QLineEdit* field(const QString& input) const { return fields_.value(input); }

private:
    void validate();
    QVector<ModelInput> inputs_;
    QMap<QString, QLineEdit*> fields_;
    QLabel* error_;
    QDialogButtonBox* buttons_;
};

} // namespace tessel::views
