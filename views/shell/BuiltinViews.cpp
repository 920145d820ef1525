/// \file
/// The IDE's views, one record each (ViewRegistry.h). The default layout they
/// describe: the code view is the centre of the window; the graph (tabbed with
/// the GEMM lesson) over the schedule editor (tabbed with the node properties)
/// on the left; the messages (tabbed with the stage view, whose diff wants the
/// full width) below. The lesson and the stage view get room when chosen; the
/// code view arranges its panes for its size and maximises the focused one.
#include "shell/ViewRegistry.h"

#include "code/CodeView.h"
#include "common/Session.h"
#include "compare/CompareSession.h"
#include "compare/CompareView.h"
#include "devices/DevicePanel.h"
#include "graph/GraphPanel.h"
#include "graph/NodeProperties.h"
#include "lesson/LessonView.h"
#include "schedule/ScheduleEditor.h"
#include "shell/MessagesView.h"
#include "stages/StageView.h"
#include "tuning/TuningSession.h"
#include "tuning/TuningView.h"

#include <QCoreApplication>
#include <QPointer>

namespace tessel::views {

namespace {

template <class View> std::function<QWidget*(Session*, QWidget*)> make() {
    return [](Session* session, QWidget* parent) -> QWidget* { return new View(session, parent); };
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
    r.add(code);

    ViewRecord graph =
        record(QStringLiteral("GraphDock"), QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Graph"),
               QStringLiteral("graph"), make<GraphPanel>());
    graph.placement.raised = true;
    graph.placement.widthShare = 0.4;
    graph.placement.heightShare = 0.4;
    r.add(graph);

    ViewRecord properties = record(QStringLiteral("PropertiesDock"),
                                   QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Properties"),
                                   QString(), make<NodeProperties>());
    properties.placement.tabWith = QStringLiteral("ScheduleDock");
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
    r.add(stages);

    ViewRecord schedule = record(QStringLiteral("ScheduleDock"),
                                 QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Schedule"),
                                 QStringLiteral("schedule"), make<ScheduleEditor>());
    schedule.placement.below = QStringLiteral("GraphDock");
    schedule.placement.raised = true;
    schedule.placement.heightShare = 0.5; // text needs the lines more than the graph (it zooms)
    r.add(schedule);

    ViewRecord lesson = record(QStringLiteral("LessonDock"),
                               QT_TRANSLATE_NOOP("tessel::views::MainWindow", "GEMM Lesson"),
                               QStringLiteral("lesson"), make<LessonView>());
    lesson.placement.tabWith = QStringLiteral("GraphDock");
    // Chosen, it takes most of the window: its steps, chart, text and code.
    lesson.placement.roomWidthShare = 0.6;
    lesson.placement.roomHeightShare = 0.6;
    r.add(lesson);

    ViewRecord messages = record(QStringLiteral("MessagesDock"),
                                 QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Messages"),
                                 QString(), make<MessagesView>());
    messages.placement.area = Qt::BottomDockWidgetArea;
    messages.placement.raised = true;
    messages.placement.heightShare = 1.0 / 9;
    r.add(messages);

    ViewRecord devices = record(QStringLiteral("DevicesDock"),
                                QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Devices"),
                                QStringLiteral("devices"), make<DevicePanel>());
    devices.placement.area = Qt::BottomDockWidgetArea;
    devices.placement.tabWith = QStringLiteral("MessagesDock");
    r.add(devices);

    ViewRecord tuning = record(QStringLiteral("TuningDock"),
                               QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Tuning"),
                               QStringLiteral("tuning"), make<TuningView>());
    tuning.placement.tabWith = QStringLiteral("GraphDock");
    // Chosen, it takes most of the window: its table, two charts and the records.
    tuning.placement.roomWidthShare = 0.6;
    tuning.placement.roomHeightShare = 0.6;
    r.add(tuning);

    ViewRecord compare = record(QStringLiteral("CompareDock"),
                                QT_TRANSLATE_NOOP("tessel::views::MainWindow", "Compare"),
                                QStringLiteral("compare"), make<CompareView>());
    compare.placement.tabWith = QStringLiteral("GraphDock");
    // Chosen, it takes most of the window: its chart and table.
    compare.placement.roomWidthShare = 0.6;
    compare.placement.roomHeightShare = 0.6;
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
