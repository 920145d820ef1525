#include "lesson/LessonSteps.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace tessel::views {

namespace {

QString readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

} // namespace

void splitHeader(const QString& script, QString* title, QString* explanation, QString* code) {
    const QStringList lines = script.split(QLatin1Char('\n'));
    QStringList paragraphs;
    QString paragraph;
    int i = 0;
    for (; i < lines.size() && lines[i].startsWith(QLatin1Char('#')); ++i) {
        QString text = lines[i].mid(1);
        if (text.startsWith(QLatin1Char(' '))) text.remove(0, 1);
        if (i == 0 && title) *title = text.trimmed();
        if (text.trimmed().isEmpty()) {
            if (!paragraph.isEmpty()) paragraphs << paragraph;
            paragraph.clear();
        } else {
            paragraph += (paragraph.isEmpty() ? QString() : QStringLiteral(" ")) + text.trimmed();
        }
    }
    if (!paragraph.isEmpty()) paragraphs << paragraph;
    if (explanation) *explanation = paragraphs.join(QStringLiteral("\n\n"));
    while (i < lines.size() && lines[i].trimmed().isEmpty()) ++i;
    if (code) *code = lines.mid(i).join(QLatin1Char('\n'));
}

Lesson loadLesson(const QString& dirPath, QString* error) {
    Lesson lesson;
    QDir dir(dirPath);
    const QStringList files = dir.entryList({QStringLiteral("*.te")}, QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        if (error) *error = QCoreApplication::translate("Lesson", "No lesson scripts in %1").arg(dir.absolutePath());
        return lesson;
    }
    // lesson.json: the tutorial's figures per file (optional).
    QJsonObject json = QJsonDocument::fromJson(readText(dir.filePath(QStringLiteral("lesson.json"))).toUtf8()).object();
    QJsonObject source = json.value(QLatin1String("source")).toObject();
    lesson.title = json.value(QLatin1String("title")).toString();
    lesson.target = json.value(QLatin1String("target")).toString();
    lesson.sourceTitle = source.value(QLatin1String("title")).toString();
    lesson.sourceAuthors = source.value(QLatin1String("authors")).toString();
    lesson.sourceUrl = source.value(QLatin1String("url")).toString();
    lesson.docsVersion = source.value(QLatin1String("docsVersion")).toString();
    lesson.retrieved = source.value(QLatin1String("retrieved")).toString();
    lesson.machine = source.value(QLatin1String("machine")).toString();
    lesson.figures = source.value(QLatin1String("figures")).toString();
    if (json.value(QLatin1String("numpySeconds")).isDouble())
        lesson.numpySeconds = json.value(QLatin1String("numpySeconds")).toDouble();
    QHash<QString, QJsonObject> perFile;
    for (const auto& v : json.value(QLatin1String("steps")).toArray()) {
        QJsonObject o = v.toObject();
        perFile.insert(o.value(QLatin1String("file")).toString(), o);
    }
    for (const auto& file : files) {
        LessonStep step;
        step.path = dir.absoluteFilePath(file);
        step.fileName = file;
        step.script = readText(step.path);
        splitHeader(step.script, &step.title, &step.explanation, &step.code);
        if (step.title.isEmpty()) step.title = file;
        const QJsonObject o = perFile.value(file);
        step.tutorialStep = o.value(QLatin1String("tutorial")).toString();
        if (o.value(QLatin1String("publishedSeconds")).isDouble())
            step.publishedSeconds = o.value(QLatin1String("publishedSeconds")).toDouble();
        step.note = o.value(QLatin1String("note")).toString();
        lesson.steps.push_back(step);
    }
    return lesson;
}

} // namespace tessel::views
