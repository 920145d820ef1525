#include "graph/GraphPanel.h"

#include "common/Jobs.h"
#include "common/Session.h"
#include "driver/ModelCompiler.h"
#include "graph/GraphExport.h"
#include "graph/GraphLayout.h"
#include "graph/GraphScene.h"
#include "graph/GraphView.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QProgressBar>
#include <QShortcut>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tessel::views {

namespace {
const QString kLayoutJob = QStringLiteral("graph-layout");
}

GraphPanel::GraphPanel(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), scene_(new GraphScene(this)), view_(new GraphView(this)) {
    view_->setScene(scene_);

    toolBar_ = new QToolBar(this);
    toolBar_->setIconSize(QSize(16, 16));
    toolBar_->setToolButtonStyle(Qt::ToolButtonTextOnly);

    stageBox_ = new QComboBox(this);
    stageBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    stageBox_->setToolTip(tr("The graph after which pass"));
    toolBar_->addWidget(stageBox_);
    toolBar_->addSeparator();

    heatBox_ = new QComboBox(this);
    heatBox_->addItem(tr("Colour: time"));
    heatBox_->addItem(tr("Colour: roofline"));
    heatBox_->setToolTip(tr("What a profiled run colours: each function's share of the model's time, or how far it "
                            "stays below its roofline (min of the FMA peak and its arithmetic intensity × the "
                            "measured memory bandwidth): the darker, the further"));
    // Only a profiled run has anything to colour: shown with one (applyProfile).
    heatAction_ = toolBar_->addWidget(heatBox_);
    heatSeparator_ = toolBar_->addSeparator();
    heatAction_->setVisible(false);
    heatSeparator_->setVisible(false);

    searchEdit_ = new QLineEdit(this);
    searchEdit_->setPlaceholderText(tr("Find node or operator"));
    searchEdit_->setClearButtonEnabled(true);
    searchEdit_->setMaximumWidth(220);
    searchEdit_->setMinimumWidth(110); // a squeezed toolbar keeps room to type a name
    toolBar_->addWidget(searchEdit_);
    matchLabel_ = new QLabel(this);
    matchLabel_->setMinimumWidth(48);
    toolBar_->addWidget(matchLabel_);
    toolBar_->addSeparator();

    QAction* fit = toolBar_->addAction(tr("Fit"), this, &GraphPanel::fitToView);
    fit->setToolTip(tr("Show the whole graph (0)"));
    QAction* in = toolBar_->addAction(tr("Zoom In"), this, &GraphPanel::zoomIn);
    in->setToolTip(tr("Zoom in (+)"));
    QAction* out = toolBar_->addAction(tr("Zoom Out"), this, &GraphPanel::zoomOut);
    out->setToolTip(tr("Zoom out (-)"));

    auto* exportMenu = new QMenu(this);
    exportMenu->addAction(tr("SVG…"), this, [this] { exportWithDialog(QStringLiteral("svg")); });
    exportMenu->addAction(tr("PNG…"), this, [this] { exportWithDialog(QStringLiteral("png")); });
    exportMenu->addAction(tr("DOT…"), this, [this] { exportWithDialog(QStringLiteral("dot")); });
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export"));
    exportButton->setMenu(exportMenu);
    exportButton->setPopupMode(QToolButton::InstantPopup);
    toolBar_->addWidget(exportButton);

    auto* subgraphsMenu = new QMenu(this);
    subgraphsMenu->addAction(tr("Collapse All Subgraphs"), this, [this] { setAllCollapsed(true); });
    subgraphsMenu->addAction(tr("Expand All Subgraphs"), this, [this] { setAllCollapsed(false); });
    auto* subgraphsButton = new QToolButton(this);
    subgraphsButton->setText(tr("Subgraphs"));
    subgraphsButton->setToolTip(tr("Collapse every subgraph (If's branches, a Loop's or Scan's body) to one box, "
                                   "or expand them all; double-click a subgraph's label or box for one"));
    subgraphsButton->setMenu(subgraphsMenu);
    subgraphsButton->setPopupMode(QToolButton::InstantPopup);
    subgraphsAction_ = toolBar_->addWidget(subgraphsButton);
    subgraphsAction_->setVisible(false);

    busy_ = new QProgressBar(this);
    busy_->setRange(0, 0); // indeterminate
    busy_->setMaximumWidth(90);
    busy_->setMaximumHeight(14);
    busy_->setTextVisible(false);
    busy_->setToolTip(tr("Laying out the graph"));
    busy_->hide();
    auto* spacer = new QWidget(this);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolBar_->addWidget(spacer);
    toolBar_->addWidget(busy_);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolBar_);
    layout->addWidget(view_, 1);

    connect(stageBox_, &QComboBox::currentIndexChanged, this, [this](int) {
        fitStageBox();
        relayout();
    });
    connect(heatBox_, &QComboBox::currentIndexChanged, this, [this](int) { applyProfile(); });
    connect(searchEdit_, &QLineEdit::textChanged, this, [this] { updateSearch(true); });
    connect(searchEdit_, &QLineEdit::returnPressed, this, [this] { nextMatch(); });
    auto* find = new QShortcut(QKeySequence::Find, this, [this] {
        searchEdit_->setFocus();
        searchEdit_->selectAll();
    });
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(scene_, &QGraphicsScene::selectionChanged, this, &GraphPanel::onSceneSelection);
    connect(scene_, &GraphScene::clusterActivated, this, [this](int c) {
        if (hasSubgraphs() && c >= 0 && c < int(document()->clusters.size()) &&
            document()->clusters[size_t(c)].kind == GraphDocCluster::Kind::Subgraph)
            setCollapsed(c, !isCollapsed(c));
    });
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view_, &QWidget::customContextMenuRequested, this, &GraphPanel::showContextMenu);

    connect(session_, &Session::modelChanged, this, &GraphPanel::rebuildStages);
    connect(session_, &Session::scriptChanged, this, &GraphPanel::rebuildStages);
    connect(session_, &Session::cleared, this, &GraphPanel::rebuildStages);
    connect(session_, &Session::currentFunctionChanged, this, &GraphPanel::onFunctionChanged);
    connect(session_, &Session::profileChanged, this, &GraphPanel::applyProfile);
    connect(session_->jobs(), &Jobs::finished, this, [this](const QString& key, bool) {
        if (key == kLayoutJob && !session_->jobs()->isRunning(kLayoutJob)) busy_->hide();
    });
    rebuildStages();
}

