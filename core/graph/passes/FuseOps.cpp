// fuse-ops: operator fusion with TVM's rules (relay/transforms/fuse_ops.cc).
//
// Why fuse? Every operator that runs as its own kernel writes its whole
// output tensor to memory, and the next kernel reads it back. For cheap
// operators (a Relu, an Add of a bias) that memory traffic costs far more than
// the arithmetic. If the Relu is computed inside the convolution's kernel,
// right where each output element is produced, the intermediate tensor never
// exists. Fusion decides which operators share one kernel ("fused function").
//
// What may fuse is decided by each operator's pattern (OpRegistry.h, ordered
// from "fuses most" to "fuses least"):
//
//   element-wise   Relu, Exp, Cast: out[i] = f(in[i]).
//   broadcast      Add, Mul: element-wise after numpy broadcasting.
//   injective      Reshape, Transpose, Concat: each output element reads input
//                  elements at some index map; no reduction.
//   reduction      ReduceMean, ReduceMax: combines many elements into one.
//   out-element-wise-fusable
//                  Conv, Gemm, MatMul, pooling: complex loops whose *output*
//                  can be post-processed element by element in registers.
//   opaque         Softmax, BatchNormalization, unknown ops: fuse with nothing.
//
// The rules, walking the operators in topological order and letting each node
// N join the group of one of its producers P:
//
//   1. An out-element-wise-fusable operator (Conv ...) always starts a group,
//      and takes the element-wise and broadcast operators after it, in chains:
//      Conv -> Mul -> Add -> Relu is one function. A broadcast Add whose other
//      input comes from outside the group (a ResNet residual add) still fuses:
//      that input simply becomes a parameter of the fused function. Nothing
//      else follows it: an injective or reduction operator after a Conv group
//      starts its own group.
//   2. Injective operators fuse with each other and with element-wise ones,
//      before or after them: Reshape -> Transpose -> Relu is one function.
//   3. Element-wise operators fuse with each other, and into a following
//      injective operator or reduction, as its inputs: Mul -> ReduceMean
//      computes the product while it sums and never stores it.
//   4. A reduction starts no fusion forward except for element-wise
//      operators: ReduceMean -> Sqrt fuses, ReduceMean -> Reshape does not.
//   5. Opaque operators are always alone.
//   6. Graph inputs and constants are never members: a fused function takes
//      them as parameters.
//   7. A group holds at most maxDepth operators (default 256).
//
// Diamonds (TVM's post-dominator rule). The walk above fuses P and N only
// along a single-consumer edge: P's outputs are read by N alone and are not
// graph outputs. So a value with two readers ends its group in that walk;
// each group is then a tree with exactly one exit node, whose value leaves
// the group. A second step then does what TVM does with the post-dominator
// tree: when a group's exit E has several readers and E's immediate
// post-dominator D (the first node every path from E to the graph's outputs
// passes) is reached from E only through operators that may follow the
// group (element-wise ones after a Conv or a reduction; element-wise and
// injective ones after an injective or element-wise group), the groups of
// every node on those paths, D's included, merge into E's group. SiLU,
// Mul(Conv(x), Sigmoid(Conv(x))), is the common case: without the step the
// Sigmoid and the Mul are a kernel of their own that reads the convolution's
// output twice from memory. Every path that leaves E meets D inside the
// merged group and D's group has one exit, so the merged group still has one
// exit, and ordering the groups by their exit node stays a valid execution
// order with no cycle between groups. A value of E that is a graph output
// keeps its group apart (the value must be stored).
//
// When N could join several producers' groups (Add(Relu(a), Conv(b)), both
// single-consumer), it joins the one with the largest pattern (the Conv
// group), and an element-wise group (or an injective group, when the result
// stays injective) on its other inputs is merged in too, as TVM would.
//
// Each group has a master (the anchor a schedule is built around): the
// out-element-wise-fusable operator, else the first member with the largest
// pattern (a reduction, then an injective operator). Its name lists the
// members' operators in order, lower-case: fused_conv_mul_add_relu; a name
// used before gets _1, _2, ... appended.

