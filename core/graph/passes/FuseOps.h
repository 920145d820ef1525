/// \file
/// fuse-ops: groups operators into fused functions with TVM's rules.
///
/// Summary: partition the operator nodes into groups that become one kernel
/// each (a convolution with the element-wise operators after it, a chain of
/// injective operators, a reduction with its element-wise inputs ...).
///
/// Description (for the pass registry): planFusion() walks the operators in
/// topological order and lets every node join the group of one of its
/// producers when the operator patterns allow it (see the comment at the top
/// of FuseOps.cpp for the rules), then merges diamonds as TVM's post-dominator
/// analysis does: the groups between a group's exit, when several operators
/// read it, and its immediate post-dominator join that group when every
/// operator on the paths may follow it (SiLU after a Conv). The plan lists
/// the groups (master node, name such as `fused_conv_add_relu`, member ids in
/// topological order) and, for every node, a sentence saying why it fused or
/// not. The registered pass `fuse-ops` keeps the graph as it is but remakes
/// each operator node of a group of two or more operators with the
/// attributes `fuse.group` (the group's index) and `fuse.function` (its name),
/// so the printer and the IDE show the partition. Node ids are kept.
#pragma once

#include "graph/Graph.h"
#include "graph/OpRegistry.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessel::graph {

struct FuseOpsOptions {
    /// At most this many operators per group (TVM's max_depth); at least 1.
    int maxDepth = 256;
    /// Let an out-element-wise-fusable operator (Conv, Gemm, MatMul, pooling)
    /// take the element-wise and broadcast operators after it.
    bool fuseOutElementWise = true;
    /// Let injective operators (Reshape, Transpose ...) fuse with each other
    /// and with element-wise operators before and after them.
    bool fuseInjective = true;
    /// Let element-wise operators fuse into a following reduction (as its
    /// inputs) and after it.
    bool fuseReduce = true;
    /// Let element-wise and broadcast operators fuse with each other.
    bool fuseElementWise = true;
    /// Merge diamonds: the operators between a value read several times and
    /// its immediate post-dominator join the group that computes the value
    /// (Mul(Conv(x), Sigmoid(Conv(x))) is one function).
    bool fuseDiamonds = true;
    /// The pass `fuse-ops` only: also annotate operators that are alone in
    /// their group (by default they keep their attributes, so a graph with
    /// nothing to fuse is left as it is).
    bool annotateSingletons = false;
    /// The operators to look up (their patterns); null: the default
    /// registry (graph/OpRegistry.h). The driver passes its Context's.
    const OpRegistry* ops = nullptr;
};

/// One fused function.
struct FusionGroup {
    /// Position in FusionPlan::groups. Groups are in a topological order (by
    /// their last member), so running them in index order is valid.
    int index = 0;
    /// `fused_conv_mul_add_relu`: the members' operator names in order,
    /// lower-case; a name already used gets `_1`, `_2` ...
    std::string name;
    /// The anchor: the out-element-wise-fusable operator, or else the first
    /// member with the largest pattern (a reduction, then an injective op).
    int64_t master = -1;
    /// Member node ids in topological order (operator nodes only).
    std::vector<int64_t> members;
    /// The largest pattern among the members (the group's kind).
    OpPattern pattern = OpPattern::ElementWise;
};

/// The partition of a graph's operators into fused functions.
struct FusionPlan {
    std::vector<FusionGroup> groups;
    /// Operator node id to group index (every operator node is in one group).
    std::map<int64_t, int> groupOf;
    /// For every node (operators, inputs and constants): why it fused or not,
    /// one sentence for the IDE.
    std::map<int64_t, std::string> reasons;

    /// The group of operator node `id`, or null (inputs, constants, unknown ids).
    const FusionGroup* groupOfNode(int64_t id) const;
    /// The reason for node `id`, or an empty string.
    std::string reason(int64_t id) const;
    /// One line per group: `fused_conv_relu (out-elementwise-fusable): %2 %3, master %2`.
    std::string str() const;
};

/// Plans the fusion of `g` (which should be in topological order, as built).
FusionPlan planFusion(const Graph& g, const FuseOpsOptions& options = {});

/// `g` with every operator of a group of two or more (of every group with
/// annotateSingletons) remade with attributes `fuse.group` and `fuse.function`;
/// stale `fuse.*` attributes of other nodes are removed. Ids are kept.
Graph fuseOps(const Graph& g, const FuseOpsOptions& options = {});

} // namespace tessel::graph
