#include "graph/NodeProperties.h"

#include "common/Session.h"
#include "driver/ModelCompiler.h"
#include "graph/GraphPanel.h"
#include "graph/GraphPrinter.h"

#include <QHeaderView>
#include <QLabel>
#include <QFileInfo>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <functional>

namespace tessel::views {

namespace {

/// Rows that select a function when clicked carry its name in this role.
constexpr int kFunctionRole = Qt::UserRole + 1;

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString valueName(const graph::Value& v) {
    return v.name().empty() ? qs(graph::valueRef(v)) : qs(v.name());
}

/// Operators of `g` and of its subgraphs, nested ones included, by operator.
void countOperators(const graph::Graph& g, std::map<QString, int>& byOp, int& inSubgraphs, bool nested) {
    for (const auto& n : g.nodes()) {
        ++byOp[n->domain.empty() ? qs(n->op) : qs(n->domain + "." + n->op)];
        inSubgraphs += nested;
        for (const auto& sg : n->subgraphs)
            if (sg.graph) countOperators(*sg.graph, byOp, inSubgraphs, true);
    }
}

/// The subgraphs of `g`'s nodes, nested ones included, as "node / attr" paths
/// with their operator counts.
void listSubgraphs(const graph::Graph& g, const QString& prefix, QList<QPair<QString, int>>& out) {
    for (const auto& n : g.nodes())
        for (const auto& sg : n->subgraphs) {
            if (!sg.graph) continue;
            const QString path = prefix + (n->name.empty() ? qs(n->op) : qs(n->name)) + QStringLiteral(" / ") + qs(sg.attr);
            std::map<QString, int> ops;
            int nested = 0;
            countOperators(*sg.graph, ops, nested, false);
            int count = 0;
            for (const auto& [op, k] : ops) count += k;
            out << qMakePair(path, count);
            listSubgraphs(*sg.graph, path + QStringLiteral(" / "), out);
        }
}

} // namespace

NodeProperties::NodeProperties(Session* session, QWidget* parent)
    : QWidget(parent), session_(session) {
    title_ = new QLabel(this);
    title_->setTextFormat(Qt::PlainText);
    QFont f = title_->font();
    f.setBold(true);
    title_->setFont(f);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setWordWrap(true);
    reason_ = new QLabel(this);
    reason_->setWordWrap(true);
    reason_->setTextFormat(Qt::PlainText);
    reason_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tree_ = new QTreeWidget(this);
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Property"), tr("Value")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    tree_->header()->setStretchLastSection(true);
    tree_->setTextElideMode(Qt::ElideMiddle); // tensor names are long; the tooltip has them whole
    tree_->setUniformRowHeights(true);
    tree_->setRootIsDecorated(true);
    tree_->setAlternatingRowColors(true);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(title_);
    layout->addWidget(reason_);
    layout->addWidget(tree_, 1);

    connect(tree_, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item, int) { onItemClicked(item); });
    connect(session_, &Session::modelChanged, this, &NodeProperties::clear);
    connect(session_, &Session::cleared, this, &NodeProperties::clear);
    connect(session_, &Session::profileChanged, this, [this] { showSelection(GraphSelection(selection_)); });
    clear();
}

void NodeProperties::follow(GraphPanel* panel) {
    if (panelConnection_) disconnect(panelConnection_);
    panel_ = panel;
    if (!panel) return;
    panelConnection_ = connect(panel, &GraphPanel::selectionChanged, this, [this] {
        if (panel_) showSelection(panel_->selection());
    });
    showSelection(panel->selection());
}

void NodeProperties::clear() {
    selection_ = {};
    tree_->clear();
    title_->setText(tr("Nothing selected"));
    reason_->setText(tr("Click a node in the graph to see its properties."));
    if (const auto m = session_->model()) {
        showModel(*m);
        tree_->expandAll();
        tree_->resizeColumnToContents(0);
    }
}

