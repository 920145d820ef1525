/// \file
/// MainWindow's documents: Save / Save As / Revert for scripts, projects,
/// the prompt before unsaved work is lost, autosave and the recovery bar.
#include "shell/MainWindow.h"

#include "common/Session.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTimer>
#include <QToolBar>

namespace tessel::views {

// ---------------------------------------------------------------- projects

bool MainWindow::saveProject(const QString& path) {
    const Project p = sessionAsProject();
    QString err = p.save(path);
    if (!err.isEmpty()) {
        showMessage(err, true);
        return false;
    }
    projectPath_ = QFileInfo(path).absoluteFilePath();
    addRecent(projectPath_);
    session_->markProjectSaved();
    autosave();
    updateTitle();
    showMessage(tr("Saved %1").arg(projectPath_), false);
    return true;
}

bool MainWindow::saveProjectAs() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save project"), projectPath_, tr("Tessel projects (*.tessel)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QLatin1String(".tessel"))) path += QLatin1String(".tessel");
    return saveProject(path);
}

// ---------------------------------------------------------------- saving

void MainWindow::updateFileActions() {
    const bool script = session_->kind() == Session::Kind::Script;
    const bool model = session_->kind() == Session::Kind::Model;
    saveAct_->setText(script ? tr("&Save Script") : tr("&Save"));
    saveAct_->setEnabled(script || model || session_->isModified());
    saveAsAct_->setText(script ? tr("Save Script &As…") : tr("Save &As…"));
    saveAsAct_->setEnabled(script || model);
    saveAct_->setToolTip(script ? tr("Write the script to its file")
                                : tr("Save the project: the model, its edited schedules, the tuning settings"));
    saveAct_->setStatusTip(saveAct_->toolTip());
    revertAct_->setText(tr("&Revert Script to Saved"));
    revertAct_->setEnabled(script && session_->isScriptModified() && !session_->sourcePath().isEmpty());
}

bool MainWindow::save() {
    if (session_->kind() == Session::Kind::Script) {
        const QString path = session_->sourcePath();
        // A file that cannot be written (an installed example) is saved elsewhere.
        const QFileInfo fi(path);
        if (path.isEmpty() || (fi.exists() ? !fi.isWritable() : !QFileInfo(fi.absolutePath()).isWritable()))
            return saveAs();
        return saveScript(path);
    }
    return projectPath_.isEmpty() ? saveProjectAs() : saveProject(projectPath_);
}

