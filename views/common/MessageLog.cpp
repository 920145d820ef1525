#include "common/MessageLog.h"

#include <QApplication>
#include <QColor>
#include <QIcon>
#include <QStyle>

namespace tessel::views {

QString LogMessage::display() const {
    return QStringLiteral("[%1] %2").arg(time.toString(QStringLiteral("HH:mm:ss")), text);
}

MessageLog::MessageLog(QObject* parent) : QAbstractListModel(parent) {}

void MessageLog::append(const QString& text, bool error) {
    if (messages_.size() >= kLimit) {
        beginRemoveRows({}, 0, 0);
        messages_.removeFirst();
        endRemoveRows();
    }
    beginInsertRows({}, int(messages_.size()), int(messages_.size()));
    messages_.append(LogMessage{QDateTime::currentDateTime(), text, error});
    endInsertRows();
}

int MessageLog::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(messages_.size());
}

QVariant MessageLog::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= messages_.size()) return {};
    const LogMessage& m = messages_[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return m.display();
    case Qt::ToolTipRole:
        return m.time.toString(Qt::ISODate);
    case Qt::ForegroundRole:
        return m.error ? QVariant(QColor(192, 57, 43)) : QVariant();
    case Qt::DecorationRole:
        if (m.error && qobject_cast<QApplication*>(QCoreApplication::instance()))
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case ErrorRole:
        return m.error;
    default:
        return {};
    }
}

} // namespace tessel::views