GraphPanel::~GraphPanel() {
    scene_->disconnect(this); // the scene outlives this part of the panel
    session_->disconnect(this);
    session_->jobs()->disconnect(this);
}

int GraphPanel::currentStage() const {
    return stageBox_->currentIndex();
}

void GraphPanel::setStage(int index) {
    if (index < 0 || index >= int(stages_.size())) return;
    if (index == stageBox_->currentIndex())
        relayout();
    else
        stageBox_->setCurrentIndex(index); // relayout() via currentIndexChanged
}

bool GraphPanel::setStageByPass(const QString& pass) {
    for (size_t i = 0; i < stages_.size(); ++i)
        if (stages_[i].pass == pass) {
            setStage(int(i));
            return true;
        }
    return false;
}

std::shared_ptr<const GraphDocument> GraphPanel::document() const {
    return scene_->document();
}

GraphSelection GraphPanel::selection() const {
    GraphSelection s;
    s.doc = scene_->document();
    s.node = scene_->selectedNode();
    s.cluster = s.node < 0 ? scene_->selectedCluster() : -1;
    return s;
}

void GraphPanel::selectNode(int index) {
    scene_->selectNode(index);
    if (const QRectF r = scene_->boxRect(index); !r.isNull()) view_->reveal(r);
}

void GraphPanel::rebuildStages() {
    QString keep = currentStage() >= 0 && currentStage() < int(stages_.size())
                       ? stages_[size_t(currentStage())].pass
                       : QStringLiteral("fused");
    stages_ = graphStagesOf(session_->model());
    keepNodeId_ = -1;
    // What was collapsed belongs to the model it was collapsed in.
    if (collapsedModel_ != session_->model().get()) {
        collapsed_.clear();
        collapsedModel_ = session_->model().get();
    }
    fitNext_ = true;
    QSignalBlocker block(stageBox_);
    stageBox_->clear();
    int select = int(stages_.size()) - 1;
    for (size_t i = 0; i < stages_.size(); ++i) {
        stageBox_->addItem(stages_[i].title);
        if (stages_[i].pass == keep) select = int(i);
    }
    stageBox_->setEnabled(stages_.size() > 1);
    stageBox_->setCurrentIndex(select);
    fitStageBox();
    relayout();
}

