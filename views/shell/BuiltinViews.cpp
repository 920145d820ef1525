/// \file
/// The IDE's views, one record each (ViewRegistry.h). The default layout they
/// describe: the code view is the centre of the window; the graph (tabbed with
/// the GEMM lesson) over the schedule editor (tabbed with the node properties)
/// on the left; the messages (tabbed with the stage view, whose diff wants the
/// full width, and with the primitive stepper) below. Every view has the
/// least room it is useful in (`useful`, the layout rule of WindowLayout);
/// the lesson, the tuning, compare and stage views and the stepper get room when chosen; the
/// code view arranges its panes for its size and maximises the focused one.
#include "shell/ViewRegistry.h"

#include "code/CodeView.h"
#include "common/CodeEditor.h"
#include "common/Session.h"
#include "driver/ModelCompiler.h"
#include "compare/CompareChart.h"
#include "compare/CompareSession.h"
#include "compare/CompareView.h"
#include "devices/DevicePanel.h"
#include "graph/GraphPanel.h"
#include "graph/GraphView.h"
#include "graph/NodeProperties.h"
#include "lesson/LessonView.h"
#include "schedule/ScheduleEditor.h"
#include "shell/MessagesView.h"
#include "stages/StageView.h"
#include "stepper/PrimitiveStepper.h"
#include "tuning/TuningSession.h"
#include "tuning/TuningView.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QHeaderView>
#include <QListView>
#include <QPointer>
#include <QScrollBar>
#include <QTableView>
#include <QTreeView>
#include <QtMath>

