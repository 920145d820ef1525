/// \file
/// Models with control flow (ONNX If, Loop, Scan) or with data-dependent
/// output shapes (NonZero, Compress, Unique, NonMaxSuppression): a small
/// VM-style executor on the host around compiled static regions, after TVM's
/// Relay VM in its smallest form.
///
/// A graph that keeps a control-flow node after inline-constant-if, or a
/// data-dependent operator, is cut, in topological order, into *steps*:
/// maximal runs of ordinary nodes (segments) and the host-run nodes between
/// them. Each segment becomes
/// a graph of its own (its inputs: the values it reads from earlier steps or
/// the graph's inputs; its outputs: what later steps or the graph's outputs
/// read) and is compiled by compileGraph like any model; each subgraph
/// (a branch, a body) becomes a program of its own, built once when the
/// model is compiled. Running walks the steps on the host: a segment runs its
/// compiled model in this process, an If reads its condition and runs the
/// branch taken, a Loop runs its body with (iteration, condition, carried
/// values) while the trip count and the condition allow and stacks its scan
/// outputs along a new first axis, a Scan slices its scan inputs per
/// iteration (axes and directions per input) and stacks its outputs, and a
/// data-dependent operator runs its host kernel (driver/HostOps.h), whose
/// outputs are allocated once their size is known.
///
/// Design choices, kept simple:
/// - Shapes. A segment is compiled for the static types of its inputs when
///   the model is compiled; where those are not known then (after a Loop,
///   whose iteration count is data, or after NonZero), it is compiled on first run for the
///   shapes it gets, and kept per shape: a body whose carried values keep
///   their shapes is compiled once, not once per iteration. Outputs whose
///   shapes depend on data are allocated after the step that makes them ran.
/// - A segment that cannot compile because a shape-carrying input (a
///   Slice's starts, a Reshape's shape) is data there (a Loop's iteration
///   number) is compiled per value of its small integer inputs, which are
///   frozen to constants (graph::freezeInputs), and kept per value (at most
///   kMaxSpecialisations per segment).
/// - Where it runs: the steps run in this process. A model with control flow
///   has no export yet (exportModel refuses it with a message), so runModel
///   runs it here also when asked for this machine's local tessel-rpc server
///   (the same machine), and refuses a remote device with a message.
/// - Tensors only: sequences and optionals stay unsupported (the importer
///   marks them). Not thread-safe for concurrent runs of one program (a lock
///   serialises them).
#pragma once

#include "driver/ModelCompiler.h"
#include "runtime/NDArray.h"

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace tessel::driver {

/// True when `g` has, at its top level, a node the host executor runs: a
/// control-flow node (If, Loop, Scan) or an operator whose output shape is
/// data (NonZero, Compress, Unique, NonMaxSuppression: driver/HostOps.h).
bool hasHostSteps(const graph::Graph& g);
/// What of that `g` has, for messages: "control flow (If, Loop) and
/// data-dependent output shapes (NonZero)".
std::string hostStepsText(const graph::Graph& g);

/// True when a compile error says that an input carrying a shape or a count
/// (Slice's starts, TopK's K, Reshape's shape) is data where a constant is needed.
bool isShapeCarryingError(const std::string& message);

/// compileModel, and where that fails because an input carrying a shape or a
/// count is given at run time (isShapeCarryingError) while the model has small
/// integer inputs: a host program of one segment, compiled when it runs for
/// each value of those inputs (frozen to constants, as the segments after a
/// Loop are; at most ControlFlowProgram::kMaxSpecialisations values), in this
/// process. `tesselc run` compiles with it; an input that carries a shape but
/// is not an integer (Resize's scales) still fails, when the model runs.
CompiledModel compileModelForRun(const std::string& path, const frontend::ImportOptions& import,
                                 const CompileOptions& options = {});

class ControlFlowProgram {
public:
    /// A segment keeps at most this many value-specialised compiles.
    static constexpr size_t kMaxSpecialisations = 256;

    /// The program of `g` (typed; its control-flow nodes remain): segments
    /// with static input types are compiled now. Throws CompileError for what
    /// a segment cannot compile.
    static std::shared_ptr<ControlFlowProgram> build(const graph::Graph& g,
                                                     const CompileOptions& options);
    ~ControlFlowProgram();

    /// Runs the program on host `inputs` (the graph's inputs, in order):
    /// its outputs, host tensors in the graph's output order. Throws
    /// CompileError for what fails at run time (a segment that does not
    /// compile for the shapes it gets, an If's branches that disagree).
    std::vector<runtime::NDArray> run(const std::vector<runtime::NDArray>& inputs) const;

    /// Compiles made so far, this program's and its subgraphs' (the tests
    /// check that a loop body is compiled once).
    int compiles() const;
    /// "segment 0 (3 nodes) -> If 'if1' [then_branch: 1 step, else_branch: 1 step] -> ...".
    std::string describe() const;
    /// The fused functions of the segments compiled so far, this program's
    /// and its subgraphs', in step order: a subgraph's named by its path
    /// ("outer/body/inner/then_branch/fused_add": each control-flow node's
    /// name, or its operator, and the subgraph attribute), with
    /// FusedFunction::region set; names made unique with "_2", "_3" where two
    /// segments of one graph fused functions of the same name. With
    /// CompileOptions::trace at build, the segments compiled then carry their
    /// trace (TE script, TIR snapshots) for the IDE's code view.
    std::vector<FusedFunction> functions() const;

    struct Segment;
    struct Step;

private:
    ControlFlowProgram() = default;
    std::vector<runtime::NDArray> runLocked(const std::vector<runtime::NDArray>& inputs) const;
    void collectFunctions(const std::vector<std::pair<int64_t, std::string>>& region, const std::string& prefix,
                          std::vector<FusedFunction>& out, std::set<std::string>& used) const;

    graph::Graph graph_ = graph::Graph("main");
    CompileOptions options_;
    std::vector<std::unique_ptr<Step>> steps_;
    mutable std::recursive_mutex mutex_;
};

} // namespace tessel::driver