void GraphPanel::fitStageBox() {
    // A toolbar short of room squeezes its widgets to their minimum, and
    // QComboBox keeps the minimum it computed while it was empty (seven x's:
    // "importec"). Its minimum is the stage shown, whole; its size hint (what
    // it gets where there is room) and its list the longest.
    const QFontMetrics fm = stageBox_->fontMetrics();
    int longest = 0;
    for (int i = 0; i < stageBox_->count(); ++i) longest = std::max(longest, fm.horizontalAdvance(stageBox_->itemText(i)));
    const int chrome = std::max(0, stageBox_->sizeHint().width() - longest); // frame, margins, arrow
    stageBox_->setMinimumWidth(chrome + fm.horizontalAdvance(stageBox_->currentText()));
    stageBox_->view()->setMinimumWidth(longest + 2 * stageBox_->view()->frameWidth() + 24); // the item's margins
}

void GraphPanel::relayout() {
    ++generation_;
    int index = currentStage();
    if (index < 0 || index >= int(stages_.size())) {
        pending_ = false;
        session_->jobs()->cancel(kLayoutJob);
        matches_.clear();
        scene_->setGraph(nullptr, {}, {});
        scene_->showMessage(session_->kind() == Session::Kind::Script
                                ? tr("A TE script has no model graph.")
                                : tr("Open a model to see its graph."));
        emit selectionChanged();
        return;
    }
    if (int sel = scene_->selectedNode(); sel >= 0 && scene_->document())
        keepNodeId_ = scene_->document()->nodes[size_t(sel)].id;
    refoldNode_ = refoldCluster_ = selectedInside_ = -1;
    layoutDocument(GraphDocument::build(stages_[size_t(index)], session_->model()));
}

std::vector<int> GraphPanel::collapsedIn(const GraphDocument& doc) const {
    std::vector<int> out;
    for (size_t c = 0; c < doc.clusters.size(); ++c)
        if (doc.clusters[c].kind == GraphDocCluster::Kind::Subgraph && collapsed_.contains(doc.clusters[c].key))
            out.push_back(int(c));
    return out;
}

void GraphPanel::layoutDocument(std::shared_ptr<const GraphDocument> doc, int reveal) {
    ++generation_; // a layout still running is of another fold or stage
    auto fold = std::make_shared<const GraphFold>(GraphFold::of(*doc, collapsedIn(*doc)));
    auto input = std::make_shared<const LayoutInput>(scene_->layoutInput(*doc, *fold));
    quint64 generation = generation_;
    pending_ = true;
    busy_->show();
    session_->jobs()->run<LayoutResult>(
        kLayoutJob, tr("Laying out the graph"),
        [input](const CancelToken&) { return computeLayout(*input); }, this,
        [this, generation, doc, input, fold, reveal](LayoutResult result) {
            if (generation != generation_) return; // the user switched stage meanwhile
            applyLayout(doc, *input, std::move(result), *fold, reveal);
        },
        [this, generation](const QString& message) {
            if (generation != generation_) return;
            pending_ = false;
            scene_->setGraph(nullptr, {}, {});
            scene_->showMessage(tr("The graph could not be laid out."));
            session_->report(tr("Graph layout failed: %1").arg(message), true);
        });
}

void GraphPanel::applyLayout(std::shared_ptr<const GraphDocument> doc, LayoutInput input,
                             LayoutResult layout, GraphFold fold, int reveal) {
    pending_ = false;
    const bool refold = doc == scene_->document(); // the same graph, other subgraphs collapsed
    const bool wasFitted = view_->isFitted();
    {
        QSignalBlocker block(scene_); // the old selection goes away silently
        scene_->setGraph(doc, std::move(input), std::move(layout), std::move(fold));
    }
    // The blocker kept sceneRectChanged from the view too: its scroll range
    // and alignment would stay those of the drawing before.
    view_->updateSceneRect(scene_->sceneRect());
    if (doc->nodes.empty()) scene_->showMessage(tr("The graph is empty."));
    subgraphsAction_->setVisible(hasSubgraphs());
    applyProfile();
    QRectF focus = scene_->highlightFunction(session_->currentFunction());
    updateSearch(false);
    int keep = keepNodeId_ >= 0 ? doc->indexOfNode(keepNodeId_) : -1;
    int keepCluster = -1;
    if (refold) {
        // Boxes of subgraphs have no graph node id: the same document's indices.
        keep = refoldNode_;
        keepCluster = keep < 0 ? refoldCluster_ : -1;
        // A box now inside a collapsed subgraph: that subgraph's box.
        if (keep >= 0 && !scene_->nodeItem(keep)) {
            keepCluster = scene_->fold().hiddenIn[size_t(keep)];
            selectedInside_ = keep; // selected again when that box is expanded
            keep = -1;
        }
        // A cluster now inside a collapsed one: the collapsed one's box.
        while (keepCluster >= 0 && !scene_->clusterItem(keepCluster) && !scene_->summaryItem(keepCluster))
            keepCluster = doc->clusters[size_t(keepCluster)].parent;
    }
    const bool fresh = fitNext_;
    if (fitNext_ || (refold && wasFitted)) {
        view_->fitReadable();
        fitNext_ = false;
    }
    QRectF show;
    if (reveal >= 0) {
        if (auto* c = scene_->clusterItem(reveal)) show = c->rect();
        if (auto* b = scene_->summaryItem(reveal)) show = b->rect();
    }
    restoringSelection_ = true; // the same node again: not a new choice of function
    if (keep >= 0)
        scene_->selectNode(keep);
    else if (keepCluster >= 0)
        scene_->selectCluster(keepCluster);
    restoringSelection_ = false;
    if (refold && wasFitted) {
        // Fitted again: nothing to move to.
    } else if (!show.isNull()) {
        view_->reveal(show);
    } else if (keep >= 0) {
        view_->reveal(scene_->nodeItem(keep)->rect());
    } else if (!focus.isNull()) {
        view_->reveal(focus);
    }
    emit selectionChanged();
    emit nodeSelected(keep >= 0 ? doc->nodes[size_t(keep)].id : -1);
    emit layoutFinished();
    if (fresh && drawingIsAll()) emit roomWanted();
}

