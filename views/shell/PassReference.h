/// \file
/// Help > Pass reference: every graph pass and TIR pass from their registries
/// (name, summary, description, options with defaults), as HTML, so the help
/// never drifts from the passes that exist.
#pragma once

#include "driver/Context.h"

#include <QDialog>
#include <QString>

namespace tessel::views {

/// The reference as an HTML page: the passes of `context`'s registries.
QString passReferenceHtml(const driver::Context& context = driver::Context::builtin());

class PassReferenceDialog : public QDialog {
    Q_OBJECT
public:
    explicit PassReferenceDialog(QWidget* parent = nullptr);
};

} // namespace tessel::views
