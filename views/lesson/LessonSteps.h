/// \file
/// A guided lesson as plain values: the steps of a ladder of TE scripts (the
/// GEMM ladder, resources/examples/gemm/01..08*.te, or the GPU's,
/// resources/examples/gemm-gpu) and what lesson.json says about them: the
/// target they are for, the tutorial step each follows and the figure it
/// published.
///
/// Each script explains itself in the comment block it starts with; its first
/// comment line is the step's title.
#pragma once

#include <QString>
#include <QVector>

#include <optional>

namespace tessel::views {

struct LessonStep {
    QString path;         ///< absolute path of the .te file
    QString fileName;     ///< "02_blocking.te"
    QString title;        ///< the first comment line, without '#'
    QString explanation;  ///< the leading comment block, as paragraphs
    QString script;       ///< the whole file
    QString code;         ///< the script after its leading comment block
    QString tutorialStep; ///< the tutorial's name for it ("Opt1: blocking"); empty when none
    std::optional<double> publishedSeconds; ///< the tutorial's printed time
    QString note;         ///< e.g. "beyond the tutorial"
};

struct Lesson {
    QString title;
    /// The target its steps are for ("cuda -mcpu=sm_90" for the GPU ladder);
    /// empty: this machine.
    QString target;
    QString sourceTitle, sourceAuthors, sourceUrl, docsVersion, retrieved, machine, figures;
    std::optional<double> numpySeconds;
    QVector<LessonStep> steps;
};

/// The title and explanation of a script: its first comment line and its
/// leading comment block ('#' and one space removed, empty '#' lines ending
/// paragraphs), and the rest of the script.
void splitHeader(const QString& script, QString* title, QString* explanation, QString* code);

/// Loads every `*.te` of `dir` (sorted by name) and `dir/lesson.json` when
/// present. Returns an empty lesson and sets `error` when `dir` has no script.
Lesson loadLesson(const QString& dir, QString* error = nullptr);

} // namespace tessel::views
