// Project files: JSON round trip, paths relative to the project, atomic save
// (a failed save leaves the old file), and clear errors for bad files.

#include "ir/Diagnostic.h"
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
    void inputShapeSuggestions();
    void inputShapesDialog();
    void unknownDimensionIsLeftToTheUser();
    void passReferenceListsEveryPass();
    void passReferenceListsAPassAddedToAContext();
};

void TestProject::roundTrip() {
    QTemporaryDir dir;
    Project p;
    p.modelPath = dir.filePath(QStringLiteral("models/resnet18.onnx"));
    p.inputShapes = {{QStringLiteral("input"), QStringLiteral("1,3,224,224")}};
    p.target = QStringLiteral("host");
    p.records = dir.filePath(QStringLiteral("records/resnet18.jsonl"));
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
    QCOMPARE(q.records, p.records); // kept relative to the project, resolved back
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
    // The compiler's format (tesselc --input-shape x:1,3,224,224), read by its parser.
    ModelInput in{QStringLiteral("input"), QStringLiteral("float32"), {-1, 3, 224, 224}, {}};
    QVERIFY(in.dynamic());
    QCOMPARE(checkShapeText(in, QStringLiteral("1,3,224,224")), QString());
    QCOMPARE(checkShapeText(in, QStringLiteral(" 2, 3, 224 ,224 ")), QString());
    QVERIFY(checkShapeText(in, QStringLiteral("1,3,224")).contains(QStringLiteral("4 dimensions")));
    QVERIFY(checkShapeText(in, QStringLiteral("0,3,224,224")).contains(QStringLiteral("positive")));
    QVERIFY(checkShapeText(in, QStringLiteral("1,4,224,224")).contains(QStringLiteral("fixed to 3")));
    QVERIFY(checkShapeText(in, QStringLiteral("a,3,224,224")).contains(QStringLiteral("'a' is not a dimension")));
    QVERIFY(checkShapeText(in, QStringLiteral("?,3,224,224")).contains(QStringLiteral("unknown")));
    // The format the dialog offered once, and the compiler rejects: not accepted here either.
    QVERIFY(!checkShapeText(in, QStringLiteral("1x3x224x224")).isEmpty());
    QVERIFY(checkShapeText(in, QString()).contains(QStringLiteral("give a shape")));
    QCOMPARE(shapeText({1, -1, 48}), QStringLiteral("1,?,48"));
    QCOMPARE(parseShapeText(QStringLiteral("x"), QStringLiteral("1,?,48")), (QVector<qint64>{1, -1, 48}));
    const auto io = importShapes({{QStringLiteral("x"), QStringLiteral("1,3,48,320")}});
    QCOMPARE(io.at("x"), (std::vector<int64_t>{1, 3, 48, 320}));
    QVERIFY_THROWS_EXCEPTION(tessel::CompileError, importShapes({{QStringLiteral("x"), QStringLiteral("1x3x48x320")}}));
}

