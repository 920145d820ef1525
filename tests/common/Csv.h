/// \file
/// Reading a CSV file the Compare view or `tesselc compare` wrote (no quoted
/// fields: the names and numbers it writes have no commas).
#pragma once

#include <QFile>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace tessel::test {

/// The rows after the header, each as header name -> field; empty when the file cannot be read.
inline QList<QMap<QString, QString>> readCsv(const QString& path) {
    QFile f(path);
    QList<QMap<QString, QString>> rows;
    if (!f.open(QIODevice::ReadOnly)) return rows;
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty()) return rows;
    const QStringList header = lines[0].split(',');
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList fields = lines[i].split(',');
        QMap<QString, QString> row;
        for (int c = 0; c < header.size(); ++c) row[header[c]] = c < fields.size() ? fields[c] : QString();
        rows << row;
    }
    return rows;
}

} // namespace tessel::test
