/// \file
/// TEDD's three pictures of a schedule (TVM's tvm.contrib.tedd), as plain
/// graphs that a view lays out and draws or that are written as DOT:
///
/// - the **dataflow graph**: every operation (inputs included) and the
///   tensors it reads, producer -> consumer;
/// - the **schedule tree**: the loop nest. A root node, the stages computed
///   at root under it, each stage's leaf loops in order (outermost first,
///   with their annotations), and a stage computed at a loop of another
///   (compute_at) hung under that loop; inlined stages hang under the root,
///   marked "inline";
/// - the **itervar relationship graph**: per stage, its root loops (the
///   operation's axes, then its reduce axes), each split (parent -> outer,
///   inner) and fuse (outer, inner -> fused) as a relation node between
///   them, and which loops are the leaves the stage is finally computed with.
///   Loops show the extents the schedule gives them (the root domains through
///   splits and fuses), except in a stage computed at another's loop, whose
///   bounds only lowering's bound inference knows.
///   A loop bound to GPU blocks or threads (bind) carries its thread tag as
///   its annotation. (TVM's third relation, rebase, is not drawn: Tessel
///   binds leaves in place and never rebases them.)
///
/// Nodes carry the stage and loop they stand for and the script lines that
/// made or changed them (StageSources), so a view can select a script line
/// from a picture.
#pragma once

#include "te/Schedule.h"

#include <string>
#include <vector>

namespace tessel::te {

struct ScheduleGraphNode {
    enum class Kind : uint8_t {
        Root,        ///< the schedule tree's root
        Placeholder, ///< an input tensor (dataflow)
        Stage,       ///< a computed operation
        IterVar,     ///< a loop of a stage
        Split,       ///< a split relation (itervar graph)
        Fuse,        ///< a fuse relation (itervar graph)
    };
    Kind kind = Kind::Stage;
    /// Unique within the graph: "stage:C", "iv:C/x_outer", "split:C/0".
    std::string id;
    /// What the picture writes, one entry a line: "C", "float32[1024, 1024]".
    std::vector<std::string> label;
    /// The operation's name (empty for the root).
    std::string stage;
    /// The loop variable's name for IterVar nodes ("x_outer").
    std::string iterVar;
    /// For IterVar nodes: "parallel", "vectorize", "unroll" or "" (serial);
    /// a reduction loop is `reduce`.
    std::string annotation;
    bool reduce = false;
    /// IterVar nodes: a leaf loop of its stage (itervar graph; in the
    /// schedule tree every loop shown is a leaf).
    bool leaf = false;
    /// IterVar nodes: its index among the stage's leaf loops (outermost 0), or -1.
    int leafIndex = -1;
    /// Index into ScheduleGraph::clusters (the stage it belongs to), or -1.
    int cluster = -1;
    /// Script lines (1-based) that made or changed what the node stands for,
    /// in the order the script recorded them; empty for a schedule built in C++.
    std::vector<int> lines;
};

struct ScheduleGraphEdge {
    int from = 0, to = 0; ///< indices into ScheduleGraph::nodes
    /// "A" (the tensor read), "outer", "inner", "nparts 4", "factor 32" ...
    std::string label;
};

struct ScheduleGraph {
    std::string name; ///< "dataflow", "schedule_tree", "itervar"
    std::vector<ScheduleGraphNode> nodes;
    std::vector<ScheduleGraphEdge> edges;
    /// Cluster labels (the itervar graph groups a stage's loops in one).
    std::vector<std::string> clusters;

    /// The node with `id`, or -1.
    int find(const std::string& id) const;
    /// True when there is an edge from node `from` to node `to` (ids).
    bool hasEdge(const std::string& from, const std::string& to) const;
    /// The DOT text (`dot -Tpng` draws it).
    std::string toDot() const;
};

/// Producer -> consumer over every operation of `s`, edges labelled with the
/// tensor read. Node ids: "stage:<op name>" (inputs too).
ScheduleGraph dataflowGraph(const Schedule& s);
/// Root -> stages at root -> their leaf loops in order; a loop -> the stages
/// computed at it. Node ids: "root", "stage:<op>", "iv:<op>/<var>".
ScheduleGraph scheduleTree(const Schedule& s);
/// Per stage: every loop ever made for it and the split/fuse relations
/// between them. Node ids: "iv:<op>/<var>", "split:<op>/<n>", "fuse:<op>/<n>"
/// (n counts the stage's relations from 0).
ScheduleGraph itervarGraph(const Schedule& s);

} // namespace tessel::te