bool GraphPanel::hasSubgraphs() const {
    const auto doc = scene_->document();
    if (!doc) return false;
    for (const auto& c : doc->clusters)
        if (c.kind == GraphDocCluster::Kind::Subgraph) return true;
    return false;
}

bool GraphPanel::isCollapsed(int cluster) const { return scene_->fold().isCollapsed(cluster); }

void GraphPanel::setCollapsed(int cluster, bool collapsed) {
    const auto doc = scene_->document();
    if (!doc || cluster < 0 || cluster >= int(doc->clusters.size()) ||
        doc->clusters[size_t(cluster)].kind != GraphDocCluster::Kind::Subgraph)
        return;
    const QString key = doc->clusters[size_t(cluster)].key;
    if (collapsed_.contains(key) == collapsed) return;
    if (collapsed)
        collapsed_.insert(key);
    else
        collapsed_.remove(key);
    keepSelectionForRefold();
    layoutDocument(doc, cluster);
}

void GraphPanel::setAllCollapsed(bool collapsed) {
    const auto doc = scene_->document();
    if (!doc || !hasSubgraphs()) return;
    const QSet<QString> before = collapsed_;
    for (const auto& c : doc->clusters)
        if (c.kind == GraphDocCluster::Kind::Subgraph) {
            if (collapsed)
                collapsed_.insert(c.key);
            else
                collapsed_.remove(c.key);
        }
    if (collapsed_ == before) return;
    keepSelectionForRefold();
    layoutDocument(doc);
}

void GraphPanel::keepSelectionForRefold() {
    refoldNode_ = scene_->selectedNode();
    refoldCluster_ = refoldNode_ < 0 ? scene_->selectedCluster() : -1;
    // A collapsed subgraph's box selected in place of a box inside it: that box.
    const GraphFold& fold = scene_->fold();
    if (refoldNode_ < 0 && selectedInside_ >= 0 && selectedInside_ < int(fold.hiddenIn.size()) &&
        fold.hiddenIn[size_t(selectedInside_)] == refoldCluster_ && refoldCluster_ >= 0)
        refoldNode_ = selectedInside_;
}

