#include "shell/PassReference.h"


#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace tessel::views {

namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

template <class Passes>
QString section(const QString& title, const QString& intro, const Passes& passes) {
    QString html = QStringLiteral("<h2>%1</h2><p>%2</p>").arg(title.toHtmlEscaped(), intro.toHtmlEscaped());
    html += QStringLiteral("<ul>");
    for (const auto& p : passes) html += QStringLiteral("<li><a href=\"#%1\">%1</a></li>").arg(esc(p.name));
    html += QStringLiteral("</ul>");
    for (const auto& p : passes) {
        html += QStringLiteral("<h3><a name=\"%1\"></a><code>%1</code></h3><p><b>%2</b></p><p>%3</p>")
                    .arg(esc(p.name), esc(p.summary), esc(p.description));
        if (!p.options.empty()) {
            html += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><tr><th>%1</th><th>%2</th><th>%3</th></tr>")
                        .arg(PassReferenceDialog::tr("Option"), PassReferenceDialog::tr("Default"),
                             PassReferenceDialog::tr("Meaning"));
            for (const auto& o : p.options)
                html += QStringLiteral("<tr><td><code>%1</code></td><td><code>%2</code></td><td>%3</td></tr>")
                            .arg(esc(o.name), esc(o.defaultValue), esc(o.help));
            html += QStringLiteral("</table>");
        }
    }
    return html;
}

} // namespace

QString passReferenceHtml(const driver::Context& context) {
    QString html = QStringLiteral("<html><body><h1>%1</h1>").arg(PassReferenceDialog::tr("Pass reference"));
    html += section(PassReferenceDialog::tr("Graph passes"),
                    PassReferenceDialog::tr("Run on the whole model after import, in the order of the default "
                                            "pipeline; the graph view shows the graph after each."),
                    context.graphPasses.passes());
    html += section(PassReferenceDialog::tr("TIR passes"),
                    PassReferenceDialog::tr("Run on each fused function's loop program after lowering its "
                                            "schedule; the stage view shows the TIR after each."),
                    context.tirPasses.passes());
    html += QStringLiteral("<h2>%1</h2><p>%2</p></body></html>")
                .arg(PassReferenceDialog::tr("LLVM optimisation"),
                     PassReferenceDialog::tr("The lowered TIR becomes LLVM IR with a debug location per TIR line; "
                                             "LLVM's O3 pipeline optimises it for this CPU and the code generator "
                                             "writes assembly. The code view links all three."));
    return html;
}

PassReferenceDialog::PassReferenceDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Pass reference"));
    auto* layout = new QVBoxLayout(this);
    auto* browser = new QTextBrowser(this);
    browser->setOpenLinks(true);
    browser->setHtml(passReferenceHtml());
    layout->addWidget(browser);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(760, 640);
}

} // namespace tessel::views