bool MainWindow::saveAs() {
    if (session_->kind() != Session::Kind::Script) return saveProjectAs();
    QString start = session_->sourcePath();
    if (start.isEmpty() || !QFileInfo(QFileInfo(start).absolutePath()).isWritable())
        start = QDir::home().filePath(start.isEmpty() ? QStringLiteral("untitled.te") : QFileInfo(start).fileName());
    QString path = QFileDialog::getSaveFileName(this, tr("Save script"), start, tr("TE scripts (*.te)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QLatin1String(".te"))) path += QLatin1String(".te");
    return saveScript(path);
}

bool MainWindow::saveScript(const QString& path) {
    if (session_->kind() != Session::Kind::Script) return false;
    const QString abs = QFileInfo(path).absoluteFilePath();
    QSaveFile f(abs);
    if (!f.open(QIODevice::WriteOnly) || f.write(session_->scriptText().toUtf8()) < 0 || !f.commit()) {
        showMessage(tr("Cannot save %1: %2").arg(abs, f.errorString()), true);
        return false;
    }
    session_->markScriptSaved(abs);
    addRecent(abs);
    // A project that holds the script keeps it as saved too.
    if (!projectPath_.isEmpty()) return saveProject(projectPath_);
    autosave();
    showMessage(tr("Saved %1").arg(abs), false);
    return true;
}

bool MainWindow::revertScript(bool ask) {
    const QString path = session_->sourcePath();
    if (session_->kind() != Session::Kind::Script || path.isEmpty()) return false;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showMessage(tr("Cannot read %1: %2").arg(path, f.errorString()), true);
        return false;
    }
    if (ask && session_->isScriptModified()) {
        QMessageBox box(QMessageBox::Question, tr("Revert Script"),
                        tr("Discard the changes to %1 and reload it from its file?").arg(QFileInfo(path).fileName()),
                        QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("RevertBox"));
        QPushButton* revert = box.addButton(tr("Revert"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        if (box.clickedButton() != revert) return false;
    }
    session_->setScript(path, QString::fromUtf8(f.readAll()));
    showMessage(tr("Reverted %1 to its file").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool MainWindow::maybeSave() {
    const QStringList unsaved = session_->unsavedChanges();
    if (unsaved.isEmpty()) return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"), tr("Save your changes before closing?"),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("UnsavedChangesBox"));
    box.setInformativeText(tr("Not saved yet: %1.").arg(unsaved.join(QStringLiteral("; "))));
    box.setStandardButtons(QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Save);
    box.button(QMessageBox::Discard)->setText(tr("Don't Save"));
    const int answer = box.exec();
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Discard) {
        recovery_.remove(); // discarded on purpose: nothing to offer back
        return true;
    }
    // Save: what is open, and the project for schedules or tuning settings.
    if (session_->isScriptModified() && !save()) return false;
    if ((session_->areSchedulesModified() || session_->areTuningSettingsModified()) &&
        !(projectPath_.isEmpty() ? saveProjectAs() : saveProject(projectPath_)))
        return false;
    return !session_->isModified();
}

// ---------------------------------------------------------------- autosave and recovery

Project MainWindow::sessionAsProject() const {
    Project p;
    if (session_->kind() == Session::Kind::Model) {
        p.modelPath = session_->sourcePath();
        p.inputShapes = session_->inputShapes();
        p.schedules = session_->editedSchedules();
    } else if (session_->kind() == Session::Kind::Script) {
        p.scriptPath = session_->sourcePath();
        // The text as edited (the editor keeps the session's current), not as opened.
        p.scriptText = session_->scriptText();
    }
    p.target = session_->target();
    p.records = session_->recordsPath();
    p.currentFunction = session_->currentFunction();
    p.tuning = session_->tuningSettings();
    p.windowGeometry = saveGeometry();
    p.windowState = layout_->state();
    return p;
}

void MainWindow::setAutosaveInterval(int ms) { autosave_->setInterval(ms); }

void MainWindow::autosave() {
    if (!session_->isModified()) {
        recovery_.remove();
        autosaved_ = session_->changeCount();
        return;
    }
    if (autosaved_ == session_->changeCount() && recovery_.exists()) return;
    const QString err = recovery_.write(sessionAsProject(), projectPath_, session_->unsavedChanges());
    if (!err.isEmpty()) {
        showMessage(tr("Autosave failed: %1").arg(err), true);
        return;
    }
    autosaved_ = session_->changeCount();
}

int MainWindow::offerRecovery() {
    const QList<RecoveredWork> found = recovery_.leftOver();
    if (found.isEmpty()) {
        hideRecoveryBar();
        return 0;
    }
    const RecoveredWork& w = found.front();
    if (!recoveryBar_) {
        recoveryBar_ = new QToolBar(this);
        recoveryBar_->setObjectName(QStringLiteral("RecoveryBar"));
        recoveryBar_->setMovable(false);
        recoveryBar_->setFloatable(false);
        recoveryBar_->setStyleSheet(QStringLiteral("QToolBar#RecoveryBar { background: #fdf6e3; border-bottom: 1px solid #b58900; }"));
        recoveryLabel_ = new QLabel(recoveryBar_);
        recoveryLabel_->setObjectName(QStringLiteral("RecoveryLabel"));
        recoveryLabel_->setWordWrap(true);
        recoveryLabel_->setContentsMargins(6, 2, 6, 2);
        recoveryLabel_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        recoveryBar_->addWidget(recoveryLabel_);
        recoverButton_ = new QPushButton(recoveryBar_);
        recoverButton_->setObjectName(QStringLiteral("RecoveryRestore"));
        discardButton_ = new QPushButton(recoveryBar_);
        discardButton_->setObjectName(QStringLiteral("RecoveryDiscard"));
        recoveryBar_->addWidget(recoverButton_);
        recoveryBar_->addWidget(discardButton_);
    }
    disconnect(recoverButton_, nullptr, this, nullptr);
    disconnect(discardButton_, nullptr, this, nullptr);
    QString what = w.unsaved.isEmpty() ? QFileInfo(w.project.scriptPath + w.project.modelPath).fileName()
                                       : w.unsaved.join(QStringLiteral("; "));
    QString text = tr("Tessel did not close normally: unsaved work from %1 can be restored (%2).")
                       .arg(QLocale().toString(w.written, QLocale::ShortFormat), what);
    if (found.size() > 1) text += QLatin1Char(' ') + tr("%n more after this one.", nullptr, int(found.size() - 1));
    recoveryLabel_->setText(text);
    recoverButton_->setText(tr("Restore"));
    recoverButton_->setToolTip(tr("Open it again as it was, unsaved"));
    discardButton_->setText(tr("Discard"));
    discardButton_->setToolTip(tr("Delete the recovered copy"));
    connect(recoverButton_, &QPushButton::clicked, this, [this, w] {
        restoreRecovered(w);
        offerRecovery();
    });
    connect(discardButton_, &QPushButton::clicked, this, [this, w] {
        QFile::remove(w.file);
        offerRecovery();
    });
    // A toolbar only while it offers something: a saved layout never keeps it.
    if (toolBarArea(recoveryBar_) == Qt::NoToolBarArea) addToolBar(Qt::TopToolBarArea, recoveryBar_);
    recoveryBar_->show();
    return int(found.size());
}

bool MainWindow::restoreRecovered(const RecoveredWork& work) {
    // What the files hold is the saved state; the recovered text and
    // schedules are unsaved edits on top of it.
    QMap<QString, QString> savedSchedules;
    QVariantMap savedTuning;
    Project onDisk;
    if (!work.projectPath.isEmpty() && onDisk.load(work.projectPath, nullptr)) {
        savedSchedules = onDisk.schedules;
        savedTuning = onDisk.tuning;
    }
    Project p = work.project;
    p.windowGeometry.clear(); // this window stays where it is
    projectPath_ = work.projectPath;
    applyProject(p, savedSchedules, savedTuning);
    QFile::remove(work.file);
    autosave(); // kept again, now as this process's
    showMessage(tr("Restored unsaved work from %1").arg(QLocale().toString(work.written, QLocale::ShortFormat)), false);
    return true;
}

void MainWindow::hideRecoveryBar() {
    if (!recoveryBar_) return;
    recoveryBar_->hide();
    removeToolBar(recoveryBar_);
}

} // namespace tessel::views