void NodeProperties::showModel(const driver::CompiledModel& m) {
    // With nothing selected, the model as a whole: for a model that cannot be
    // compiled this is most of what there is to know (issue 21: two empty rows).
    const QString name = QFileInfo(session_->sourcePath()).fileName();
    title_->setText(tr("Model  %1").arg(name));
    reason_->setText(m.unsupported.empty()
                         ? tr("The model as a whole. Click a node in the graph to see its properties.")
                         : tr("The model as imported: it cannot be compiled. Click a node in the graph to see its properties."));
    addRow(tr("Model"), name)->setToolTip(1, session_->sourcePath());
    std::map<QString, int> byOp;
    int inSubgraphs = 0;
    countOperators(m.graph, byOp, inSubgraphs, false);
    int total = 0;
    for (const auto& [op, count] : byOp) total += count;
    auto* ops = addRow(tr("Operators"), inSubgraphs ? tr("%1 (%2 in subgraphs)").arg(total).arg(inSubgraphs)
                                                    : QString::number(total));
    std::vector<std::pair<QString, int>> sorted(byOp.begin(), byOp.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [op, count] : sorted) addRow(op, QString::number(count), ops);
    QList<QPair<QString, int>> subgraphs;
    listSubgraphs(m.graph, QString(), subgraphs);
    if (!subgraphs.isEmpty()) {
        auto* subs = addRow(tr("Subgraphs"), QString::number(subgraphs.size()));
        for (const auto& [path, count] : std::as_const(subgraphs))
            addRow(path, tr("%n operator(s)", nullptr, count), subs);
    }
    auto* inputs = addRow(tr("Inputs"), QString::number(m.graph.inputs().size()));
    for (const auto& in : m.graph.inputs())
        addRow(qs(in->name), in->outputTypes.empty() ? QString() : qs(in->outputTypes.front().str()), inputs);
    auto* outputs = addRow(tr("Outputs"), QString::number(m.graph.outputs().size()));
    for (const auto& out : m.graph.outputs()) addRow(valueName(out), qs(out.type().str()), outputs);
    if (m.unsupported.empty()) {
        addRow(tr("Fused functions"), QString::number(m.functions.size()));
        return;
    }
    addRow(tr("Fused functions"), tr("none (the model cannot be compiled)"));
    // What keeps it from compiling and why, in red: each construct where it is.
    const QColor red(0xd0, 0x1f, 0x1f);
    auto* why = addRow(tr("Cannot compile"), tr("%n construct(s)", nullptr, int(m.unsupported.size())));
    why->setForeground(1, red);
    for (const auto& c : m.unsupported) {
        const QString where = c.path.empty() ? qs(c.where) : qs(c.path + " / " + c.where);
        addRow(where, qs(c.reason), why)->setForeground(1, red);
    }
}

void NodeProperties::showSelection(const GraphSelection& selection) {
    if (selection.empty()) {
        clear();
        return;
    }
    selection_ = selection;
    tree_->clear();
    if (selection.node >= 0 && selection.node < int(selection.doc->nodes.size()))
        showNode(*selection.doc, selection.node);
    else if (selection.cluster >= 0 && selection.cluster < int(selection.doc->clusters.size()))
        showCluster(*selection.doc, selection.cluster);
    else
        clear();
    tree_->expandAll();
    // The names column gets what it needs, up to 45% of the width.
    tree_->resizeColumnToContents(0);
    tree_->setColumnWidth(
        0, std::min(tree_->columnWidth(0), std::max(80, tree_->viewport()->width() * 45 / 100)));
}

QTreeWidgetItem* NodeProperties::addRow(const QString& property, const QString& value,
                                        QTreeWidgetItem* parent) {
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
    item->setText(0, property);
    item->setText(1, value);
    item->setToolTip(0, property);
    item->setToolTip(1, value);
    return item;
}

