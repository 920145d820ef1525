#include "common/Highlighter.h"

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace tessel::views {

namespace {

struct Rule {
    QRegularExpression re;
    QTextCharFormat format;
};

QTextCharFormat fmt(QColor c, bool bold = false, bool italic = false) {
    QTextCharFormat f;
    f.setForeground(c);
    if (bold) f.setFontWeight(QFont::Bold);
    f.setFontItalic(italic);
    return f;
}

const QColor kKeyword(0, 80, 170), kType(0, 128, 128), kNumber(170, 85, 0), kString(0, 130, 0),
    kComment(120, 120, 120), kName(130, 40, 150), kDirective(150, 100, 0), kAdded(0, 120, 0), kRemoved(180, 0, 0);

class RuleHighlighter : public QSyntaxHighlighter {
public:
    RuleHighlighter(QTextDocument* doc, std::vector<Rule> rules) : QSyntaxHighlighter(doc), rules_(std::move(rules)) {}

protected:
    void highlightBlock(const QString& text) override {
        for (const auto& r : rules_) {
            auto it = r.re.globalMatch(text);
            while (it.hasNext()) {
                auto m = it.next();
                int group = m.lastCapturedIndex() >= 1 ? 1 : 0;
                setFormat(m.capturedStart(group), m.capturedLength(group), r.format);
            }
        }
    }

private:
    std::vector<Rule> rules_;
};

Rule rule(const QString& pattern, QTextCharFormat f) { return {QRegularExpression(pattern), f}; }

std::vector<Rule> rulesFor(Language lang) {
    const QString num = QStringLiteral("\\b-?(0x[0-9a-fA-F]+|\\d+(\\.\\d+)?([eE][-+]?\\d+)?)[fF]?\\b");
    switch (lang) {
    case Language::Te:
        return {rule(num, fmt(kNumber)),
                rule(QStringLiteral("\\b(def|return|for|in|if|else|elif|lambda|import|from|as|and|or|not|True|False|None)\\b"),
                     fmt(kKeyword, true)),
                rule(QStringLiteral("\\b(te|tvm|s|cfg|T)\\b(?=\\.)"), fmt(kType)),
                rule(QStringLiteral("\\.(split|tile|reorder|fuse|vectorize|unroll|parallel|compute_at|compute_inline|"
                                    "compute_root|cache_write|cache_read|bind|pragma|define_split|define_knob|"
                                    "define_reorder|apply)\\b"),
                     fmt(kName, true)),
                rule(QStringLiteral("(\"[^\"]*\"|'[^']*')"), fmt(kString)),
                rule(QStringLiteral("#.*$"), fmt(kComment, false, true))};
    case Language::Tir:
        return {rule(num, fmt(kNumber)),
                rule(QStringLiteral("\\b(for|parallel|vectorized|unrolled|serial|if|else|let|allocate|realize|"
                                    "produce|attr|assert|def|with|in|range|return)\\b"),
                     fmt(kKeyword, true)),
                rule(QStringLiteral("\\b(float32|float64|float16|int8|int16|int32|int64|uint8|bool|handle|"
                                    "x\\d+)\\b"),
                     fmt(kType)),
                rule(QStringLiteral("\\b(T)\\.\\w+"), fmt(kName)),
                rule(QStringLiteral("(\"[^\"]*\")"), fmt(kString)),
                rule(QStringLiteral("(#|//).*$"), fmt(kComment, false, true))};
    case Language::LlvmIr:
        return {rule(num, fmt(kNumber)),
                rule(QStringLiteral("\\b(define|declare|ret|br|label|call|load|store|getelementptr|inbounds|phi|"
                                    "alloca|icmp|fcmp|select|add|sub|mul|fadd|fsub|fmul|fdiv|shl|and|or|xor|"
                                    "nsw|nuw|fast|contract|reassoc|sext|zext|trunc|bitcast|shufflevector|"
                                    "insertelement|extractelement|align|noalias|nocapture|tail|switch|"
                                    "unreachable)\\b"),
                     fmt(kKeyword)),
                rule(QStringLiteral("\\b(i1|i8|i16|i32|i64|float|double|half|void|ptr)\\b|<\\d+ x \\w+>"), fmt(kType)),
                rule(QStringLiteral("[%@][-\\w.$]+"), fmt(kName)),
                rule(QStringLiteral("![\\w.]+"), fmt(kComment)),
                rule(QStringLiteral("(\"[^\"]*\")"), fmt(kString)),
                rule(QStringLiteral(";.*$"), fmt(kComment, false, true))};
    case Language::Assembly:
        return {rule(num, fmt(kNumber)),
                rule(QStringLiteral("^\\s*([a-z][a-z0-9]*)\\b"), fmt(kKeyword, true)),
                rule(QStringLiteral("%[a-z0-9]+"), fmt(kType)),
                rule(QStringLiteral("^\\s*(\\.\\w+)"), fmt(kDirective)),
                rule(QStringLiteral("^([.\\w$]+):"), fmt(kName, true)),
                rule(QStringLiteral("(#.*$)"), fmt(kComment, false, true))};
    case Language::C:
        return {rule(num, fmt(kNumber)),
                rule(QStringLiteral("\\b(for|if|else|while|return|static|inline|const|restrict|void|int|float|double|"
                                    "int8_t|int16_t|int32_t|int64_t|uint8_t|uint32_t|uint64_t|bool|char|sizeof|"
                                    "struct|typedef)\\b"),
                     fmt(kKeyword, true)),
                rule(QStringLiteral("^\\s*(#\\w+.*)$"), fmt(kDirective)),
                rule(QStringLiteral("(\"[^\"]*\")"), fmt(kString)),
                rule(QStringLiteral("(//.*$)"), fmt(kComment, false, true)),
                rule(QStringLiteral("(/\\*.*\\*/)"), fmt(kComment, false, true))};
    case Language::Graph:
        return {rule(num, fmt(kNumber)),
                rule(QStringLiteral("%[\\w.:/-]+"), fmt(kName)),
                rule(QStringLiteral("\\b(float32|float64|int64|int32|int8|uint8|bool)\\b"), fmt(kType)),
                rule(QStringLiteral("=\\s*([A-Z][A-Za-z0-9]+)"), fmt(kKeyword, true)),
                rule(QStringLiteral("(#|//).*$"), fmt(kComment, false, true))};
    case Language::Diff:
        return {rule(QStringLiteral("^\\+.*$"), fmt(kAdded)), rule(QStringLiteral("^-.*$"), fmt(kRemoved)),
                rule(QStringLiteral("^@@.*$"), fmt(kDirective, true))};
    case Language::Plain:
        break;
    }
    return {};
}

} // namespace

QSyntaxHighlighter* makeHighlighter(Language language, QTextDocument* document) {
    auto rules = rulesFor(language);
    if (rules.empty()) return nullptr;
    return new RuleHighlighter(document, std::move(rules));
}

} // namespace tessel::views
