/// \file
/// The project file: what is open (a model with its input shapes, or a TE
/// script), the target, the hand-edited schedule of each fused function and
/// the Tuning view's settings and the window layout, as one JSON document written atomically (QSaveFile), so
/// a crash while saving never leaves half a project behind.
///
/// Paths are stored relative to the project file when they are below its
/// folder, so a project moves with its model.
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QVariantMap>

namespace tessel::views {

struct Project {
    static constexpr int kVersion = 1;

    QString modelPath;                  ///< absolute; empty when a script is open
    QMap<QString, QString> inputShapes; ///< input name -> "1,3,224,224" (shell/InputShapes)
    QString scriptPath;                 ///< absolute; empty when a model is open
    QString scriptText;                 ///< the script's text as edited (kept even if unsaved)
    QString target = QStringLiteral("host");
    QString records;                    ///< tuned configurations (Session::recordsPath); empty: none
    QMap<QString, QString> schedules;   ///< fused function -> TE script
    QString currentFunction;
    /// The Tuning view's settings (Session::tuningSettings): tuner, trials, workload, …
    QVariantMap tuning;
    QByteArray windowGeometry, windowState;

    /// Writes the project to `path` atomically. Returns an error message, or
    /// an empty string on success.
    QString save(const QString& path) const;
    /// Reads `path`; on failure returns false and sets `error` (the project
    /// is left unchanged).
    bool load(const QString& path, QString* error);

    /// The JSON text (paths relative to `projectDir`).
    QByteArray toJson(const QString& projectDir) const;
    /// Parses JSON text; relative paths resolve against `projectDir`.
    bool fromJson(const QByteArray& json, const QString& projectDir, QString* error);
};

} // namespace tessel::views