void NodeProperties::showNode(const GraphDocument& doc, int index) {
    const GraphDocNode& n = doc.nodes[size_t(index)];
    const graph::Node* node = n.node;
    QString kind = n.kind == GraphDocNode::Kind::Input    ? tr("Graph input")
                   : n.kind == GraphDocNode::Kind::Output ? tr("Graph output")
                                                          : n.op;
    title_->setText(n.name.isEmpty() ? kind : tr("%1  %2").arg(kind, n.name));
    reason_->setText(doc.fusionReason(index));

    if (n.kind == GraphDocNode::Kind::Op) {
        auto* op = addRow(tr("Operator"), n.op);
        if (const graph::OpInfo* info = graph::findOp(node->op)) op->setToolTip(1, qs(info->doc));
        if (node && !node->domain.empty()) addRow(tr("Domain"), qs(node->domain));
        addRow(tr("Pattern"), GraphDocument::patternText(n.pattern));
    }
    if (!n.unsupported.isEmpty()) {
        // Why this node keeps the model from compiling, in red.
        auto* why = addRow(tr("Cannot compile"), n.unsupported);
        why->setForeground(1, QColor(0xd0, 0x1f, 0x1f));
        why->setToolTip(1, n.unsupported);
    }
    addRow(tr("Name"), n.name);
    if (node) addRow(tr("Id"), QStringLiteral("%%1").arg(node->id));
    if (!n.function.isEmpty()) {
        auto* fn = addRow(tr("Fused function"), n.function);
        fn->setData(1, kFunctionRole, n.function);
        fn->setToolTip(1, tr("Click to select this function in every view"));
        addTimeRows(n.function);
        QFont f = tree_->font();
        f.setUnderline(true);
        fn->setFont(1, f);
        fn->setForeground(1, palette().link());
        if (doc.model)
            if (const auto* grp = doc.model->fusion.groupOfNode(n.id)) {
                const graph::Node* master = doc.model->graph.findNode(grp->master);
                addRow(tr("Group kind"), GraphDocument::patternText(grp->pattern));
                if (master) addRow(tr("Master"), qs(master->describe()));
                addRow(tr("Operators in function"), QString::number(grp->members.size()));
            }
    } else if (n.kind == GraphDocNode::Kind::Op && doc.model && !doc.model->unsupported.empty()) {
        addRow(tr("Fused function"), tr("none (the model cannot be compiled)"));
    } else if (n.kind == GraphDocNode::Kind::Op && doc.model) {
        addRow(tr("Fused function"), tr("none (not in the compiled model)"));
    }
    if (n.kind == GraphDocNode::Kind::Output) {
        addRow(tr("Type"), n.type);
        return;
    }
    if (!node) return;

    if (n.kind == GraphDocNode::Kind::Op) {
        auto* attrs = addRow(tr("Attributes"), QString());
        int count = 0;
        for (const auto& [name, value] : node->attrs.entries()) {
            if (name.rfind("fuse.", 0) == 0) continue; // shown as "Fused function"
            addRow(qs(name), qs(graph::attrValueStr(value)), attrs);
            ++count;
        }
        attrs->setText(1, count ? QString::number(count) : tr("none"));
        if (!node->subgraphs.empty()) {
            auto* subs = addRow(tr("Subgraphs"), QString::number(node->subgraphs.size()));
            for (const auto& sg : node->subgraphs)
                if (sg.graph)
                    addRow(qs(sg.attr), tr("%n operator(s)", nullptr, int(sg.graph->nodes().size())), subs);
        }
        auto* inputs = addRow(tr("Inputs"), QString::number(node->inputs.size()));
        for (size_t i = 0; i < node->inputs.size(); ++i) {
            const graph::Value& v = node->inputs[i];
            if (!v.defined()) {
                addRow(tr("#%1").arg(i), tr("none (optional input left out)"), inputs);
                continue;
            }
            QString from;
            if (v.isConstant())
                from = tr("constant");
            else if (v.isInput())
                from = tr("graph input");
            else
                from = tr("from %1").arg(qs(v.producer()->op));
            addRow(valueName(v), tr("%1  (%2)").arg(qs(v.type().str()), from), inputs);
        }
    }
    auto* outputs = addRow(tr("Outputs"), QString::number(node->numOutputs()));
    for (int i = 0; i < node->numOutputs(); ++i) {
        graph::Value v = node->output(i);
        QStringList readers;
        if (doc.graph)
            for (const graph::Node* user : doc.graph->users(v))
                readers << qs(user->op);
        QString text = qs(node->outputTypes[size_t(i)].str());
        if (!readers.isEmpty()) text += tr("  → %1").arg(readers.join(QStringLiteral(", ")));
        addRow(valueName(v), text, outputs);
    }
}

