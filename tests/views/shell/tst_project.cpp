// Project files: JSON round trip, paths relative to the project, atomic save
// (a failed save leaves the old file), and clear errors for bad files.

#include "shell/InputShapesDialog.h"
#include "shell/PassReference.h"
#include "shell/Project.h"

#include "graph/passes/GraphPassRegistry.h"
#include "tir/passes/PassRegistry.h"

#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QDialogButtonBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace tessel::views;

class TestProject : public QObject {
    Q_OBJECT
private slots:
    void roundTrip();
    void relativePaths();
    void badFiles_data();
    void badFiles();
    void saveIsAtomic();
    void inputShapeChecks();
    void inputShapesDialog();
    void passReferenceListsEveryPass();
    void passReferenceListsAPassAddedToAContext();
};

void TestProject::roundTrip() {
    QTemporaryDir dir;
    Project p;
    p.modelPath = dir.filePath(QStringLiteral("models/resnet18.onnx"));
    p.inputShapes = {{QStringLiteral("input"), QStringLiteral("1x3x224x224")}};
    p.target = QStringLiteral("host");
    p.schedules = {{QStringLiteral("fused_conv2d_relu_1"), QStringLiteral("s = te.create_schedule(C.op)\n")}};
    p.currentFunction = QStringLiteral("fused_conv2d_relu_1");
    p.windowState = QByteArray("\x00\x01state", 7);
    QString path = dir.filePath(QStringLiteral("demo.tessel"));
    QCOMPARE(p.save(path), QString());
    Project q;
    QString err;
    QVERIFY2(q.load(path, &err), qPrintable(err));
    QCOMPARE(q.modelPath, p.modelPath);
    QCOMPARE(q.inputShapes, p.inputShapes);
    QCOMPARE(q.schedules, p.schedules);
    QCOMPARE(q.currentFunction, p.currentFunction);
    QCOMPARE(q.windowState, p.windowState);
    QVERIFY(q.scriptPath.isEmpty());
}

void TestProject::relativePaths() {
    QTemporaryDir dir;
    Project p;
    p.scriptPath = dir.filePath(QStringLiteral("scripts/gemm.te"));
    p.scriptText = QStringLiteral("M = 64\n");
    QByteArray json = p.toJson(dir.path());
    QVERIFY2(json.contains("\"scripts/gemm.te\""), json.constData());  // stored relative
    // Moved to another folder: resolves against the new one.
    Project q;
    QString err;
    QVERIFY(q.fromJson(json, QStringLiteral("/elsewhere"), &err));
    QCOMPARE(q.scriptPath, QStringLiteral("/elsewhere/scripts/gemm.te"));
    QCOMPARE(q.scriptText, p.scriptText);
}

void TestProject::badFiles_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("not json") << QByteArray("{ model: ") << QStringLiteral("not a project file");
    QTest::newRow("no version") << QByteArray("{\"model\": {}}") << QStringLiteral("not a Tessel project");
    QTest::newRow("future version") << QByteArray("{\"tessel-project\": 99}") << QStringLiteral("version 99");
    QTest::newRow("both") << QByteArray("{\"tessel-project\": 1, \"model\": {\"path\": \"a.onnx\"}, \"script\": {\"path\": \"b.te\"}}")
                          << QStringLiteral("not both");
}

void TestProject::badFiles() {
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    Project p;
    p.modelPath = QStringLiteral("/keep.onnx");
    QString err;
    QVERIFY(!p.fromJson(json, QStringLiteral("/tmp"), &err));
    QVERIFY2(err.contains(error), qPrintable(err));
    QCOMPARE(p.modelPath, QStringLiteral("/keep.onnx"));  // unchanged on failure
}

void TestProject::saveIsAtomic() {
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("p.tessel"));
    Project p;
    p.modelPath = QStringLiteral("/m.onnx");
    QCOMPARE(p.save(path), QString());
    QByteArray before;
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        before = f.readAll();
    }
    // A folder that cannot be written: the save fails with a message and the
    // old file is untouched.
    QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
    p.modelPath = QStringLiteral("/other.onnx");
    QString err = p.save(path);
    QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (err.isEmpty()) QSKIP("running as root: the read-only folder is writable anyway");
    QVERIFY(err.contains(QStringLiteral("cannot write")));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), before);
}

void TestProject::inputShapeChecks() {
    ModelInput in{QStringLiteral("input"), QStringLiteral("float32"), {-1, 3, 224, 224}};
    QVERIFY(in.dynamic());
    QCOMPARE(checkShapeText(in, QStringLiteral("1x3x224x224")), QString());
    QVERIFY(checkShapeText(in, QStringLiteral("1x3x224")).contains(QStringLiteral("4 dimensions")));
    QVERIFY(checkShapeText(in, QStringLiteral("0x3x224x224")).contains(QStringLiteral("positive")));
    QVERIFY(checkShapeText(in, QStringLiteral("1x4x224x224")).contains(QStringLiteral("fixed to 3")));
    QVERIFY(checkShapeText(in, QStringLiteral("ax3x224x224")).contains(QStringLiteral("positive")));
}

void TestProject::inputShapesDialog() {
    QVector<ModelInput> inputs{{QStringLiteral("input"), QStringLiteral("float32"), {-1, 3, 32, 32}},
                               {QStringLiteral("fixed"), QStringLiteral("float32"), {1, 10}}};
    InputShapesDialog dlg(QStringLiteral("m.onnx"), inputs);
    QLineEdit* f = dlg.field(QStringLiteral("input"));
    QVERIFY(f);
    QVERIFY(!dlg.field(QStringLiteral("fixed")));  // only dynamic inputs are asked for
    QCOMPARE(f->text(), QStringLiteral("1x3x32x32"));
    auto* ok = dlg.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(ok->isEnabled());
    f->clear();
    QTest::keyClicks(f, QStringLiteral("8x3x31x32"));
    QVERIFY(!ok->isEnabled());
    f->clear();
    QTest::keyClicks(f, QStringLiteral("8x3x32x32"));
    QVERIFY(ok->isEnabled());
    QCOMPARE(dlg.shapes().value(QStringLiteral("input")), QStringLiteral("8x3x32x32"));
}

void TestProject::passReferenceListsEveryPass() {
    QString html = passReferenceHtml();
    for (const auto& p : tessel::graph::graphPasses()) {
        QVERIFY2(html.contains(QString::fromStdString(p.name)), p.name.c_str());
        QVERIFY(!p.summary.empty());
    }
    for (const auto& p : tessel::tir::tirPasses()) QVERIFY2(html.contains(QString::fromStdString(p.name)), p.name.c_str());
}

void TestProject::passReferenceListsAPassAddedToAContext() {
    tessel::driver::Context ctx = tessel::driver::Context::withBuiltins();
    ctx.tirPasses.add({"plugin-pass", "A pass from a plugin.", "Added at run time.", {{"depth", "2", "how deep"}},
                       [](const tessel::tir::PrimFunc& f, const tessel::PassOptionValues&) { return f; }});
    const QString html = passReferenceHtml(ctx);
    QVERIFY(html.contains(QStringLiteral("plugin-pass")));
    QVERIFY(html.contains(QStringLiteral("A pass from a plugin.")));
    QVERIFY(html.contains(QStringLiteral("depth")));
    QVERIFY(!passReferenceHtml().contains(QStringLiteral("plugin-pass")));
}

QTEST_MAIN(TestProject)
#include "tst_project.moc"