#include "graph/passes/FuseOps.h"

#include "ir/Diagnostic.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tessel::graph {

namespace {

OpPattern patternOf(const OpRegistry& ops, const Node& n) {
    const OpInfo* info = ops.find(n.op);
    return info ? info->pattern : OpPattern::Opaque;
}

/// "element-wise", used as "Relu is element-wise".
std::string patternPhrase(OpPattern p) {
    switch (p) {
    case OpPattern::ElementWise:
        return "element-wise";
    case OpPattern::Broadcast:
        return "broadcast";
    case OpPattern::Injective:
        return "injective";
    case OpPattern::CommReduce:
        return "a reduction";
    case OpPattern::OutEWiseFusable:
        return "out-element-wise-fusable";
    case OpPattern::Opaque:
        return "opaque";
    }
    return "opaque";
}

/// "reduction", used in parentheses: "follows ReduceMean (reduction)".
std::string patternShort(OpPattern p) {
    return p == OpPattern::CommReduce ? "reduction" : patternPhrase(p);
}

bool isElementWise(OpPattern p) {
    return p <= OpPattern::Broadcast;
}

/// The immediate post-dominator of every operator node in the DAG of
/// `nodes` (topological order), with a virtual sink after the graph outputs
/// and after nodes nobody reads: null where it is the sink.
std::unordered_map<const Node*, const Node*> postDominators(
    const std::vector<Ref<Node>>& nodes,
    const std::unordered_map<const Node*, std::vector<const Node*>>& consumers,
    const std::unordered_set<const Node*>& isOutput) {
    std::unordered_map<const Node*, const Node*> ipdom;
    std::unordered_map<const Node*, int> depth; // in the post-dominator tree; the sink is 0
    auto lca = [&](const Node* a, const Node* b) -> const Node* {
        while (a && b && a != b) {
            if (depth[a] >= depth[b]) a = ipdom[a];
            else b = ipdom[b];
        }
        return a == b ? a : nullptr;
    };
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        const Node* n = it->get();
        const Node* d = nullptr;
        bool toSink = isOutput.count(n) > 0;
        auto c = consumers.find(n);
        if (c == consumers.end() || c->second.empty()) toSink = true;
        if (!toSink) {
            d = c->second.front();
            for (size_t i = 1; i < c->second.size() && d; ++i)
                d = lca(d, c->second[i]);
        }
        ipdom[n] = toSink ? nullptr : d;
        depth[n] = (toSink || !d) ? 1 : depth[d] + 1;
    }
    return ipdom;
}

/// Whether node pattern `np` may follow a group of pattern `gp`; on refusal,
/// `why` says why (after "N is <np> and ").
bool allowed(OpPattern gp, OpPattern np, const FuseOpsOptions& o, std::string& why) {
    if (gp == OpPattern::Opaque) {
        why = "its producer is opaque";
        return false;
    }
    switch (gp) {
    case OpPattern::OutEWiseFusable:
        if (!isElementWise(np)) {
            why = "an out-element-wise-fusable group takes only element-wise and broadcast "
                  "operators";
            return false;
        }
        if (!o.fuseOutElementWise) {
            why = "fusing after out-element-wise-fusable operators is turned off";
            return false;
        }
        return true;
    case OpPattern::CommReduce:
        if (!isElementWise(np)) {
            why = "only element-wise operators fuse after a reduction";
            return false;
        }
        if (!o.fuseReduce) {
            why = "fusing with reductions is turned off";
            return false;
        }
        return true;
    case OpPattern::Injective:
        if (np > OpPattern::Injective) {
            why = "only injective and element-wise operators fuse after an injective one";
            return false;
        }
        if (!o.fuseInjective) {
            why = "fusing injective operators is turned off";
            return false;
        }
        return true;
    default: // an element-wise or broadcast group
        if (isElementWise(np)) {
            if (!o.fuseElementWise) why = "fusing element-wise operators is turned off";
            return o.fuseElementWise;
        }
        if (np == OpPattern::Injective) {
            if (!o.fuseInjective) why = "fusing injective operators is turned off";
            return o.fuseInjective;
        }
        if (np == OpPattern::CommReduce) {
            if (!o.fuseReduce) why = "fusing with reductions is turned off";
            return o.fuseReduce;
        }
        why = "it does not fuse after element-wise operators";
        return false;
    }
}