void GraphPanel::showContextMenu(const QPoint& pos) {
    const auto doc = scene_->document();
    if (!doc || !hasSubgraphs()) return;
    // The subgraph under the cursor: a collapsed one's box, a cluster's
    // label, or the cluster a box is in.
    int cluster = -1;
    const QPointF at = view_->mapToScene(pos);
    for (QGraphicsItem* item : scene_->items(at)) {
        if (item->type() == SubgraphItem::Type) cluster = static_cast<SubgraphItem*>(item)->index();
        if (item->type() == ClusterItem::Type) cluster = static_cast<ClusterItem*>(item)->index();
        if (item->type() == NodeItem::Type) cluster = doc->nodes[size_t(static_cast<NodeItem*>(item)->index())].subgraph;
        if (cluster >= 0) break;
    }
    if (cluster < 0) // inside a cluster's body (which takes no clicks): the innermost around the point
        for (size_t c = 0; c < doc->clusters.size(); ++c)
            if (auto* item = scene_->clusterItem(int(c)); item && item->rect().contains(at)) cluster = int(c);
    QMenu menu(this);
    if (cluster >= 0 && doc->clusters[size_t(cluster)].kind == GraphDocCluster::Kind::Subgraph) {
        const bool collapsed = isCollapsed(cluster);
        const QString name = doc->clusters[size_t(cluster)].name;
        menu.addAction(collapsed ? tr("Expand %1").arg(name) : tr("Collapse %1").arg(name), this,
                       [this, cluster, collapsed] { setCollapsed(cluster, !collapsed); });
        menu.addSeparator();
    }
    menu.addAction(tr("Collapse All Subgraphs"), this, [this] { setAllCollapsed(true); });
    menu.addAction(tr("Expand All Subgraphs"), this, [this] { setAllCollapsed(false); });
    menu.exec(view_->viewport()->mapToGlobal(pos));
}

bool GraphPanel::drawingIsAll() const {
    const auto doc = scene_->document();
    return doc && doc->model && doc->model->functions.empty() && !doc->model->unsupported.empty();
}

QSize GraphPanel::drawingSize() const {
    const QRectF r = scene_->sceneRect();
    if (!scene_->document() || r.isEmpty()) return {};
    const int frame = 2 * view_->frameWidth();
    return QSize(int(std::ceil(r.width())) + frame, int(std::ceil(r.height())) + frame);
}

void GraphPanel::applyProfile() {
    const auto profile = session_->profile();
    heatAction_->setVisible(!profile.isEmpty());
    heatSeparator_->setVisible(!profile.isEmpty());
    auto doc = scene_->document();
    if (!doc) return;
    const double total = session_->profileTotalMs();
    for (int i = 0; i < scene_->clusterItemCount(); ++i) {
        ClusterItem* item = scene_->clusterItem(i);
        if (!item) continue; // a collapsed subgraph (never a fused function)
        auto it = profile.find(doc->clusters[size_t(i)].name);
        if (it == profile.end() || total <= 0) {
            item->setHeat(-1, {});
            item->setToolTip(item->data(kBaseToolTipKey).toString()); // the scene's
            continue;
        }
        const double share = it->ms / total;
        QString label = tr("%1 ms · %2 %").arg(it->ms, 0, 'f', 3).arg(100 * share, 0, 'f', 1);
        if (it->roofline > 0) label += tr(" · %1 % of roofline").arg(100 * it->roofline, 0, 'f', 0);
        item->setHeat(heatOf(*it, share), label);
        item->setToolTip(tooltipOf(doc->clusters[size_t(i)].name, *it, share));
    }
    // A function of one operator has no cluster: its box carries the time.
    for (int i = 0; i < scene_->nodeItemCount(); ++i) {
        NodeItem* item = scene_->nodeItem(i);
        if (!item) continue; // inside a collapsed subgraph
        const GraphDocNode& n = doc->nodes[size_t(i)];
        auto it = n.cluster < 0 && !n.function.isEmpty() ? profile.find(n.function) : profile.end();
        if (it == profile.end() || total <= 0) {
            item->setHeat(-1);
            item->setToolTip(item->data(kBaseToolTipKey).toString());
            continue;
        }
        item->setHeat(heatOf(*it, it->ms / total));
        item->setToolTip(tooltipOf(n.function, *it, it->ms / total));
    }
}

double GraphPanel::heatOf(const KernelTime& k, double share) const {
    if (heat() == Heat::Time) return share;
    // How far below its roofline; a function without a figure stays pale.
    return k.roofline > 0 ? std::clamp(1.0 - k.roofline, 0.0, 1.0) : 0.0;
}

QString GraphPanel::tooltipOf(const QString& function, const KernelTime& k, double share) const {
    QString text = tr("%1\n%2 ms, %3 % of the model's time, %4 GFLOP/s (measured on %5)")
                       .arg(function)
                       .arg(k.ms, 0, 'f', 3)
                       .arg(100 * share, 0, 'f', 1)
                       .arg(k.gflops, 0, 'f', 1)
                       .arg(session_->profileDevice());
    if (k.roofline > 0)
        text += tr("\n%1 % of its roofline (%2-bound)")
                    .arg(100 * k.roofline, 0, 'f', 0)
                    .arg(k.memoryBound ? tr("memory") : tr("compute"));
    return text;
}

void GraphPanel::setHeat(Heat h) { heatBox_->setCurrentIndex(h == Heat::Time ? 0 : 1); }

