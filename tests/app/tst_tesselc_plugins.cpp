// `tesselc plugins` as a user runs it: the XGBoost plugin of the build tree loaded,
// and plugins on TESSEL_PLUGIN_PATH loaded or refused, each with its reason, in text
// and in JSON; refused plugins are not an error (exit status 0).
#include "common/Tesselc.h"

#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace {

using Result = tessel::test::TesselcResult;

Result tesselc(const QStringList& args, const QString& pluginPath = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (pluginPath.isEmpty())
        env.remove("TESSEL_PLUGIN_PATH");
    else
        env.insert("TESSEL_PLUGIN_PATH", pluginPath);
    return tessel::test::runTesselc(args, env);
}

void makePlugin(const QString& dir, const QString& id, int abi, const char* fixture) {
    QDir().mkpath(dir);
    QJsonObject o{
        {"id", id},   {"name", "Test " + id}, {"version", "2.5"},
        {"abi", abi}, {"library", "libp.so"}, {"provides", QJsonArray{"cost-model:test-sum"}}};
    QFile meta(dir + "/plugin.json");
    if (!meta.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(meta.fileName()));
    meta.write(QJsonDocument(o).toJson());
    meta.close();
    if (fixture &&
        !QFile::copy(QStringLiteral(TEST_PLUGIN_LIBS "/libtessel_test_plugin_%1.so").arg(fixture),
                     dir + "/libp.so"))
        qFatal("cannot copy the %s fixture", fixture);
}

const QString kBuildPlugins = QDir::cleanPath(TESSEL_BINARY_DIR "/plugins");

} // namespace

