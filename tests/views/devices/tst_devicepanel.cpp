// The device panel against a real `tessel-rpc tracker` and servers on
// loopback: a tracker's keys and servers show live, unreachable endpoints
// and wrong tokens read as messages with what to check, the list is
// remembered, and "Use for runs" makes a server the session's device. The
// key cpu runs here; the screenshot also lists the real qemu aarch64 board
// (the cross-built tessel-rpc under qemu-aarch64-static) under aarch64-qemu.
#include "common/Session.h"
#include "devices/DevicePanel.h"
#include "driver/Measure.h"
#include "driver/TeDriver.h"
#include "runtime/DeviceInfo.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFont>
#include <QHeaderView>
#include "common/RpcProcess.h"

#include <QProcess>
#include <QStandardPaths>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

#include <fstream>
#include <iterator>
#include <memory>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace tessel::views;

namespace {
const QString kRpc = QStringLiteral(TESSEL_BINARY_DIR "/bin/tessel-rpc");
}

namespace {

/// The row of `parent` whose column 0 reads `text`; invalid when none.
QModelIndex rowNamed(const QAbstractItemModel* m, const QModelIndex& parent, const QString& text) {
    for (int r = 0; r < m->rowCount(parent); ++r)
        if (m->index(r, 0, parent).data().toString() == text) return m->index(r, 0, parent);
    return {};
}

QString cell(const QModelIndex& row, int column) { return row.siblingAtColumn(column).data().toString(); }

Endpoint endpoint(Endpoint::Kind kind, quint16 port, const QString& tokenFile = {}) {
    Endpoint e;
    e.kind = kind;
    e.port = port;
    e.tokenFile = tokenFile;
    return e;
}

} // namespace

class TestDevicePanel : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    tessel::test::RpcProcess tracker_, board_, locked_;
    QString goodToken_, badToken_;

    void writeFile(const QString& path, const QByteArray& text) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }

