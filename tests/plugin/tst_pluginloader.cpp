// The plugin loader: a plugin that loads and what it registers, and every way a
// plugin is refused, each with its reason and with the registries left as they
// were. The plugin folders are made per test in a temporary folder from the tiny
// libraries in tests/plugin/fixtures (TEST_PLUGIN_LIBS) and the plugin.json the
// case needs.
#include "plugin/PluginApi.h"
#include "plugin/PluginLoader.h"
#include "tune/CostModel.h"

#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <dlfcn.h>

#include <cstdlib>

using namespace tessel;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(tessel::plugin::Refusal)

namespace {

QString fixture(const char* name) {
    return QStringLiteral(TEST_PLUGIN_LIBS "/libtessel_test_plugin_%1.so").arg(name);
}

QByteArray metadata(const QString& id, const QString& library, int abi = 1,
                    QStringList provides = {QStringLiteral("cost-model:test-sum")}) {
    QJsonObject o{{"id", id},
                  {"name", "Test plugin " + id},
                  {"version", "0.3"},
                  {"abi", abi},
                  {"library", library},
                  {"provides", QJsonArray::fromStringList(provides)},
                  {"description", "a plugin of the loader's tests"}};
    return QJsonDocument(o).toJson();
}

/// Makes folder `dir` with plugin.json = `json` and, when `library` is given,
/// a copy of it named `libraryName`.
fs::path makePlugin(const QString& dir, const QByteArray& json, const QString& library = {},
                    const QString& libraryName = {}) {
    QDir().mkpath(dir);
    QFile meta(dir + "/plugin.json");
    if (!meta.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(meta.fileName()));
    meta.write(json);
    meta.close();
    if (!library.isEmpty() && !QFile::copy(library, dir + "/" + libraryName))
        qFatal("cannot copy %s", qPrintable(library));
    return fs::path(dir.toStdString());
}

/// A registry holding one built-in model, as a context's would.
void addBuiltin(tune::CostModelRegistry& r, const std::string& name = "builtin-model") {
    r.add({name, "a built-in model", "built in",
           [](const tune::CostModelOptions&) -> std::unique_ptr<tune::CostModel> {
               return nullptr;
           }});
}

std::vector<std::string> names(const tune::CostModelRegistry& r) {
    std::vector<std::string> out;
    for (auto& m : r.records())
        out.push_back(m.name + "@" + m.origin);
    return out;
}

} // namespace

class TestPluginLoader : public QObject {
    Q_OBJECT
private slots:
    void loadsAndRegisters() {
        QTemporaryDir tmp;
        const fs::path dir = makePlugin(tmp.filePath("good"), metadata("test-good", "libgood.so"),
                                        fixture("good"), "libgood.so");
        tune::CostModelRegistry registry;
        addBuiltin(registry);
        plugin::PluginSet set;
        const plugin::PluginStatus& s = plugin::loadPlugin(dir, {&registry}, set);
        QVERIFY2(s.loaded(), s.reason.c_str());
        QCOMPARE(s.refusal, plugin::Refusal::None);
        QVERIFY(s.reason.empty());
        QCOMPARE(s.dir, fs::weakly_canonical(dir));
        QCOMPARE(s.metadata.id, std::string("test-good"));
        QCOMPARE(s.metadata.name, std::string("Test plugin test-good"));
        QCOMPARE(s.metadata.version, std::string("0.3"));
        QCOMPARE(s.metadata.abi, plugin::kPluginAbi);
        QCOMPARE(s.metadata.provides, std::vector<std::string>{"cost-model:test-sum"});
        QCOMPARE(s.metadata.description, std::string("a plugin of the loader's tests"));
        QCOMPARE(s.registered, std::vector<std::string>{"cost-model:test-sum"});
        QCOMPARE(set.loadedCount(), size_t(1));
        QCOMPARE(set.refusedCount(), size_t(0));
        QCOMPARE(set.find("test-good"), &s);

        // In the registry after the built-in one, its origin the plugin's folder.
        QCOMPARE(registry.records().size(), size_t(2));
        const tune::CostModelRecord* r = registry.find("test-sum");
        QVERIFY(r);
        QCOMPARE(r->origin, s.dir.string());
        QCOMPARE(r->summary, std::string("sums the features (a test plugin); no options"));
        // A model made by the plugin's factory runs the plugin's code.
        auto model = registry.make("test-sum");
        QCOMPARE(model->name(), std::string("test-sum"));
        tune::FeatureMatrix x{2, {1, 2, 3, 4, 5, 6}};
        QCOMPARE(model->predict(x), (std::vector<float>{3, 7, 11}));
        QVERIFY(!model->trained());
        model->fit(x, {1, 2, 3});
        QVERIFY(model->trained());
    }

