#include "stepper/ScheduleSteps.h"

#include <QRegularExpression>
#include <QStringList>

namespace tessel::views {

namespace {

/// One statement: its lines (0-based, inclusive).
struct Statement {
    int first = 0, last = 0;
    QString text;
};

/// Splits `lines` into statements: open brackets and a trailing backslash
/// continue a line; text in strings and after '#' does not count.
QList<Statement> statements(const QStringList& lines) {
    QList<Statement> out;
    int depth = 0;
    bool continued = false;
    Statement cur;
    for (int i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (!continued && depth == 0) cur = Statement{i, i, QString()};
        QChar quote;
        bool escaped = false;
        for (const QChar c : line) {
            if (!quote.isNull()) {
                if (escaped) escaped = false;
                else if (c == QLatin1Char('\\')) escaped = true;
                else if (c == quote) quote = QChar();
                continue;
            }
            if (c == QLatin1Char('#')) break;
            if (c == QLatin1Char('"') || c == QLatin1Char('\'')) quote = c;
            else if (c == QLatin1Char('(') || c == QLatin1Char('[') || c == QLatin1Char('{')) ++depth;
            else if (c == QLatin1Char(')') || c == QLatin1Char(']') || c == QLatin1Char('}')) depth = qMax(0, depth - 1);
        }
        cur.last = i;
        cur.text += (cur.text.isEmpty() ? QString() : QStringLiteral("\n")) + line;
        continued = line.trimmed().endsWith(QLatin1Char('\\'));
        if (!continued && depth == 0) out << cur;
    }
    if (continued || depth > 0) out << cur; // an unfinished last statement
    return out;
}

/// The code of a statement without its comments (for matching).
QString code(const QString& text) {
    QStringList kept;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const int hash = int(line.indexOf(QLatin1Char('#')));
        kept << (hash >= 0 ? line.left(hash) : line);
    }
    return kept.join(QLatin1Char(' ')).trimmed();
}

struct Analysis {
    QStringList lines;
    QList<Statement> all;
    /// Per statement: does it act on the schedule (after create_schedule), and is it a primitive.
    QList<bool> onSchedule, primitive;
};

Analysis analyse(const QString& script) {
    Analysis a;
    a.lines = script.split(QLatin1Char('\n'));
    a.all = statements(a.lines);
    static const QRegularExpression create(QStringLiteral(R"(^\s*(\w+)\s*=\s*\w+\.create_schedule\s*\()"));
    static const QRegularExpression build(QStringLiteral(R"(\b(tvm|te|tessel)\.(build|lower)\s*\()"));
    static const QRegularExpression call(QStringLiteral(
        R"(\.(split|tile|fuse|reorder|vectorize|unroll|parallel|compute_at|compute_inline|compute_root|)"
        R"(cache_read|cache_write|pragma|bind|storage_align|rfactor|apply)\s*\()"));
    QString schedule;
    for (const Statement& st : a.all) {
        const QString c = code(st.text);
        bool on = false, prim = false;
        if (schedule.isEmpty()) {
            if (const auto m = create.match(c); m.hasMatch()) schedule = m.captured(1);
        } else if (!c.isEmpty() && !build.match(c).hasMatch()) {
            on = QRegularExpression(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(schedule))).match(c).hasMatch();
            prim = on && call.match(c).hasMatch();
        }
        a.onSchedule << on;
        a.primitive << prim;
    }
    return a;
}

} // namespace

QList<ScheduleStep> scheduleSteps(const QString& script) {
    const Analysis a = analyse(script);
    QList<ScheduleStep> steps;
    for (int i = 0; i < a.all.size(); ++i)
        if (a.primitive[i]) steps << ScheduleStep{a.all[i].first + 1, a.all[i].last + 1, a.all[i].text.trimmed()};
    return steps;
}

QString scriptWithSteps(const QString& script, int count) {
    const Analysis a = analyse(script);
    QStringList lines = a.lines;
    int seen = 0; // primitives so far, this one included
    for (int i = 0; i < a.all.size(); ++i) {
        if (a.primitive[i]) ++seen;
        // Past the count, whatever acts on the schedule goes: the primitives,
        // and getters that may name what a left-out primitive made.
        if (!a.onSchedule[i] || seen <= count) continue;
        for (int l = a.all[i].first; l <= a.all[i].last; ++l) lines[l].clear();
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace tessel::views