class TestTesselcPlugins : public QObject {
    Q_OBJECT
private slots:
    void buildTreePlugin() {
        auto r = tesselc({"plugins"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("plugin folders searched:\n  " + kBuildPlugins + "\n"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("plugins: 1 loaded, 0 refused"), qPrintable(r.out));
        QVERIFY2(r.out.contains("  costmodel-xgboost 1.0  loaded  " + kBuildPlugins +
                                "/costmodel-xgboost\n"),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("    XGBoost cost model: "));
        QVERIFY(r.out.contains("    registered cost-model:xgb\n"));
        QVERIFY(r.out.contains("cost models:\n"));
        QVERIFY(r.out.contains("  xgb      XGBoost gradient-boosted trees"));
        QVERIFY(r.out.contains("           from " + kBuildPlugins + "/costmodel-xgboost\n"));
        QVERIFY(r.err.isEmpty());
    }

    void refusedPluginsAreListedWithTheirReasons() {
        QTemporaryDir tmp;
        const QString root = QDir(tmp.path()).canonicalPath();
        makePlugin(root + "/a-good", "test-good", 1, "good");
        makePlugin(root + "/b-newer-abi", "test-newer", 2, "good");
        makePlugin(root + "/c-no-entry", "test-noentry", 1, "noentry");
        makePlugin(root + "/d-fails", "test-fails", 1, "fails");
        makePlugin(root + "/e-no-library", "test-nolib", 1, nullptr);
        QDir().mkpath(root + "/f-broken");
        QFile broken(root + "/f-broken/plugin.json");
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"id\": \"test-broken\",");
        broken.close();
        // The same id as the XGBoost plugin: the one on TESSEL_PLUGIN_PATH comes first and
        // wins (here it is refused for its ABI, so the build tree's loads).
        makePlugin(root + "/g-shadow", "costmodel-xgboost", 3, "good");

        auto r = tesselc({"plugins"}, root + ":" + root + "/nowhere");
        QCOMPARE(r.exitCode, 0);
        const QString& o = r.out;
        QVERIFY2(o.contains("plugin folders searched:\n  " + root + "\n  " + root +
                            "/nowhere  (not there)\n  " + kBuildPlugins + "\n"),
                 qPrintable(o));
        QVERIFY2(o.contains("plugins: 2 loaded, 6 refused"), qPrintable(o));
        QVERIFY2(o.contains("  test-good 2.5  loaded  " + root +
                            "/a-good\n    Test test-good\n"
                            "    registered cost-model:test-sum\n"),
                 qPrintable(o));
        QVERIFY(o.contains("  test-newer 2.5  refused (ABI mismatch)  " + root + "/b-newer-abi\n"));
        QVERIFY(o.contains("    why: plugin.json says ABI 2, this Tessel speaks ABI 1"));
        QVERIFY(
            o.contains("  test-noentry 2.5  refused (no entry point)  " + root + "/c-no-entry\n"));
        QVERIFY(o.contains("    why: 'libp.so' has no entry point tessel_plugin_register"));
        QVERIFY(
            o.contains("  test-fails 2.5  refused (registration failed)  " + root + "/d-fails\n"));
        QVERIFY(o.contains("    why: registration failed: the test device is not plugged in\n"));
        QVERIFY(
            o.contains("  test-nolib 2.5  refused (library missing)  " + root + "/e-no-library\n"));
        QVERIFY(o.contains("    why: its library 'libp.so' is not in " + root + "/e-no-library\n"));
        QVERIFY(o.contains("  (no id)   refused (bad metadata)  " + root + "/f-broken\n"));
        QVERIFY(o.contains("    why: plugin.json is not valid JSON: "));
        QVERIFY(
            o.contains("  costmodel-xgboost 2.5  refused (ABI mismatch)  " + root + "/g-shadow\n"));
        QVERIFY(o.contains("  costmodel-xgboost 1.0  loaded  " + kBuildPlugins +
                           "/costmodel-xgboost\n"));
        QVERIFY(o.contains("  test-sum "));
        QVERIFY(o.contains("           from " + root + "/a-good\n"));
    }

    void duplicateIdOnThePath() {
        QTemporaryDir tmp;
        const QString root = QDir(tmp.path()).canonicalPath();
        makePlugin(root + "/xgb-copy", "costmodel-xgboost", 1, "good");
        auto r = tesselc({"plugins"}, root);
        QCOMPARE(r.exitCode, 0);
        // The first found wins: the copy on TESSEL_PLUGIN_PATH, and the build tree's is the
        // duplicate.
        QVERIFY2(r.out.contains("  costmodel-xgboost 2.5  loaded  " + root + "/xgb-copy\n"),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("  costmodel-xgboost 1.0  refused (duplicate id)  " + kBuildPlugins +
                               "/costmodel-xgboost\n    XGBoost cost model: "));
        QVERIFY(
            r.out.contains("    why: a plugin with id 'costmodel-xgboost' is already loaded from " +
                           root + "/xgb-copy\n"));
        QVERIFY(!r.out.contains("  xgb "));
    }

    void json() {
        QTemporaryDir tmp;
        const QString root = QDir(tmp.path()).canonicalPath();
        makePlugin(root + "/newer", "test-newer", 2, "good");
        auto r = tesselc({"plugins", "--json"}, root);
        QCOMPARE(r.exitCode, 0);
        QJsonParseError error;
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(r.out));
        const QJsonArray search = j["search_path"].toArray();
        QVERIFY(search.size() >= 2);
        QCOMPARE(search[0].toObject()["dir"].toString(), root);
        QVERIFY(search[0].toObject()["exists"].toBool());
        const QJsonArray plugins = j["plugins"].toArray();
        QCOMPARE(plugins.size(), 2);
        const QJsonObject newer = plugins[0].toObject();
        QCOMPARE(newer["id"].toString(), QString("test-newer"));
        QCOMPARE(newer["version"].toString(), QString("2.5"));
        QCOMPARE(newer["abi"].toInt(), 2);
        QCOMPARE(newer["dir"].toString(), root + "/newer");
        QCOMPARE(newer["loaded"].toBool(), false);
        QCOMPARE(newer["refusal"].toString(), QString("ABI mismatch"));
        QVERIFY(newer["reason"].toString().startsWith("plugin.json says ABI 2"));
        QVERIFY(newer["registered"].toArray().isEmpty());
        const QJsonObject xgb = plugins[1].toObject();
        QCOMPARE(xgb["id"].toString(), QString("costmodel-xgboost"));
        QCOMPARE(xgb["loaded"].toBool(), true);
        QCOMPARE(xgb["library"].toString(), QString("libtessel-costmodel-xgboost.so"));
        QCOMPARE(xgb["registered"].toArray(), QJsonArray{"cost-model:xgb"});
        QCOMPARE(xgb["provides"].toArray(), QJsonArray{"cost-model:xgb"});
        const QJsonArray models = j["cost_models"].toArray();
        bool found = false;
        for (const auto& m : models)
            if (m.toObject()["name"].toString() == "xgb") {
                found = true;
                QCOMPARE(m.toObject()["origin"].toString(), kBuildPlugins + "/costmodel-xgboost");
                QVERIFY(m.toObject()["summary"].toString().contains("objective=rank|reg"));
            }
        QVERIFY(found);
    }

    void usage() {
        auto r = tesselc({"plugins", "extra"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("plugins takes no file"));
        auto help = tesselc({"help"});
        QVERIFY(help.out.contains("  plugins [--json]"));
    }
};

QTEST_GUILESS_MAIN(TestTesselcPlugins)
#include "tst_tesselc_plugins.moc"