void NodeProperties::addTimeRows(const QString& function) {
    // Which schedule the function was compiled with: what a tuned-against-
    // untuned comparison is about.
    if (const auto m = session_->model())
        if (const driver::FusedFunction* f = m->findFunction(function.toStdString())) {
            if (!session_->editedSchedule(function).isEmpty())
                addRow(tr("Schedule"), tr("edited in the schedule editor"));
            else if (f->tuned && session_->chosenConfigs().count(f->workload))
                addRow(tr("Schedule"), tr("configuration opened from the Tuning view"));
            else if (f->tuned)
                addRow(tr("Schedule"), tr("tuned (%1)").arg(QFileInfo(session_->recordsPath()).fileName()));
            else if (!f->knobs.empty())
                addRow(tr("Schedule"), tr("default (%n tunable knob(s))", nullptr, int(f->knobs.size())));
            // Which implementation the anchor got, and why that one.
            if (!f->strategy.empty()) {
                auto* row = addRow(tr("Strategy"), qs(f->strategy));
                addRow(tr("Why"), qs(f->strategyReason), row);
                row->setToolTip(1, qs(f->strategyReason));
            }
        }
    const auto profile = session_->profile();
    auto it = profile.find(function);
    if (it == profile.end() || session_->profileTotalMs() <= 0) return;
    addRow(tr("Time"), tr("%1 ms (%2 % of the model, on %3)")
                           .arg(it->ms, 0, 'f', 3)
                           .arg(100 * it->ms / session_->profileTotalMs(), 0, 'f', 1)
                           .arg(session_->profileDevice()));
    if (it->gflops > 0) addRow(tr("Throughput"), tr("%1 GFLOP/s").arg(it->gflops, 0, 'f', 1));
}

void NodeProperties::showCluster(const GraphDocument& doc, int index) {
    const GraphDocCluster& c = doc.clusters[size_t(index)];
    if (c.kind == GraphDocCluster::Kind::Subgraph) {
        const QString owner = c.owner >= 0 ? doc.nodes[size_t(c.owner)].op : QString();
        title_->setText(tr("Subgraph  %1").arg(c.name));
        reason_->setText(tr("Subgraph %1 of %2: compiled on its own and run by the control-flow executor.").arg(c.attr, owner));
        addRow(tr("Attribute"), c.attr);
        if (c.owner >= 0) addRow(tr("Held by"), owner + QStringLiteral("  ") + doc.nodes[size_t(c.owner)].name);
        auto* members = addRow(tr("Boxes"), QString::number(c.members.size()));
        for (int m : c.members) {
            const auto& n = doc.nodes[size_t(m)];
            addRow(n.op, n.name + QStringLiteral("  ") + n.type, members);
        }
        return;
    }
    title_->setText(tr("Fused function  %1").arg(c.name));
    auto* fn = addRow(tr("Fused function"), c.name);
    fn->setData(1, kFunctionRole, c.name);
    addTimeRows(c.name);
    const graph::FusionGroup* grp =
        doc.model && c.group >= 0 && c.group < int(doc.model->fusion.groups.size())
            ? &doc.model->fusion.groups[size_t(c.group)]
            : nullptr;
    if (grp) {
        addRow(tr("Group kind"), GraphDocument::patternText(grp->pattern));
        if (const graph::Node* master = doc.model->graph.findNode(grp->master))
            addRow(tr("Master"), qs(master->describe()));
        reason_->setText(
            tr("%n operators computed in one kernel; the intermediate tensors are never stored.",
               nullptr, int(grp->members.size())));
    } else {
        reason_->clear();
    }
    if (doc.model)
        if (const auto* f = doc.model->findFunction(c.name.toStdString()))
            if (f->flops > 0) addRow(tr("GFLOP per call"), QString::number(f->flops / 1e9, 'g', 4));
    auto* members = addRow(tr("Operators"), QString::number(c.members.size()));
    for (int m : c.members) {
        const auto& n = doc.nodes[size_t(m)];
        addRow(n.op, n.name + QStringLiteral("  ") + n.type, members);
    }
}

void NodeProperties::onItemClicked(QTreeWidgetItem* item) {
    QString function = item->data(1, kFunctionRole).toString();
    if (!function.isEmpty()) session_->selectFunction(function);
}

QString NodeProperties::value(const QString& property) const {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i)
        if (tree_->topLevelItem(i)->text(0) == property) return tree_->topLevelItem(i)->text(1);
    return {};
}

QString NodeProperties::text() const {
    QStringList lines{title_->text(), reason_->text()};
    std::function<void(QTreeWidgetItem*, int)> walk = [&](QTreeWidgetItem* item, int depth) {
        lines << QString(depth * 2, QLatin1Char(' ')) + item->text(0) + QStringLiteral(": ") +
                     item->text(1);
        for (int i = 0; i < item->childCount(); ++i)
            walk(item->child(i), depth + 1);
    };
    for (int i = 0; i < tree_->topLevelItemCount(); ++i)
        walk(tree_->topLevelItem(i), 0);
    return lines.join(QLatin1Char('\n'));
}

} // namespace tessel::views