void TestProject::inputShapeSuggestions() {
    auto suggest = [](const QVector<ModelInput>& inputs) { return suggestShapes(inputs); };
    const QString f32 = QStringLiteral("float32");
    // A dynamic batch is 1; an image whose height is known is square, but a
    // text line (an OCR recogniser's input, 48 high) is 320 wide.
    QCOMPARE(suggest({{QStringLiteral("x"), f32, {-1, 3, 48, -1}, {QStringLiteral("N"), {}, {}, QStringLiteral("W")}}}),
             (QVector<QVector<qint64>>{{1, 3, 48, 320}}));
    QCOMPARE(suggest({{QStringLiteral("x"), f32, {-1, 3, 128, -1}, {}}}), (QVector<QVector<qint64>>{{1, 3, 128, 128}}));
    // Issue 21: a batch named by the exporter was left "?" (OK disabled).
    QCOMPARE(suggest({{QStringLiteral("x"), f32, {-1, 3, 48, -1},
                       {QStringLiteral("p2o.DynamicDimension.0"), {}, {}, QStringLiteral("p2o.DynamicDimension.1")}}}),
             (QVector<QVector<qint64>>{{1, 3, 48, 320}}));
    QCOMPARE(suggest({{QStringLiteral("x"), f32, {-1, 3, 224, 224}, {QStringLiteral("unk__0")}}}),
             (QVector<QVector<qint64>>{{1, 3, 224, 224}}));
    // A first dimension named as a sequence is not the batch (time-major input).
    QCOMPARE(suggest({{QStringLiteral("x"), f32, {-1, -1, 80}, {QStringLiteral("seq_len"), QStringLiteral("batch")}}}),
             (QVector<QVector<qint64>>{{-1, 1, 80}}));
    // Nothing known of the image: the common 224 x 224; NHWC too.
    QCOMPARE(suggest({{QStringLiteral("x"), f32, {-1, 3, -1, -1}, {}}}), (QVector<QVector<qint64>>{{1, 3, 224, 224}}));
    QCOMPARE(suggest({{QStringLiteral("x"), f32, {1, -1, 32, 3}, {}}}), (QVector<QVector<qint64>>{{1, 32, 32, 3}}));
    // A dim_param shared with a dimension that has a value takes it: the
    // image's size comes from the other image, not from the common size.
    const QVector<ModelInput> two{
        {QStringLiteral("a"), f32, {1, 3, -1, -1}, {{}, {}, QStringLiteral("H"), QStringLiteral("W")}},
        {QStringLiteral("b"), f32, {1, 3, 64, -1}, {{}, {}, {}, QStringLiteral("W")}}};
    QCOMPARE(suggest(two), (QVector<QVector<qint64>>{{1, 3, 64, 64}, {1, 3, 64, 64}}));
    // A sequence length is not guessed: it stays unknown for the user.
    QCOMPARE(suggest({{QStringLiteral("ids"), QStringLiteral("int64"), {-1, -1},
                       {QStringLiteral("batch_size"), QStringLiteral("sequence")}}}),
             (QVector<QVector<qint64>>{{1, -1}}));
}

void TestProject::inputShapesDialog() {
    QVector<ModelInput> inputs{{QStringLiteral("input"), QStringLiteral("float32"), {-1, 3, 32, 32}, {}},
                               {QStringLiteral("fixed"), QStringLiteral("float32"), {1, 10}, {}}};
    InputShapesDialog dlg(QStringLiteral("m.onnx"), inputs);
    QLineEdit* f = dlg.field(QStringLiteral("input"));
    QVERIFY(f);
    QVERIFY(!dlg.field(QStringLiteral("fixed")));  // only dynamic inputs are asked for
    QCOMPARE(f->text(), QStringLiteral("1,3,32,32"));
    auto* ok = dlg.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(ok->isEnabled());
    f->clear();
    QTest::keyClicks(f, QStringLiteral("8,3,31,32"));
    QVERIFY(!ok->isEnabled());
    f->clear();
    QTest::keyClicks(f, QStringLiteral("8x3x32x32"));
    QVERIFY(!ok->isEnabled());
    f->clear();
    QTest::keyClicks(f, QStringLiteral("8, 3, 32, 32"));
    QVERIFY(ok->isEnabled());
    QCOMPARE(dlg.shapes().value(QStringLiteral("input")), QStringLiteral("8,3,32,32"));
}

void TestProject::unknownDimensionIsLeftToTheUser() {
    // A token sequence: the batch is suggested, its length is not. The field
    // shows "?" selected, so typing replaces it; OK waits for it.
    QVector<ModelInput> inputs{{QStringLiteral("ids"), QStringLiteral("int64"), {-1, -1},
                                {QStringLiteral("batch"), QStringLiteral("sequence")}}};
    InputShapesDialog dlg(QStringLiteral("m.onnx"), inputs);
    QLineEdit* f = dlg.field(QStringLiteral("ids"));
    QVERIFY(f);
    QCOMPARE(f->text(), QStringLiteral("1,?"));
    QCOMPARE(f->selectedText(), QStringLiteral("?"));
    auto* ok = dlg.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled());
    QVERIFY2(dlg.errorText().contains(QStringLiteral("sequence")), qPrintable(dlg.errorText()));
    QTest::keyClicks(f, QStringLiteral("128"));
    QCOMPARE(f->text(), QStringLiteral("1,128"));
    QVERIFY(ok->isEnabled());
    // Shapes a project stored fill the fields instead of the suggestions.
    InputShapesDialog stored(QStringLiteral("m.onnx"), inputs, {{QStringLiteral("ids"), QStringLiteral("4,77")}});
    QCOMPARE(stored.field(QStringLiteral("ids"))->text(), QStringLiteral("4,77"));
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
