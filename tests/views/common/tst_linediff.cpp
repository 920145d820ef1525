// LineDiff: the edit script on known inputs (insert, delete, replace, empty
// sides, identical texts), minimality against a plain LCS on random inputs,
// the side-by-side rows with their fillers, and the time on texts of the
// size a ResNet graph prints.
#include "common/LineDiff.h"

#include <QtTest>

#include <random>

using namespace tessel::views;

namespace {

std::vector<std::string_view> lines(const std::vector<std::string>& v) {
    return {v.begin(), v.end()};
}

/// The script as "=a", "-b", "+c" (the line's text after the mark).
QStringList render(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    QStringList out;
    for (const DiffLine& d : diffLines(lines(a), lines(b))) {
        switch (d.kind) {
        case DiffLine::Equal:
            out << "=" + QString::fromStdString(a[size_t(d.left)]);
            break;
        case DiffLine::Removed:
            out << "-" + QString::fromStdString(a[size_t(d.left)]);
            break;
        case DiffLine::Added:
            out << "+" + QString::fromStdString(b[size_t(d.right)]);
            break;
        }
    }
    return out;
}

int lcsLength(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::vector<int>> t(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j)
            t[i][j] =
                a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    return t[a.size()][b.size()];
}

/// Checks a script is valid: both texts covered in order, Equal lines equal.
void checkScript(const std::vector<DiffLine>& s, const std::vector<std::string>& a,
                 const std::vector<std::string>& b) {
    int i = 0, j = 0;
    for (const DiffLine& d : s) {
        if (d.kind != DiffLine::Added)
            QCOMPARE(d.left, i++);
        else
            QCOMPARE(d.left, -1);
        if (d.kind != DiffLine::Removed)
            QCOMPARE(d.right, j++);
        else
            QCOMPARE(d.right, -1);
        if (d.kind == DiffLine::Equal) QCOMPARE(a[size_t(d.left)], b[size_t(d.right)]);
    }
    QCOMPARE(i, int(a.size()));
    QCOMPARE(j, int(b.size()));
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (auto& l : v)
        s += l + "\n";
    return s;
}

} // namespace

class TestLineDiff : public QObject {
    Q_OBJECT
private slots:
    void knownInputs_data() {
        QTest::addColumn<QStringList>("a");
        QTest::addColumn<QStringList>("b");
        QTest::addColumn<QStringList>("script");
        QTest::newRow("identical") << QStringList{"x", "y", "z"} << QStringList{"x", "y", "z"}
                                   << QStringList{"=x", "=y", "=z"};
        QTest::newRow("insert") << QStringList{"x", "z"} << QStringList{"x", "y", "z"}
                                << QStringList{"=x", "+y", "=z"};
        QTest::newRow("insert at start")
            << QStringList{"y"} << QStringList{"x", "y"} << QStringList{"+x", "=y"};
        QTest::newRow("insert at end")
            << QStringList{"x"} << QStringList{"x", "y"} << QStringList{"=x", "+y"};
        QTest::newRow("delete") << QStringList{"x", "y", "z"} << QStringList{"x", "z"}
                                << QStringList{"=x", "-y", "=z"};
        QTest::newRow("replace") << QStringList{"x", "y", "z"} << QStringList{"x", "Y", "z"}
                                 << QStringList{"=x", "-y", "+Y", "=z"};
        QTest::newRow("replace two by one")
            << QStringList{"a", "b", "c", "d"} << QStringList{"a", "B", "d"}
            << QStringList{"=a", "-b", "-c", "+B", "=d"};
        QTest::newRow("left empty")
            << QStringList{} << QStringList{"x", "y"} << QStringList{"+x", "+y"};
        QTest::newRow("right empty")
            << QStringList{"x", "y"} << QStringList{} << QStringList{"-x", "-y"};
        QTest::newRow("both empty") << QStringList{} << QStringList{} << QStringList{};
        QTest::newRow("nothing in common")
            << QStringList{"a", "b"} << QStringList{"c"} << QStringList{"-a", "-b", "+c"};
        QTest::newRow("moved line") << QStringList{"a", "b", "c"} << QStringList{"b", "c", "a"}
                                    << QStringList{"-a", "=b", "=c", "+a"};
    }

    void knownInputs() {
        QFETCH(QStringList, a);
        QFETCH(QStringList, b);
        QFETCH(QStringList, script);
        std::vector<std::string> va, vb;
        for (auto& s : a)
            va.push_back(s.toStdString());
        for (auto& s : b)
            vb.push_back(s.toStdString());
        QCOMPARE(render(va, vb), script);
    }

