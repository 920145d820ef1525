/// \file
/// Unsaved work kept across a crash, in Qt Creator's manner: while the
/// session has unsaved changes, the window writes them every few seconds
/// (autosave) as a recovery file — the session's state as a project (what is
/// open, the script's text as edited, the edited schedules, the tuning
/// settings, the target and the layout) with the project file it belongs to.
/// A clean exit, a save or a discard removes it; after a crash or a kill -9
/// it stays, and the next start offers it back (MainWindow::offerRecovery).
///
/// One file per running IDE, named after its process id and the process's
/// start time (so a later process that got the same id is not mistaken for
/// it): `<dir>/<pid>-<start>.tessel`. A file is left over (an orphan) when
/// no process with that id and start time runs on this boot.
#pragma once

#include "shell/Project.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace tessel::views {

/// A recovery file left by an IDE that did not exit cleanly.
struct RecoveredWork {
    QString file;        ///< the recovery file
    QDateTime written;   ///< when it was last written
    QString projectPath; ///< the project it belonged to (empty: none)
    Project project;     ///< the session as it was
    /// What was unsaved, as the IDE listed it (Session::unsavedChanges).
    QStringList unsaved;
};

class Recovery {
public:
    /// Recovery files under `dir` (default: defaultDir()).
    explicit Recovery(const QString& dir = defaultDir());

    /// `<application data>/recovery`.
    static QString defaultDir();
    QString dir() const { return dir_; }
    /// This process's recovery file.
    QString path() const;

    /// Writes the session's state as this process's recovery file
    /// (atomically); returns an error message, or empty.
    QString write(const Project& session, const QString& projectPath, const QStringList& unsaved) const;
    /// Removes this process's recovery file (nothing unsaved, or a clean exit).
    void remove() const;
    /// Whether this process's recovery file exists.
    bool exists() const;

    /// The files of IDEs that are gone, newest first (unreadable ones are
    /// skipped; they stay for a person to look at).
    QList<RecoveredWork> leftOver() const;
    /// Reads one recovery file; false (and `error`) when it is not one.
    static bool read(const QString& file, RecoveredWork* work, QString* error = nullptr);

    /// Whether process `pid` started at `startTicks` (clock ticks after boot,
    /// /proc/PID/stat) still runs; startTicks 0 matches any start.
    static bool processRuns(qint64 pid, quint64 startTicks);
    /// This process's start, in clock ticks after boot.
    static quint64 ownStartTicks();

private:
    QString dir_;
};

} // namespace tessel::views