struct Work {
    std::vector<const Node*> members;
    OpPattern pattern = OpPattern::ElementWise;
    bool alive = true;
};

/// What the diamond step reads of the walk: the operators in topological
/// order, their positions and readers, the graph outputs, and how each node
/// joined its group in the walk.
struct FusionWalk {
    const std::vector<Ref<Node>>& nodes;
    std::unordered_map<const Node*, size_t>& pos;
    std::unordered_map<const Node*, std::vector<const Node*>>& consumers;
    const std::unordered_set<const Node*>& isOutput;
    const std::unordered_map<const Node*, const Node*>& joinedVia;
};

/// The diamond step (see the comment at the top): merges into a group the
/// groups between its exit and the exit's immediate post-dominator, until
/// nothing changes. `viaDiamond` records, for each node merged so that has
/// no producer it followed, the exit and post-dominator that merged it.
void mergeDiamonds(const FusionWalk& walk, const FuseOpsOptions& options, std::vector<Work>& work,
                   std::unordered_map<const Node*, size_t>& groupOf,
                   std::unordered_map<const Node*, std::pair<const Node*, const Node*>>& viaDiamond) {
    const auto& nodes = walk.nodes;
    auto& pos = walk.pos;
    auto& consumers = walk.consumers;
    const auto& isOutput = walk.isOutput;
    const auto& joinedVia = walk.joinedVia;
    const auto ipdom = postDominators(nodes, consumers, isOutput);
    auto exitOf = [&](const Work& w) {
        const Node* e = w.members.front();
        for (const Node* m : w.members)
            if (pos[m] > pos[e]) e = m;
        return e;
    };
    bool changed = true;
    while (changed) {
        changed = false;
        for (size_t gi = 0; gi < work.size(); ++gi) {
            Work& w = work[gi];
            if (!w.alive || w.pattern == OpPattern::Opaque) continue;
            const Node* e = exitOf(w);
            const Node* d = ipdom.at(e);
            if (!d || isOutput.count(e) || consumers[e].size() < 2) continue;
            // The nodes on a path from e to d: reached from e (up to d), and
            // reaching d. As d post-dominates e, every node reached from e up
            // to d reaches d, so once more are reached than a merge may take
            // (each merges with its whole group) the search stops: walking
            // every position between e and d for every group made a long
            // chain of steps (an unrolled recurrent layer) quadratic.
            const size_t maxDepth = static_cast<size_t>(options.maxDepth);
            const size_t room = maxDepth - std::min(w.members.size(), maxDepth);
            std::vector<const Node*> reached{e};
            std::unordered_set<const Node*> fromE{e};
            for (size_t k = 0; k < reached.size() && fromE.size() <= room + 1; ++k)
                for (const Node* c : consumers[reached[k]])
                    if (pos[c] <= pos[d] && fromE.insert(c).second) reached.push_back(c);
            if (fromE.size() > room + 1) continue;
            std::sort(reached.begin(), reached.end(),
                      [&](const Node* a, const Node* b) { return pos[a] > pos[b]; });
            std::unordered_set<const Node*> toD{d}, region;
            for (const Node* n : reached) {
                for (const Node* c : consumers[n])
                    if (toD.count(c)) {
                        toD.insert(n);
                        break;
                    }
                if (n != e && toD.count(n)) region.insert(n);
            }
            // Every group on the paths merges whole: each member must fit after w.
            std::set<size_t> groups;
            for (const Node* n : region)
                groups.insert(groupOf.at(n));
            size_t size = w.members.size();
            OpPattern merged = w.pattern;
            bool fits = !groups.count(gi);
            for (size_t oi : groups) {
                std::string why;
                const OpPattern limit = w.pattern <= OpPattern::Injective ? OpPattern::Injective
                                                                          : OpPattern::Broadcast;
                fits = fits && work[oi].pattern <= limit &&
                       allowed(w.pattern, work[oi].pattern, options, why);
                size += work[oi].members.size();
                merged = std::max(merged, work[oi].pattern);
            }
            if (!fits || size > static_cast<size_t>(options.maxDepth)) continue;
            for (size_t oi : groups) {
                for (const Node* m : work[oi].members) {
                    w.members.push_back(m);
                    groupOf[m] = gi;
                    if (!joinedVia.count(m)) viaDiamond[m] = {e, d};
                }
                work[oi].members.clear();
                work[oi].alive = false;
            }
            w.pattern = merged;
            changed = true;
        }
    }
}