    void refusals_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("library"); // fixture name, "garbage", or empty
        QTest::addColumn<plugin::Refusal>("refusal");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("id"); // what could still be read of plugin.json

        using R = plugin::Refusal;
        auto meta = [](QJsonObject change, QStringList remove = {}) {
            QJsonObject o = QJsonDocument::fromJson(metadata("test-case", "libcase.so")).object();
            for (auto it = change.begin(); it != change.end(); ++it)
                o[it.key()] = it.value();
            for (auto& k : remove)
                o.remove(k);
            return QJsonDocument(o).toJson();
        };
        QTest::newRow("malformed JSON")
            << QByteArray("{\"id\": \"test-case\", \"abi\": 1,") << "good" << R::BadMetadata
            << "plugin.json is not valid JSON: "
            << "";
        QTest::newRow("not an object")
            << QByteArray("[1, 2]") << "good" << R::BadMetadata << "plugin.json: not a JSON object"
            << "";
        QTest::newRow("empty file")
            << QByteArray() << "good" << R::BadMetadata << "plugin.json is not valid JSON"
            << "";
        for (const char* field : {"id", "name", "version", "abi", "library", "provides"})
            QTest::addRow("no %s", field) << meta({}, {field}) << "good" << R::BadMetadata
                                          << QStringLiteral("plugin.json has no \"%1\"").arg(field)
                                          << (QByteArray(field) == "id" ? "" : "test-case");
        QTest::newRow("abi a string") << meta({{"abi", "1"}}) << "good" << R::BadMetadata
                                      << "\"abi\" in plugin.json must be an integer"
                                      << "test-case";
        QTest::newRow("abi a fraction") << meta({{"abi", 1.5}}) << "good" << R::BadMetadata
                                        << "\"abi\" in plugin.json must be an integer"
                                        << "test-case";
        QTest::newRow("id a number") << meta({{"id", 7}}) << "good" << R::BadMetadata
                                     << "\"id\" in plugin.json must be a string"
                                     << "";
        QTest::newRow("empty id") << meta({{"id", ""}}) << "good" << R::BadMetadata
                                  << "\"id\" in plugin.json is empty"
                                  << "";
        QTest::newRow("id with a space")
            << meta({{"id", "my plugin"}}) << "good" << R::BadMetadata
            << "must be letters, digits, '-', '_' and '.' only, not 'my plugin'"
            << "my plugin";
        QTest::newRow("provides a string")
            << meta({{"provides", "cost-model:x"}}) << "good" << R::BadMetadata
            << "\"provides\" in plugin.json must be an array of strings"
            << "test-case";
        QTest::newRow("provides numbers")
            << meta({{"provides", QJsonArray{1, 2}}}) << "good" << R::BadMetadata
            << "\"provides\" in plugin.json must be an array of strings"
            << "test-case";
        QTest::newRow("description a number")
            << meta({{"description", 3}}) << "good" << R::BadMetadata
            << "\"description\" in plugin.json must be a string"
            << "test-case";
        QTest::newRow("library absolute")
            << meta({{"library", "/usr/lib/libcase.so"}}) << "good" << R::BadMetadata
            << "must be a path inside the plugin folder"
            << "test-case";
        QTest::newRow("library outside")
            << meta({{"library", "../libcase.so"}}) << "good" << R::BadMetadata
            << "must be a path inside the plugin folder"
            << "test-case";
        QTest::newRow("ABI mismatch") << meta({{"abi", 2}}) << "good" << R::AbiMismatch
                                      << "plugin.json says ABI 2, this Tessel speaks ABI 1"
                                      << "test-case";
        QTest::newRow("library missing")
            << meta({}) << "" << R::LibraryMissing << "its library 'libcase.so' is not in "
            << "test-case";
        QTest::newRow("not a library")
            << meta({}) << "garbage" << R::LibraryUnloadable << "cannot load 'libcase.so': "
            << "test-case";
        QTest::newRow("undefined symbol") << meta({}) << "undefined" << R::LibraryUnloadable
                                          << "undefined symbol: tessel_test_symbol_nobody_defines"
                                          << "test-case";
        QTest::newRow("no entry point") << meta({}) << "noentry" << R::NoEntryPoint
                                        << "'libcase.so' has no entry point tessel_plugin_register"
                                        << "test-case";
        QTest::newRow("registration fails")
            << meta({}) << "fails" << R::RegistrationFailed
            << "registration failed: the test device is not plugged in"
            << "test-case";
        QTest::newRow("second registration fails")
            << meta({}) << "partial" << R::RegistrationFailed
            << "registration failed: cost model 'test-partial' is already registered"
            << "test-case";
        QTest::newRow("registration throws") << meta({}) << "throws" << R::RegistrationFailed
                                             << "registration failed: it threw out of cheese"
                                             << "test-case";
    }

    void refusals() {
        QFETCH(QByteArray, json);
        QFETCH(QString, library);
        QFETCH(plugin::Refusal, refusal);
        QFETCH(QString, reason);
        QFETCH(QString, id);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("case");
        makePlugin(dir, json);
        if (library == "garbage") {
            QFile f(dir + "/libcase.so");
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("this is not a shared library, only text that says it is one\n");
        } else if (!library.isEmpty()) {
            QVERIFY(QFile::copy(fixture(qPrintable(library)), dir + "/libcase.so"));
        }
        tune::CostModelRegistry registry;
        addBuiltin(registry);
        const auto before = names(registry);
        plugin::PluginSet set;
        const plugin::PluginStatus& s = plugin::loadPlugin(dir.toStdString(), {&registry}, set);
        QVERIFY(!s.loaded());
        QCOMPARE(s.refusal, refusal);
        QVERIFY2(QString::fromStdString(s.reason).contains(reason), s.reason.c_str());
        QCOMPARE(QString::fromStdString(s.metadata.id), id);
        QVERIFY(s.registered.empty());
        QCOMPARE(set.plugins().size(), size_t(1));
        QCOMPARE(set.refusedCount(), size_t(1));
        QCOMPARE(set.loadedCount(), size_t(0));
        // A refused plugin leaves the registry as it was.
        QCOMPARE(names(registry), before);
        QVERIFY(!registry.find("test-partial"));
    }

    void nameTakenLeavesTheRegistry() {
        QTemporaryDir tmp;
        const fs::path dir = makePlugin(tmp.filePath("good"), metadata("test-good", "libgood.so"),
                                        fixture("good"), "libgood.so");
        tune::CostModelRegistry registry;
        addBuiltin(registry, "test-sum");
        plugin::PluginSet set;
        const plugin::PluginStatus& s = plugin::loadPlugin(dir, {&registry}, set);
        QCOMPARE(s.refusal, plugin::Refusal::NameTaken);
        QCOMPARE(
            s.reason,
            std::string("it registers cost model 'test-sum', which built in already provides"));
        QCOMPARE(registry.records().size(), size_t(1));
        QCOMPARE(registry.find("test-sum")->origin, std::string("built in"));
    }

    void duplicateIdFirstWins() {
        QTemporaryDir tmp;
        const fs::path first =
            makePlugin(tmp.filePath("a/good"), metadata("test-good", "libgood.so"), fixture("good"),
                       "libgood.so");
        makePlugin(tmp.filePath("b/good"), metadata("test-good", "libgood.so"), fixture("good"),
                   "libgood.so");
        tune::CostModelRegistry registry;
        plugin::PluginSet set;
        plugin::loadPlugins({tmp.filePath("a").toStdString(), tmp.filePath("b").toStdString()},
                            {&registry}, set);
        QCOMPARE(set.plugins().size(), size_t(2));
        QVERIFY(set.plugins()[0].loaded());
        QCOMPARE(set.plugins()[1].refusal, plugin::Refusal::DuplicateId);
        QCOMPARE(set.plugins()[1].reason, "a plugin with id 'test-good' is already loaded from " +
                                              fs::weakly_canonical(first).string());
        QCOMPARE(set.find("test-good"), &set.plugins()[0]);
        QCOMPARE(registry.records().size(), size_t(1));
        QCOMPARE(registry.find("test-sum")->origin, fs::weakly_canonical(first).string());
    }

    void searchPathFolders() {
        QTemporaryDir tmp;
        const QString root = tmp.filePath("plugins");
        makePlugin(root + "/b-good", metadata("test-good", "libgood.so"), fixture("good"),
                   "libgood.so");
        makePlugin(root + "/c-bad", "{");
        // A folder without plugin.json is not a plugin (a build tree's CMakeFiles).
        QDir().mkpath(root + "/a-not-a-plugin");
        QFile other(root + "/a-not-a-plugin/notes.txt");
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.close();
        const std::string missing = tmp.filePath("nowhere").toStdString();
        tune::CostModelRegistry registry;
        plugin::PluginSet set;
        // The same folder twice, and a plugin folder already seen, are looked at once.
        plugin::loadPlugins({root.toStdString(), root.toStdString() + "/", missing,
                             (root + "/b-good").toStdString()},
                            {&registry}, set);
        QCOMPARE(set.searched().size(), size_t(3));
        QCOMPARE(set.searched()[0].dir, fs::weakly_canonical(root.toStdString()));
        QVERIFY(set.searched()[0].exists);
        QCOMPARE(set.searched()[1].dir, fs::path(missing));
        QVERIFY(!set.searched()[1].exists);
        QCOMPARE(set.searched()[2].dir, fs::weakly_canonical((root + "/b-good").toStdString()));
        QCOMPARE(set.plugins().size(), size_t(2));
        QCOMPARE(set.plugins()[0].metadata.id, std::string("test-good"));
        QVERIFY(set.plugins()[0].loaded());
        QCOMPARE(set.plugins()[1].dir.filename(), fs::path("c-bad"));
        QCOMPARE(set.plugins()[1].refusal, plugin::Refusal::BadMetadata);
        QCOMPARE(set.loadedCount(), size_t(1));
        QCOMPARE(set.refusedCount(), size_t(1));
    }

    void defaultSearchPath() {
        const QByteArray saved = qgetenv("TESSEL_PLUGIN_PATH");
        qputenv("TESSEL_PLUGIN_PATH", "/opt/one::/opt/two/");
        const auto path = plugin::defaultSearchPath();
        if (saved.isNull())
            qunsetenv("TESSEL_PLUGIN_PATH");
        else
            qputenv("TESSEL_PLUGIN_PATH", saved);
        QCOMPARE(path.size(), size_t(4));
        QCOMPARE(path[0], fs::path("/opt/one"));
        QCOMPARE(path[1], fs::path("/opt/two/"));
        // Next to the binaries: <build>/bin/.. is the build tree, whose plugins/ holds the built
        // plugins.
        QCOMPARE(fs::weakly_canonical(path[2]), fs::weakly_canonical(TESSEL_BINARY_DIR "/plugins"));
        QCOMPARE(fs::weakly_canonical(path[3]),
                 fs::weakly_canonical(TESSEL_BINARY_DIR "/lib/tessel/plugins"));
    }

    void entryPointChecksTheHost() {
        void* lib = ::dlopen(qPrintable(fixture("good")), RTLD_NOW | RTLD_LOCAL);
        QVERIFY2(lib, ::dlerror());
        auto entry =
            reinterpret_cast<plugin::RegisterFunction>(::dlsym(lib, plugin::kRegisterSymbol));
        QVERIFY(entry);
        tune::CostModelRegistry scratch;
        plugin::PluginHost host;
        host.costModels = &scratch;
        host.addCostModel = [](tune::CostModelRegistry& r, tune::CostModelRecord m) {
            r.add(std::move(m));
        };
        char error[256] = {};

        host.abi = 99;
        QCOMPARE(entry(&host, error, sizeof error), 1);
        QCOMPARE(QString(error), QString("built for plugin ABI 1, the host speaks ABI 99"));
        QVERIFY(scratch.records().empty());

        QCOMPARE(entry(nullptr, error, sizeof error), 1);
        QCOMPARE(QString(error), QString("no host given"));

        host.abi = plugin::kPluginAbi;
        host.addCostModel = nullptr;
        QCOMPARE(entry(&host, error, sizeof error), 1);
        QCOMPARE(QString(error), QString("the host gave no cost model registry"));

        // A small buffer gets as much of the message as fits, terminated.
        char small[8] = {};
        QCOMPARE(entry(nullptr, small, sizeof small), 1);
        QCOMPARE(QString(small), QString("no host"));
        ::dlclose(lib);
    }

    void parseMetadataDirectly() {
        const auto m =
            plugin::parseMetadata(R"({"id": "x.y_z-1", "name": "X", "version": "2", "abi": 1,
            "library": "lib/libx.so", "provides": [], "future-field": {"ignored": true}})");
        QCOMPARE(m.id, std::string("x.y_z-1"));
        QCOMPARE(m.library, std::string("lib/libx.so"));
        QVERIFY(m.provides.empty());
        QVERIFY(m.description.empty());
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, plugin::parseMetadata("{}", "my.json"));
        try {
            plugin::parseMetadata("{}", "my.json");
        } catch (const std::runtime_error& e) {
            QCOMPARE(QString(e.what()), QString("my.json has no \"id\""));
        }
    }

    void refusalNames() {
        using R = plugin::Refusal;
        QCOMPARE(QString(plugin::refusalName(R::None)), QString("loaded"));
        QSet<QString> seen;
        for (R r : {R::BadMetadata, R::AbiMismatch, R::DuplicateId, R::LibraryMissing,
                    R::LibraryUnloadable, R::NoEntryPoint, R::RegistrationFailed, R::NameTaken})
            seen.insert(plugin::refusalName(r));
        QCOMPARE(seen.size(), 8);
        QVERIFY(seen.contains("ABI mismatch"));
        QVERIFY(!seen.contains("unknown"));
    }

    void noRegistryIsAnError() {
        plugin::PluginSet set;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, plugin::loadPlugins({}, {}, set));
    }
};

QTEST_GUILESS_MAIN(TestPluginLoader)
#include "tst_pluginloader.moc"
