/// \file
/// Asks for the shapes of a model's dynamic inputs ("?" dimensions) before it
/// is compiled: Tessel compiles static shapes, as TVM does. Each field takes
/// an input's dimensions in the compiler's format ("1,3,224,224", as after the
/// ':' of `tesselc --input-shape`), starts from what the model suggests
/// (suggestShapes) and is checked as it is typed (checkShapeText); a dimension
/// the model says nothing about stays "?" and OK stays disabled until every
/// field is a shape that compiles.
#pragma once

#include "shell/InputShapes.h"

#include <QDialog>
#include <QMap>
#include <QString>
#include <QVector>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace tessel::views {

class InputShapesDialog : public QDialog {
    Q_OBJECT
public:
    /// `given` (input name -> shape text) fills the fields it names, e.g. the
    /// shapes a project stored; the others start from the model's suggestions.
    InputShapesDialog(const QString& modelName, const QVector<ModelInput>& inputs,
                      const QMap<QString, QString>& given = {}, QWidget* parent = nullptr);
    /// Input name -> "1,3,224,224" for every dynamic input.
    QMap<QString, QString> shapes() const;
    QLineEdit* field(const QString& input) const { return fields_.value(input); }
    /// The first problem with the fields, as shown under them ("" when none).
    QString errorText() const;

private:
    void validate();
    QVector<ModelInput> inputs_;
    QMap<QString, QLineEdit*> fields_;
    QLabel* error_;
    QDialogButtonBox* buttons_;
};

} // namespace tessel::views
