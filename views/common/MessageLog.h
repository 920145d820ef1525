/// \file
/// The messages the IDE gives its user (errors from workers, finished
/// compiles and measurements), as a list model: plain values with the time
/// they came, shown by the Messages view and kept across a language change
/// (the Session owns the log, the views are rebuilt).
#pragma once

#include <QAbstractListModel>
#include <QDateTime>
#include <QString>
#include <QVector>

namespace tessel::views {

struct LogMessage {
    QDateTime time;
    QString text;
    bool error = false;
    /// "[HH:mm:ss] text", as the list shows it.
    QString display() const;
};

class MessageLog : public QAbstractListModel {
    Q_OBJECT
public:
    /// The oldest messages are dropped beyond this many.
    static constexpr int kLimit = 1000;
    /// Qt::UserRole + 1: whether the message is an error (bool).
    static constexpr int ErrorRole = Qt::UserRole + 1;

    explicit MessageLog(QObject* parent = nullptr);

    void append(const QString& text, bool error);
    int count() const { return int(messages_.size()); }
    const LogMessage& at(int row) const { return messages_.at(row); }
    /// The newest message's display text, or "".
    QString lastText() const {
        return messages_.isEmpty() ? QString() : messages_.back().display();
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    QVector<LogMessage> messages_;
};

} // namespace tessel::views
