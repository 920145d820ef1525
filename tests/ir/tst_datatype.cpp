// Data types: printing and parsing round-trip, lanes and predicates.
#include "ir/DataType.h"

#include <QtTest>

using tessel::DataType;

class TestDataType : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<QString>("text");
        for (const char* t : {"float32", "float64", "int32", "int64", "uint8", "bool", "float32x16", "int32x4", "handle"})
            QTest::newRow(t) << QString(t);
    }
    void roundTrip() {
        QFETCH(QString, text);
        auto t = DataType::parse(text.toStdString());
        QVERIFY(t.has_value());
        QCOMPARE(QString::fromStdString(t->str()), text);
    }
    void rejects() {
        QVERIFY(!DataType::parse("float31"));
        QVERIFY(!DataType::parse("int32x0"));
        QVERIFY(!DataType::parse("tensor"));
        QVERIFY(!DataType::parse(""));
    }
    void lanes() {
        DataType v = DataType::float32(16);
        QVERIFY(v.isVector() && v.isFloat());
        QCOMPARE(v.element(), DataType::float32());
        QCOMPARE(v.bytes(), 4);
        QVERIFY(DataType::boolean().isBool());
        QVERIFY(!DataType::boolean().isUInt());
    }
};

QTEST_APPLESS_MAIN(TestDataType)
#include "tst_datatype.moc"