namespace tessel::views {

namespace {

template <class View> std::function<QWidget*(Session*, QWidget*)> make() {
    return [](Session* session, QWidget* parent) -> QWidget* { return new View(session, parent); };
}

// ---- the least room a view is useful in (ViewRecord::useful), from its fonts

/// `lines` lines of `columns` characters of a text pane.
UsefulSize textArea(CodeEditor* e, int columns, int lines, const QString& what) {
    const int height = 2 * e->frameWidth() + 2 * qCeil(e->document()->documentMargin()) +
                       lines * e->fontMetrics().lineSpacing() + e->horizontalScrollBar()->sizeHint().height();
    return {e, QSize(e->widthForColumns(columns), height), what};
}

/// A table's or a tree's header and `rows` rows, `width` wide.
UsefulSize tableRows(QAbstractItemView* v, int rows, int width, const QString& what) {
    int header = 0;
    if (auto* t = qobject_cast<QTableView*>(v); t && t->horizontalHeader()->isVisible())
        header = t->horizontalHeader()->sizeHint().height();
    if (auto* t = qobject_cast<QTreeView*>(v); t && !t->isHeaderHidden()) header = t->header()->sizeHint().height();
    // Its rows as drawn once it has one (a compact tree's are a line high;
    // taking the larger of that and a padded line asked 6 rows of Properties
    // for 7 drawn); before, a padded line.
    const int row = v->model() && v->model()->rowCount() ? v->sizeHintForRow(0) : v->fontMetrics().height() + 6;
    return {v, QSize(width, 2 * v->frameWidth() + header + rows * row), what};
}

/// A chart whose plot area (inside its axes) is at least `area`.
UsefulSize plotArea(QCustomPlot* p, QSize area, const QString& what) {
    // Around the plot area: the axes' labels, the title and the legend, as laid out now.
    const QRect inner = p->axisRect()->rect();
    QSize chrome(110, 90);
    if (inner.isValid() && inner.width() > 0 && inner.height() > 0) chrome = p->size() - inner.size();
    return {p, chrome.expandedTo(QSize(0, 0)) + area, what};
}

ViewRecord record(const QString& id, const char* title, const QString& screenshot,
                  std::function<QWidget*(Session*, QWidget*)> create) {
    ViewRecord r;
    r.id = id;
    r.title = title;
    r.screenshot = screenshot;
    r.create = std::move(create);
    return r;
}

} // namespace

ViewRegistry builtinViews() {
    ViewRegistry r;
    ViewRecord code =
        record(QStringLiteral("CodeView"), QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Code"),
               QStringLiteral("code"), [](Session* session, QWidget* parent) -> QWidget* {
                   auto* view = new CodeView(session, parent);
                   // The C pane is one click away (the view's toolbar); the
                   // others are arranged for the width (CodeView::arrangePanes).
                   view->setPaneVisible(CodeView::C, false);
                   return view;
               });
    code.placement.central = true;
    code.maximise = [](QWidget* self, QWidget* focus) {
        auto* view = static_cast<CodeView*>(self);
        const int pane = view->paneOf(focus);
        view->maximisePane(pane >= 0 ? CodeView::Pane(pane) : view->currentPane());
    };
    code.restore = [](QWidget* self) { static_cast<CodeView*>(self)->restorePanes(); };
    code.useful = [](QWidget* self) {
        auto* view = static_cast<CodeView*>(self);
        // A model that cannot compile has no function to show: the view's
        // room may go to the graph, which is all there is to see.
        if (Session* s = view->session(); s->kind() == Session::Kind::Model && s->model() &&
                                          s->model()->functions.empty() && !s->model()->unsupported.empty()) {
            UsefulSize idle;
            idle.idle = true;
            idle.what = QStringLiteral("nothing: the model cannot be compiled");
            return idle;
        }
        UsefulSize u = textArea(view->pane(CodeView::Tir), kReadableColumns, 12,
                                QStringLiteral("12 lines of 60 columns of the TIR"));
        // Narrower, it stacks its panes: the TIR keeps its columns down to one pane across.
        u.least.setWidth(view->leastWidth());
        return u;
    };
    r.add(code);

    ViewRecord graph =
        record(QStringLiteral("GraphDock"), QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Graph"),
               QStringLiteral("graph"), make<GraphPanel>());
    graph.placement.raised = true;
    graph.placement.widthShare = 0.4;
    graph.placement.heightShare = 0.4;
    graph.useful = [](QWidget* self) {
        auto* panel = static_cast<GraphPanel*>(self);
        UsefulSize u{panel->view(), QSize(320, 220), QStringLiteral("320 x 220 px of the graph")};
        // A model that cannot compile: its graph is all there is to see, and
        // the graph can use the room of its whole drawing.
        if (panel->drawingIsAll()) u.room = panel->drawingSize();
        return u;
    };
    graph.asksForRoom = [](QWidget* self, std::function<void()> ask) {
        QObject::connect(static_cast<GraphPanel*>(self), &GraphPanel::roomWanted, self, std::move(ask));
    };
    r.add(graph);

    ViewRecord properties = record(QStringLiteral("PropertiesDock"),
                                   QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Properties"),
                                   QString(), make<NodeProperties>());
    properties.placement.tabWith = QStringLiteral("ScheduleDock");
    properties.placement.cramped = WhenCramped::Stay;
    properties.useful = [](QWidget* self) {
        return tableRows(static_cast<NodeProperties*>(self)->tree(), 6, 260, QStringLiteral("6 rows of properties"));
    };
    properties.link = [](QWidget* self, const ViewLookup& find) {
        static_cast<NodeProperties*>(self)->follow(
            qobject_cast<GraphPanel*>(find(QStringLiteral("GraphDock"))));
    };
    r.add(properties);

    ViewRecord stages = record(QStringLiteral("StagesDock"),
                               QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Stages"),
                               QStringLiteral("stages"), make<StageView>());
    stages.placement.area = Qt::BottomDockWidgetArea;
    stages.placement.tabWith = QStringLiteral("MessagesDock");
    stages.placement.roomHeightShare = 0.45; // the diff's two panes need lines, not only width
    stages.useful = [](QWidget* self) {
        return textArea(static_cast<StageView*>(self)->afterEditor(), kReadableColumns, 10,
                        QStringLiteral("10 lines of 60 columns of the pass's result"));
    };
    r.add(stages);

    ViewRecord steps = record(QStringLiteral("StepperDock"),
                              QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Primitive Steps"),
                              QStringLiteral("steps"), make<PrimitiveStepper>());
    steps.placement.area = Qt::BottomDockWidgetArea;
    steps.placement.tabWith = QStringLiteral("MessagesDock");
    steps.placement.roomHeightShare = 0.45; // the TIR after a primitive: lines, like the stage view's diff
    steps.useful = [](QWidget* self) {
        return textArea(static_cast<PrimitiveStepper*>(self)->tirView(), kReadableColumns, 10,
                        QStringLiteral("10 lines of 60 columns of the TIR after a primitive"));
    };
    r.add(steps);

    ViewRecord schedule = record(QStringLiteral("ScheduleDock"),
                                 QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Schedule"),
                                 QStringLiteral("schedule"), make<ScheduleEditor>());
    schedule.placement.below = QStringLiteral("GraphDock");
    schedule.placement.raised = true;
    schedule.placement.heightShare = 0.5; // text needs the lines more than the graph (it zooms)
    schedule.useful = [](QWidget* self) {
        return textArea(static_cast<ScheduleEditor*>(self)->editor(), kReadableColumns, 12,
                        QStringLiteral("12 lines of 60 columns of the script"));
    };
    r.add(schedule);

    ViewRecord lesson = record(QStringLiteral("LessonDock"),
                               QT_TRANSLATE_NOOP("tessel::views::MainWindow", "GEMM Lesson"),
                               QStringLiteral("lesson"), make<LessonView>());
    lesson.placement.tabWith = QStringLiteral("GraphDock");
    // Chosen, it takes most of the window: its steps, chart, text and code.
    lesson.placement.roomWidthShare = 0.6;
    lesson.placement.roomHeightShare = 0.6;
    lesson.useful = [](QWidget* self) {
        return textArea(static_cast<LessonView*>(self)->scriptView(), kReadableColumns, 12,
                        QStringLiteral("12 lines of 60 columns of the step's script"));
    };
    r.add(lesson);

    ViewRecord messages = record(QStringLiteral("MessagesDock"),
                                 QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Messages"),
                                 QString(), make<MessagesView>());
    messages.placement.area = Qt::BottomDockWidgetArea;
    messages.placement.raised = true;
    messages.placement.heightShare = 1.0 / 9;
    messages.placement.cramped = WhenCramped::Stay;
    messages.useful = [](QWidget* self) {
        return tableRows(static_cast<MessagesView*>(self), 3, 400, QStringLiteral("3 messages"));
    };
    r.add(messages);

    ViewRecord devices = record(QStringLiteral("DevicesDock"),
                                QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Devices"),
                                QStringLiteral("devices"), make<DevicePanel>());
    devices.placement.area = Qt::BottomDockWidgetArea;
    devices.placement.tabWith = QStringLiteral("MessagesDock");
    // Chosen, it shows its endpoints, keys and servers with their columns.
    devices.useful = [](QWidget* self) {
        return tableRows(static_cast<DevicePanel*>(self)->tree(), 5, 700,
                         QStringLiteral("5 rows of endpoints, keys and servers"));
    };
    r.add(devices);

    ViewRecord tuning = record(QStringLiteral("TuningDock"),
                               QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Tuning"),
                               QStringLiteral("tuning"), make<TuningView>());
    tuning.placement.tabWith = QStringLiteral("GraphDock");
    // Chosen, it takes most of the window: its table, two charts and the records.
    tuning.placement.roomWidthShare = 0.6;
    tuning.placement.roomHeightShare = 0.6;
    tuning.useful = [](QWidget* self) {
        return plotArea(static_cast<TuningView*>(self)->trialPlot(), QSize(280, 150),
                        QStringLiteral("280 x 150 px of the trial chart"));
    };
    r.add(tuning);

    ViewRecord compare = record(QStringLiteral("CompareDock"),
                                QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Compare"),
                                QStringLiteral("compare"), make<CompareView>());
    compare.placement.tabWith = QStringLiteral("GraphDock");
    // Chosen, it takes most of the window: its chart and table.
    compare.placement.roomWidthShare = 0.6;
    compare.placement.roomHeightShare = 0.6;
    compare.useful = [](QWidget* self) {
        return plotArea(static_cast<CompareView*>(self)->chart(), QSize(320, 160),
                        QStringLiteral("320 x 160 px of the chart"));
    };
    // "The Tuning view's records" are its records file; devices come from the panel.
    compare.link = [](QWidget* self, const ViewLookup& find) {
        auto* view = static_cast<CompareView*>(self);
        if (auto* tuning = qobject_cast<TuningView*>(find(QStringLiteral("TuningDock")))) {
            QPointer<TuningView> t(tuning);
            view->compare()->setTuningRecordsSource([t, session = view->compare()->session()] {
                return t ? t->tuning()->recordsPath() : TuningSession::defaultRecordsPath(session->sourcePath());
            });
        }
        if (auto* devices = qobject_cast<DevicePanel*>(find(QStringLiteral("DevicesDock"))))
            view->followDevices(devices->list());
    };
    r.add(compare);
    return r;
}

} // namespace tessel::views