private slots:
    void initTestCase() {
        // Settings of this test only, cleared: the panel remembers its list there.
        QCoreApplication::setOrganizationName(QStringLiteral("TesselTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_devicepanel"));
        QSettings().clear();
        goodToken_ = dir_.filePath(QStringLiteral("token"));
        badToken_ = dir_.filePath(QStringLiteral("wrong-token"));
        writeFile(goodToken_, "sesame\n");
        writeFile(badToken_, "open-barley\n");
        QVERIFY(tracker_.start(kRpc, {QStringLiteral("tracker"), QStringLiteral("--port"), QStringLiteral("0")}));
        QVERIFY(board_.start(kRpc, {QStringLiteral("server"), QStringLiteral("--port"), QStringLiteral("0"),
                              QStringLiteral("--tracker"), QStringLiteral("127.0.0.1:%1").arg(tracker_.port),
                              QStringLiteral("--key"), QStringLiteral("cpu")}));
        QVERIFY(locked_.start(kRpc, {QStringLiteral("server"), QStringLiteral("--port"), QStringLiteral("0"),
                               QStringLiteral("--token-file"), goodToken_}));
    }
    void init() { QSettings().clear(); }
    void cleanupTestCase() { QSettings().clear(); }

    void trackerShowsKeysAndServers() {
        Session session;
        DevicePanel panel(&session);
        QVERIFY(panel.addEndpoint(endpoint(Endpoint::Kind::Tracker, tracker_.port)));
        QVERIFY(!panel.addEndpoint(endpoint(Endpoint::Kind::Tracker, tracker_.port))); // listed once
        const DeviceList* m = panel.list();
        const QModelIndex tracker = m->index(0, 0);
        QCOMPARE(cell(tracker, DeviceList::Address), QStringLiteral("127.0.0.1:%1").arg(tracker_.port));
        // The server registers within a heartbeat; the panel refreshes every 2 s.
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(m, tracker, QStringLiteral("cpu")).isValid(), 15000);
        const QModelIndex key = rowNamed(m, tracker, QStringLiteral("cpu"));
        QTRY_COMPARE_WITH_TIMEOUT(cell(key, DeviceList::Keys), QStringLiteral("1 / 1 / 0"), 10000);
        QCOMPARE(cell(tracker, DeviceList::State), QStringLiteral("online"));
        QVERIFY(cell(tracker, DeviceList::RoundTrip).endsWith(QStringLiteral(" ms")));
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(key), 1, 5000);
        const QModelIndex server = m->index(0, 0, key);
        const QString triple = QString::fromStdString(tessel::runtime::DeviceInfo::local().triple);
        QTRY_VERIFY_WITH_TIMEOUT(cell(server, DeviceList::Device).startsWith(triple), 5000);
        QCOMPARE(cell(server, DeviceList::Address), QStringLiteral("127.0.0.1:%1").arg(board_.port));
        QCOMPARE(cell(server, DeviceList::State), QStringLiteral("free"));
        QVERIFY(cell(server, DeviceList::Heartbeat).endsWith(QStringLiteral("s ago")));

        // A second look updates the same rows (a selection survives the refresh).
        panel.tree()->setCurrentIndex(server);
        QSignalSpy refreshed(&panel, &DevicePanel::refreshed);
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(panel.tree()->currentIndex(), server);
    }

    void unreachableEndpointsSayWhatToCheck() {
        quint16 closedPort = 0;
        {
            // A port nothing listens on: bound, then closed again.
            const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            socklen_t len = sizeof a;
            QVERIFY(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
            QVERIFY(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
            closedPort = ntohs(a.sin_port);
            ::close(fd);
        }
        Session session;
        DevicePanel panel(&session);
        panel.addEndpoint(endpoint(Endpoint::Kind::Server, closedPort));
        panel.addEndpoint(endpoint(Endpoint::Kind::Server, locked_.port, badToken_));
        panel.addEndpoint(endpoint(Endpoint::Kind::Server, locked_.port));
        panel.addEndpoint(endpoint(Endpoint::Kind::Server, locked_.port, goodToken_));
        panel.addEndpoint(endpoint(Endpoint::Kind::Server, locked_.port, dir_.filePath(QStringLiteral("no-such-file"))));
        const DeviceList* m = panel.list();
        QTRY_VERIFY_WITH_TIMEOUT(!m->message(0).isEmpty(), 10000);
        QVERIFY2(m->message(0).startsWith(QStringLiteral("Nothing listens at 127.0.0.1:%1").arg(closedPort)),
                 qPrintable(m->message(0)));
        QVERIFY2(m->message(0).contains(QStringLiteral("is tessel-rpc server running there?")), qPrintable(m->message(0)));
        QCOMPARE(cell(m->index(0, 0), DeviceList::State), QStringLiteral("unreachable"));
        QTRY_VERIFY_WITH_TIMEOUT(!m->message(1).isEmpty(), 10000);
        QCOMPARE(m->message(1), QStringLiteral("Wrong token: check the token file %1.").arg(badToken_));
        QTRY_VERIFY_WITH_TIMEOUT(!m->message(2).isEmpty(), 10000);
        QVERIFY2(m->message(2).startsWith(QStringLiteral("Missing token")), qPrintable(m->message(2)));
        QTRY_COMPARE_WITH_TIMEOUT(cell(m->index(3, 0), DeviceList::State), QStringLiteral("online"), 10000);
        QVERIFY(m->message(3).isEmpty());
        QVERIFY(!cell(m->index(3, 0), DeviceList::Device).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!m->message(4).isEmpty(), 10000);
        QVERIFY2(m->message(4).contains(QStringLiteral("no-such-file")), qPrintable(m->message(4)));
    }

    void listIsRemembered() {
        QSettings().clear();
        Endpoint tracker = endpoint(Endpoint::Kind::Tracker, tracker_.port);
        Endpoint server = endpoint(Endpoint::Kind::Server, locked_.port, goodToken_);
        {
            Session session;
            DevicePanel panel(&session);
            QVERIFY(panel.list()->endpoints().isEmpty());
            panel.addEndpoint(tracker);
            panel.addEndpoint(server);
            panel.addEndpoint(endpoint(Endpoint::Kind::Server, 1));
            panel.removeEndpoint(2);
        }
        Session session;
        DevicePanel panel(&session);
        QCOMPARE(panel.list()->endpoints(), (QList<Endpoint>{tracker, server}));
        QCOMPARE(panel.list()->rowCount(), 2);
        QSettings().clear();
    }

    void chosenDeviceRunsTheSession() {
        Session session;
        DevicePanel panel(&session);
        panel.addEndpoint(endpoint(Endpoint::Kind::Tracker, tracker_.port));
        const DeviceList* m = panel.list();
        const QModelIndex tracker = m->index(0, 0);
        QVERIFY(!panel.useForRuns(tracker)); // a tracker is no device
        QVERIFY(panel.statusText().contains(QStringLiteral("keys or servers")));
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(m, tracker, QStringLiteral("cpu")).isValid(), 15000);
        const QModelIndex key = rowNamed(m, tracker, QStringLiteral("cpu"));
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(key), 1, 5000);

        QVERIFY(session.setTarget(QStringLiteral("aarch64")));
        QSignalSpy deviceChanged(&session, &Session::deviceChanged);
        QVERIFY(panel.useForRuns(m->index(0, 0, key)));
        QCOMPARE(deviceChanged.count(), 1);
        QCOMPARE(session.device().kind, DeviceChoice::Kind::Server);
        QCOMPARE(session.device().port, board_.port);
        // The server runs on this machine: the session builds for it again.
        QCOMPARE(session.target(), QStringLiteral("host"));
        QVERIFY2(panel.statusText().contains(QStringLiteral("server 127.0.0.1:%1").arg(board_.port)),
                 qPrintable(panel.statusText()));

        QVERIFY(panel.useForRuns(key));
        QCOMPARE(session.device().kind, DeviceChoice::Kind::TrackerKey);
        QCOMPARE(session.device().key, QStringLiteral("cpu"));
        QCOMPARE(session.device().label(), QStringLiteral("cpu via tracker 127.0.0.1:%1").arg(tracker_.port));

        panel.useLocal();
        QVERIFY(session.device().isLocal());
        QSettings().clear();
    }

    void deadDevicesAreMarked() {
        // Issue 21: a server chosen for runs and then killed stayed "the
        // device" with nothing said; a tracker that died kept listing its keys.
        tessel::test::RpcProcess tracker, server;
        QVERIFY(tracker.start(kRpc, {QStringLiteral("tracker"), QStringLiteral("--port"), QStringLiteral("0")}));
        QVERIFY(server.start(kRpc, {QStringLiteral("server"), QStringLiteral("--port"), QStringLiteral("0"),
                                    QStringLiteral("--tracker"), QStringLiteral("127.0.0.1:%1").arg(tracker.port),
                                    QStringLiteral("--key"), QStringLiteral("doomed")}));
        Session session;
        DevicePanel panel(&session);
        panel.setTimeoutMs(1000);
        panel.addEndpoint(endpoint(Endpoint::Kind::Tracker, tracker.port));
        const DeviceList* m = panel.list();
        const QModelIndex trackerRow = m->index(0, 0);
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(m, trackerRow, QStringLiteral("doomed")).isValid(), 15000);
        const QModelIndex key = rowNamed(m, trackerRow, QStringLiteral("doomed"));
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(key), 1, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!cell(m->index(0, 0, key), DeviceList::Device).isEmpty(), 5000);

        // Chosen: its row is marked, and its own check says it answers.
        QVERIFY(panel.useForRuns(m->index(0, 0, key)));
        QCOMPARE(m->chosenIndex(), m->index(0, 0, key));
        QVERIFY(m->index(0, 0, key).data(DeviceList::ChosenRole).toBool());
        QVERIFY(m->index(0, 0, key).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!key.data(DeviceList::ChosenRole).toBool());
        QTRY_VERIFY_WITH_TIMEOUT(panel.isChosenChecked(), 10000);
        QVERIFY2(panel.chosenTrouble().isEmpty(), qPrintable(panel.chosenTrouble()));
        QVERIFY2(!panel.statusText().contains(QStringLiteral("does not answer")), qPrintable(panel.statusText()));

        // Killed (no goodbye to the tracker, which lists it until its
        // heartbeat is missed): the line and its row say it is gone.
        server.process->kill();
        server.process->waitForFinished(5000);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.chosenTrouble().isEmpty(), 15000);
        QVERIFY2(panel.chosenTrouble().startsWith(QStringLiteral("Nothing listens at 127.0.0.1:%1").arg(server.port)),
                 qPrintable(panel.chosenTrouble()));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Run and Measure use: server 127.0.0.1:%1").arg(server.port)) &&
                     panel.statusText().contains(QStringLiteral("does not answer")),
                 qPrintable(panel.statusText()));
        // While the tracker still lists it, its row is marked; once the tracker
        // drops it, the row goes and the line still says so.
        if (const QModelIndex chosen = m->chosenIndex(); chosen.isValid())
            QCOMPARE(cell(chosen, DeviceList::State), QStringLiteral("unreachable"));
        panel.resize(1100, 300);
        panel.tree()->expandAll();
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QString shots = QStringLiteral(TESSEL_BINARY_DIR "/screenshots/views");
        QDir().mkpath(shots);
        QVERIFY(panel.grab().save(shots + QStringLiteral("/devices-chosen-unreachable.png")));

        // The tracker killed too, while it lists a free server: what it
        // listed is unknown now, not "free 1 / 1 / 0".
        tessel::test::RpcProcess spare;
        QVERIFY(spare.start(kRpc, {QStringLiteral("server"), QStringLiteral("--port"), QStringLiteral("0"),
                                   QStringLiteral("--tracker"), QStringLiteral("127.0.0.1:%1").arg(tracker.port),
                                   QStringLiteral("--key"), QStringLiteral("spare")}));
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(m, trackerRow, QStringLiteral("spare")).isValid(), 15000);
        const QPersistentModelIndex spareKey = rowNamed(m, trackerRow, QStringLiteral("spare"));
        QTRY_COMPARE_WITH_TIMEOUT(cell(spareKey, DeviceList::Keys), QStringLiteral("1 / 1 / 0"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(spareKey), 1, 5000);
        tracker.process->kill();
        tracker.process->waitForFinished(5000);
        QTRY_COMPARE_WITH_TIMEOUT(cell(trackerRow, DeviceList::State), QStringLiteral("unreachable"), 15000);
        QVERIFY(spareKey.isValid());
        QCOMPARE(cell(trackerRow, DeviceList::Keys), QStringLiteral("—"));
        QCOMPARE(cell(spareKey, DeviceList::Keys), QStringLiteral("—"));
        QCOMPARE(cell(spareKey, DeviceList::State), QStringLiteral("unknown: tracker unreachable"));
        QCOMPARE(cell(m->index(0, 0, spareKey), DeviceList::State), QStringLiteral("unknown: tracker unreachable"));
        // Choosing a device of a tracker that does not answer is refused, with why.
        QVERIFY(!panel.useForRuns(spareKey));
        QVERIFY2(panel.statusText().contains(QStringLiteral("does not answer")), qPrintable(panel.statusText()));

        // Back on this machine: nothing is marked, nothing is in trouble.
        panel.useLocal();
        QVERIFY(!m->chosenIndex().isValid());
        QVERIFY(panel.chosenTrouble().isEmpty());
        QCOMPARE(panel.statusText(), QStringLiteral("Run and Measure use: this machine (target host)."));
        QSettings().clear();
    }

    void measuresOnTheChosenDevice() {
        std::ifstream in(TESSEL_SOURCE_DIR "/resources/examples/gemm/06_write_cache.te");
        tessel::driver::ScriptOptions so;
        so.fileName = "06_write_cache.te";
        const auto f = tessel::driver::lowerScript(
            std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), so).at(0);
        DeviceChoice server;
        server.kind = DeviceChoice::Kind::Server;
        server.host = QStringLiteral("127.0.0.1");
        server.port = locked_.port;
        server.tokenFile = goodToken_;
        DeviceChoice key;
        key.kind = DeviceChoice::Kind::TrackerKey;
        key.host = QStringLiteral("127.0.0.1");
        key.port = tracker_.port;
        key.key = QStringLiteral("cpu");
        for (const DeviceChoice& device : {server, key}) {
            DeviceRunners runners(device);
            tessel::driver::RunOptions ro;
            ro.evaluator = {1, 2, 10, 1};
            runners.apply(ro);
            QVERIFY(ro.runner && ro.referenceBuilder && ro.referenceRunner);
            const tessel::driver::RunReport report = tessel::driver::runAndCheck(f, ro);
            QVERIFY2(report.ok, report.error.c_str());
            QVERIFY(report.latencyMs > 0);
        }
        // The wrong token is the server's refusal, reported, never a crash.
        server.tokenFile = badToken_;
        DeviceRunners wrong(server);
        tessel::driver::RunOptions ro;
        wrong.apply(ro);
        const tessel::driver::RunReport refused = tessel::driver::runAndCheck(f, ro);
        QVERIFY(!refused.ok);
        QVERIFY2(QString::fromStdString(refused.error).contains(QStringLiteral("token")), refused.error.c_str());
        server.tokenFile = dir_.filePath(QStringLiteral("no-such-file"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, DeviceRunners{server});
    }

    void screenshot() {
        // The qemu board, registered with the same tracker.
        const QString boardRpc = QStringLiteral(TESSEL_AARCH64_BUILD_DIR "/bin/tessel-rpc");
        const QString qemu = QStandardPaths::findExecutable(QStringLiteral("qemu-aarch64-static"));
        if (qemu.isEmpty() || !QFile::exists(boardRpc))
            QFAIL("the qemu board is missing (qemu-aarch64-static, build-aarch64): ./run.sh test installs and builds it");
        tessel::test::RpcProcess qemuBoard;
        QVERIFY(qemuBoard.start(qemu, {boardRpc, QStringLiteral("server"), QStringLiteral("--port"), QStringLiteral("0"),
                                 QStringLiteral("--tracker"), QStringLiteral("127.0.0.1:%1").arg(tracker_.port),
                                 QStringLiteral("--key"), QStringLiteral("aarch64-qemu")}));
        QSettings().clear();
        Session session;
        DevicePanel panel(&session);
        panel.resize(1280, 320);
        panel.addEndpoint(endpoint(Endpoint::Kind::Tracker, tracker_.port));
        panel.addEndpoint(endpoint(Endpoint::Kind::Server, locked_.port, goodToken_));
        panel.addEndpoint(endpoint(Endpoint::Kind::Server, locked_.port, badToken_));
        const DeviceList* m = panel.list();
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(m, m->index(0, 0), QStringLiteral("cpu")).isValid(), 15000);
        const QModelIndex key = rowNamed(m, m->index(0, 0), QStringLiteral("cpu"));
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(key), 1, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!m->message(2).isEmpty(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(m, m->index(0, 0), QStringLiteral("aarch64-qemu")).isValid(), 15000);
        const QModelIndex boardKey = rowNamed(m, m->index(0, 0), QStringLiteral("aarch64-qemu"));
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(boardKey), 1, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(cell(m->index(0, 0, boardKey), DeviceList::Device).startsWith(QStringLiteral("aarch64")),
                                 10000);
        QTRY_COMPARE_WITH_TIMEOUT(cell(m->index(1, 0), DeviceList::State), QStringLiteral("online"), 10000);
        QVERIFY(panel.useForRuns(m->index(0, 0, key)));
        panel.tree()->expandAll();
        panel.tree()->header()->resizeSections(QHeaderView::ResizeToContents);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QString out = QStringLiteral(TESSEL_BINARY_DIR "/screenshots");
        QDir().mkpath(out);
        QVERIFY(panel.grab().save(out + QStringLiteral("/devices-panel.png")));
        QSettings().clear();
    }
};

QTEST_MAIN(TestDevicePanel)
#include "tst_devicepanel.moc"