GraphPanel::Heat GraphPanel::heat() const { return heatBox_->currentIndex() == 1 ? Heat::Roofline : Heat::Time; }

void GraphPanel::onSceneSelection() {
    auto doc = scene_->document();
    GraphSelection sel = selection();
    keepNodeId_ = sel.node >= 0 && doc ? doc->nodes[size_t(sel.node)].id : -1;
    emit selectionChanged();
    emit nodeSelected(keepNodeId_);
    if (!doc || restoringSelection_) return;
    QString function;
    if (sel.node >= 0)
        function = doc->nodes[size_t(sel.node)].function;
    else if (sel.cluster >= 0 && doc->clusters[size_t(sel.cluster)].kind == GraphDocCluster::Kind::Fused)
        function = doc->clusters[size_t(sel.cluster)].name;
    if (function.isEmpty()) return;
    // Only functions that became kernels exist in the other views.
    if (doc->model && !doc->model->functions.empty() &&
        !doc->model->findFunction(function.toStdString()))
        return;
    selectingFunction_ = true;
    session_->selectFunction(function);
    selectingFunction_ = false;
}

void GraphPanel::onFunctionChanged(const QString& name) {
    QRectF area = scene_->highlightFunction(name);
    if (!selectingFunction_ && !area.isNull()) view_->reveal(area);
}

void GraphPanel::updateSearch(bool reveal) {
    auto doc = scene_->document();
    QString text = searchEdit_->text();
    matches_ = doc ? doc->search(text) : std::vector<int>();
    currentMatch_ = matches_.empty() ? -1 : 0;
    scene_->setMatches(matches_, currentMatch_);
    if (text.trimmed().isEmpty())
        matchLabel_->clear();
    else
        matchLabel_->setText(matches_.empty()
                                 ? tr("none")
                                 : tr("%1/%2").arg(currentMatch_ + 1).arg(matches_.size()));
    if (reveal) revealMatch();
}

void GraphPanel::revealMatch() {
    if (currentMatch_ < 0) return;
    // A match inside a collapsed subgraph: its box.
    if (const QRectF r = scene_->boxRect(matches_[size_t(currentMatch_)]); !r.isNull()) view_->reveal(r);
}

int GraphPanel::search(const QString& text) {
    if (searchEdit_->text() == text)
        updateSearch(true);
    else
        searchEdit_->setText(text); // updateSearch via textChanged
    return int(matches_.size());
}

int GraphPanel::nextMatch() {
    if (matches_.empty()) return -1;
    currentMatch_ = (currentMatch_ + 1) % int(matches_.size());
    scene_->setMatches(matches_, currentMatch_);
    matchLabel_->setText(tr("%1/%2").arg(currentMatch_ + 1).arg(matches_.size()));
    revealMatch();
    return matches_[size_t(currentMatch_)];
}

void GraphPanel::zoomIn() {
    view_->zoomIn();
}

void GraphPanel::zoomOut() {
    view_->zoomOut();
}

void GraphPanel::fitToView() {
    view_->fitAll();
}

bool GraphPanel::exportSvg(const QString& path) {
    QString error;
    if (writeGraphSvg(*scene_, path, &error)) return true;
    session_->report(error, true);
    return false;
}

bool GraphPanel::exportPng(const QString& path) {
    QString error;
    if (writeGraphPng(*scene_, path, &error)) return true;
    session_->report(error, true);
    return false;
}

bool GraphPanel::exportDot(const QString& path) {
    QString error;
    if (writeGraphDot(*scene_, path, &error)) return true;
    session_->report(error, true);
    return false;
}

void GraphPanel::exportWithDialog(const QString& format) {
    auto doc = scene_->document();
    QString base = QFileInfo(session_->sourcePath()).completeBaseName();
    if (base.isEmpty()) base = QStringLiteral("graph");
    if (doc) base += QLatin1Char('-') + doc->stage.pass;
    QString filter = format == QLatin1String("svg")   ? tr("SVG images (*.svg)")
                     : format == QLatin1String("png") ? tr("PNG images (*.png)")
                                                      : tr("Graphviz files (*.dot *.gv)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export Graph"),
                                                base + QLatin1Char('.') + format, filter);
    if (path.isEmpty()) return;
    bool ok = format == QLatin1String("svg")   ? exportSvg(path)
              : format == QLatin1String("png") ? exportPng(path)
                                               : exportDot(path);
    if (ok) session_->report(tr("Graph exported to %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace tessel::views