std::string lower(const std::string& s) {
    std::string r = s;
    for (char& c : r)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return r;
}

} // namespace

const FusionGroup* FusionPlan::groupOfNode(int64_t id) const {
    auto it = groupOf.find(id);
    return it == groupOf.end() ? nullptr : &groups[static_cast<size_t>(it->second)];
}

std::string FusionPlan::reason(int64_t id) const {
    auto it = reasons.find(id);
    return it == reasons.end() ? std::string() : it->second;
}

std::string FusionPlan::str() const {
    std::string s;
    for (const auto& g : groups) {
        s += g.name + " (" + opPatternName(g.pattern) + "):";
        for (int64_t m : g.members)
            s += " %" + std::to_string(m);
        s += ", master %" + std::to_string(g.master) + "\n";
    }
    return s;
}

FusionPlan planFusion(const Graph& g, const FuseOpsOptions& options) {
    if (options.maxDepth < 1)
        throw CompileError("fuse-ops: max-depth must be at least 1, got " +
                           std::to_string(options.maxDepth));
    FusionPlan plan;
    const OpRegistry& ops = opsOrDefault(options.ops);
    const auto& nodes = g.nodes();

    std::unordered_map<const Node*, size_t> pos;
    for (size_t i = 0; i < nodes.size(); ++i)
        pos[nodes[i].get()] = i;
    // Distinct consumers of each node (any output), and whether it is a graph output.
    std::unordered_map<const Node*, std::vector<const Node*>> consumers;
    std::unordered_set<const Node*> isOutput;
    for (const auto& n : nodes)
        for (const auto& in : n->inputs) {
            if (!in.defined()) continue;
            auto& c = consumers[in.producer()];
            if (std::find(c.begin(), c.end(), n.get()) == c.end()) c.push_back(n.get());
        }
    for (const auto& v : g.outputs())
        if (v.defined()) isOutput.insert(v.producer());

    std::vector<Work> work;
    std::unordered_map<const Node*, size_t> groupOf;
    // Nodes merged by the diamond step: the exit E whose group took them and E's post-dominator D.
    std::unordered_map<const Node*, std::pair<const Node*, const Node*>> viaDiamond;
    std::unordered_map<const Node*, const Node*> joinedVia;
    std::unordered_map<const Node*, std::string> whyAlone;

    auto startGroup = [&](const Node* n, OpPattern p) {
        groupOf[n] = work.size();
        work.push_back(Work{{n}, p, true});
    };

    for (const auto& ref : nodes) {
        const Node* n = ref.get();
        const OpPattern np = patternOf(ops, *n);
        if (np == OpPattern::Opaque) {
            whyAlone[n] = "is opaque: starts its own group";
            startGroup(n, np);
            continue;
        }
        if (np == OpPattern::OutEWiseFusable) {
            whyAlone[n] = "is out-element-wise-fusable: starts a group (nothing fuses into its "
                          "inputs)";
            startGroup(n, np);
            continue;
        }
        struct Candidate {
            const Node* producer;
            size_t group;
        };
        std::vector<Candidate> candidates;
        std::string blocked;
        std::set<const Node*> seen;
        for (const auto& in : n->inputs) {
            if (!in.defined() || in.isInput() || in.isConstant()) continue;
            const Node* p = in.producer();
            if (!seen.insert(p).second || !groupOf.count(p)) continue;
            std::string why;
            const size_t gi = groupOf[p];
            const auto& c = consumers[p];
            if (c.size() > 1)
                why = "its input from " + p->op + " has " + std::to_string(c.size()) +
                      " consumers, which do not meet again through operators that may follow it";
            else if (isOutput.count(p))
                why = "its input from " + p->op + " is also a graph output";
            else if (!allowed(work[gi].pattern, np, options, why))
                why += " (" + p->op + "'s group is " + patternShort(work[gi].pattern) + ")";
            else if (work[gi].members.size() + 1 > static_cast<size_t>(options.maxDepth))
                why = "the group of " + p->op + " is full (max-depth " +
                      std::to_string(options.maxDepth) + ")";
            if (why.empty())
                candidates.push_back({p, gi});
            else if (blocked.empty())
                blocked = why;
        }
        if (candidates.empty()) {
            whyAlone[n] = "is " + patternPhrase(np) +
                          (blocked.empty() ? std::string(" and has no operator inputs: starts a group")
                                           : " and starts a group: " + blocked);
            startGroup(n, np);
            continue;
        }
        std::stable_sort(candidates.begin(), candidates.end(),
                         [&](const Candidate& a, const Candidate& b) {
                             return work[a.group].pattern > work[b.group].pattern;
                         });
        const size_t gi = candidates[0].group;
        work[gi].members.push_back(n);
        work[gi].pattern = std::max(work[gi].pattern, np);
        groupOf[n] = gi;
        joinedVia[n] = candidates[0].producer;
        for (size_t k = 1; k < candidates.size(); ++k) {
            const size_t oi = candidates[k].group;
            if (oi == gi || !work[oi].alive) continue;
            Work& into = work[gi];
            Work& other = work[oi];
            const bool fits =
                (isElementWise(other.pattern) && options.fuseElementWise) ||
                (other.pattern == OpPattern::Injective && into.pattern <= OpPattern::Injective &&
                 options.fuseInjective);
            if (!fits || into.members.size() + other.members.size() >
                             static_cast<size_t>(options.maxDepth))
                continue;
            for (const Node* m : other.members) {
                into.members.push_back(m);
                groupOf[m] = gi;
            }
            into.pattern = std::max(into.pattern, other.pattern);
            other.members.clear();
            other.alive = false;
        }
    }

    // Diamonds: merge the groups between a group's exit and its immediate
    // post-dominator (see the comment at the top).
    if (options.fuseDiamonds)
        mergeDiamonds({nodes, pos, consumers, isOutput, joinedVia}, options, work, groupOf, viaDiamond);

    // Final groups, ordered by their exit (last) member: a topological order of groups.
    std::vector<size_t> order;
    for (size_t i = 0; i < work.size(); ++i) {
        if (!work[i].alive) continue;
        std::sort(work[i].members.begin(), work[i].members.end(),
                  [&](const Node* a, const Node* b) { return pos[a] < pos[b]; });
        order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return pos[work[a].members.back()] < pos[work[b].members.back()];
    });

    std::set<std::string> usedNames;
    std::map<std::string, int> nameCount;
    std::unordered_map<size_t, int> finalIndex;
    for (size_t i : order) {
        const Work& w = work[i];
        FusionGroup fg;
        fg.index = static_cast<int>(plan.groups.size());
        fg.pattern = w.pattern;
        std::string base = "fused";
        for (const Node* m : w.members) {
            fg.members.push_back(m->id);
            base += '_';
            base += lower(m->op.empty() ? std::string("op") : m->op);
        }
        if (base.size() > 80) { // keep symbol names readable; dedup keeps them unique
            base.resize(80);
            base = base.substr(0, base.rfind('_'));
        }
        std::string name = base;
        while (usedNames.count(name))
            name = base + "_" + std::to_string(++nameCount[base]);
        usedNames.insert(name);
        fg.name = name;
        // Master: the first member with the largest pattern.
        const Node* master = w.members.front();
        for (const Node* m : w.members)
            if (patternOf(ops, *m) > patternOf(ops, *master)) master = m;
        fg.master = master->id;
        finalIndex[i] = fg.index;
        plan.groups.push_back(std::move(fg));
    }

    for (const auto& ref : nodes) {
        const Node* n = ref.get();
        const int gi = finalIndex[groupOf[n]];
        plan.groupOf[n->id] = gi;
        const FusionGroup& fg = plan.groups[static_cast<size_t>(gi)];
        const OpPattern np = patternOf(ops, *n);
        std::string r;
        if (fg.members.size() == 1) {
            r = n->op + " " + whyAlone[n];
            if (np != OpPattern::Opaque) r += "; it is alone in group " + fg.name;
        } else if (n->id == fg.master) {
            r = n->op + " is " + patternPhrase(np) + ": master of group " + fg.name;
            if (fg.members.front() != n->id)
                r += " (the element-wise operators before it fuse into it as its inputs)";
        } else if (auto dm = viaDiamond.find(n); dm != viaDiamond.end()) {
            const auto [e, d] = dm->second;
            r = n->op + " is " + patternPhrase(np) + " and fuses into group " + fg.name + ": " +
                e->op + "'s value has " + std::to_string(consumers[e].size()) + " readers, and every path from it leads to " +
                d->op + " through operators that may follow " + e->op;
        } else if (auto it = joinedVia.find(n); it != joinedVia.end()) {
            const Node* p = it->second;
            r = n->op + " is " + patternPhrase(np) + " and follows " + p->op + " (" +
                patternShort(patternOf(ops, *p)) + ") in group " + fg.name;
        } else {
            const Node* c = consumers[n].empty() ? nullptr : consumers[n].front();
            r = n->op + " is " + patternPhrase(np) + " and fuses into " +
                (c ? c->op + " (" + patternShort(patternOf(ops, *c)) + ")" : std::string("its consumer")) +
                " as its input in group " + fg.name;
        }
        plan.reasons[n->id] = r;
    }
    for (const auto& in : g.inputs())
        plan.reasons[in->id] =
            in->name + " is a graph input: never a member of a group; fused functions take it "
                       "as a parameter";
    for (const auto& c : g.constants())
        plan.reasons[c->id] =
            c->name + " is a constant: never a member of a group; fused functions take it as a "
                      "parameter";
    return plan;
}

Graph fuseOps(const Graph& g, const FuseOpsOptions& options) {
    const FusionPlan plan = planFusion(g, options);
    std::unordered_map<int64_t, Ref<Node>> byId;
    for (const auto& n : g.nodes())
        byId[n->id] = n;
    return g.rebuild([&](const Node& node, std::vector<Value> newInputs) -> Ref<Node> {
        Attributes attrs = node.attrs;
        attrs.erase("fuse.group");
        attrs.erase("fuse.function");
        if (const FusionGroup* fg = plan.groupOfNode(node.id);
            fg && (fg->members.size() > 1 || options.annotateSingletons)) {
            attrs.set("fuse.group", static_cast<int64_t>(fg->index));
            attrs.set("fuse.function", fg->name);
        }
        if (attrs == node.attrs) return byId.at(node.id);
        return Node::makeOp(node.id, node.op, std::move(newInputs), std::move(attrs),
                            node.numOutputs(), node.name, node.outputTypes, node.outputNames);
    });
}

} // namespace tessel::graph