    void shortestOnRandomInputs() {
        std::mt19937 rng(7);
        for (int round = 0; round < 400; ++round) {
            // Small alphabets make many equal lines: the hard case for a diff.
            int alphabet = 2 + int(rng() % 5);
            std::vector<std::string> a(rng() % 30), b;
            for (auto& l : a)
                l = std::string(1, char('a' + rng() % alphabet));
            if (round % 2) {
                b = a; // an edited copy
                for (int e = int(rng() % 6); e-- > 0;) {
                    size_t at = b.empty() ? 0 : rng() % (b.size() + 1);
                    if (rng() % 2 && at < b.size())
                        b.erase(b.begin() + long(at));
                    else
                        b.insert(b.begin() + long(at),
                                 std::string(1, char('a' + rng() % alphabet)));
                }
            } else {
                b.resize(rng() % 30);
                for (auto& l : b)
                    l = std::string(1, char('a' + rng() % alphabet));
            }
            auto s = diffLines(lines(a), lines(b));
            checkScript(s, a, b);
            int equal = int(std::count_if(s.begin(), s.end(),
                                          [](auto& d) { return d.kind == DiffLine::Equal; }));
            QCOMPARE(equal, lcsLength(a, b));
        }
    }

    void sideBySideAlignsWithFillers() {
        std::vector<std::string> a{"def f():", "  x = 1", "  y = 2", "  z = 3", "  return"};
        std::vector<std::string> b{"def f():", "  x = 1", "  w = 9", "  return", "  # end"};
        SideBySide s = sideBySide(join(a), join(b));
        // Rows: def, x, y|w, z|filler, return, filler|# end.
        QCOMPARE(s.rows(), 6);
        QCOMPARE(int(s.rightKind.size()), 6);
        QCOMPARE(s.left, std::string("def f():\n  x = 1\n  y = 2\n  z = 3\n  return\n"));
        QCOMPARE(s.right, std::string("def f():\n  x = 1\n  w = 9\n\n  return\n  # end"));
        using K = SideBySide::RowKind;
        QCOMPARE(s.leftKind,
                 (std::vector<K>{K::Same, K::Same, K::Changed, K::Changed, K::Same, K::Filler}));
        QCOMPARE(s.rightKind,
                 (std::vector<K>{K::Same, K::Same, K::Changed, K::Filler, K::Same, K::Changed}));
        QCOMPARE(s.leftLine, (std::vector<int>{1, 2, 3, 4, 5, 0}));
        QCOMPARE(s.rightLine, (std::vector<int>{1, 2, 3, 0, 4, 5}));
        QCOMPARE(s.removed, 2);
        QCOMPARE(s.added, 2);
        QVERIFY(!s.identical());
        // Same rows face the same text.
        auto l = splitLines(s.left), r = splitLines(s.right);
        for (int row = 0; row < s.rows(); ++row)
            if (s.leftKind[size_t(row)] == K::Same) QCOMPARE(l[size_t(row)], r[size_t(row)]);
    }

    void sideBySideEdgeCases() {
        SideBySide same = sideBySide("a\nb\n", "a\nb");
        QVERIFY(same.identical());
        QCOMPARE(same.rows(), 2);
        SideBySide fromNothing = sideBySide("", "a\nb\n");
        QCOMPARE(fromNothing.rows(), 2);
        QCOMPARE(fromNothing.added, 2);
        QCOMPARE(fromNothing.leftKind,
                 (std::vector<SideBySide::RowKind>{SideBySide::Filler, SideBySide::Filler}));
        QCOMPARE(fromNothing.left, std::string("\n"));
        SideBySide toNothing = sideBySide("a\n", "");
        QCOMPARE(toNothing.removed, 1);
        QCOMPARE(toNothing.rightLine, std::vector<int>{0});
        QCOMPARE(sideBySide("", "").rows(), 0);
    }

    void largeTextsStayFast() {
        // A graph-sized text (20,000 lines) with 200 scattered edits, and two
        // unrelated 3,000-line texts (the worst case for Myers).
        std::mt19937 rng(3);
        std::vector<std::string> a(20000);
        for (size_t i = 0; i < a.size(); ++i)
            a[i] = QString("%%1 = conv2d(%%2, %w%1)").arg(i).arg(rng() % (i + 1)).toStdString();
        std::vector<std::string> b = a;
        for (int e = 0; e < 200; ++e)
            b[rng() % b.size()] += " /* folded */";
        for (int e = 0; e < 50; ++e)
            b.erase(b.begin() + long(rng() % b.size()));
        QElapsedTimer t;
        t.start();
        SideBySide s = sideBySide(join(a), join(b));
        qint64 ms = t.elapsed();
        qInfo("20,000 lines, ~250 edits: %lld ms (%d removed, %d added)", ms, s.removed, s.added);
        QVERIFY(s.removed >= 200 && s.removed <= 250);
        QCOMPARE(s.removed - s.added, 50);
        QVERIFY2(ms < 500, "a graph-sized diff stays interactive");

        std::vector<std::string> x(3000), y(3000);
        for (size_t i = 0; i < x.size(); ++i) {
            x[i] = QString("x%1").arg(rng()).toStdString();
            y[i] = QString("y%1").arg(rng()).toStdString();
        }
        t.restart();
        SideBySide d = sideBySide(join(x), join(y));
        ms = t.elapsed();
        qInfo("3,000 vs 3,000 unrelated lines: %lld ms", ms);
        QCOMPARE(d.removed, 3000);
        QCOMPARE(d.added, 3000);
        QCOMPARE(d.rows(), 3000);
        QVERIFY2(ms < 5000, "the worst case still ends");
    }
};

QTEST_GUILESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
