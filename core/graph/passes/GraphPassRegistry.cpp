#include "graph/passes/GraphPassRegistry.h"

#include "graph/OpRegistry.h"
#include "graph/passes/AlterLayout.h"
#include "graph/passes/CanonicalizeQdq.h"
#include "graph/passes/CommonSubexpressionElimination.h"
#include "graph/passes/DeadCodeElimination.h"
#include "graph/passes/ExpandQuantized.h"
#include "graph/passes/ExpandRecurrent.h"
#include "graph/passes/FoldConstant.h"
#include "graph/passes/FoldScaleShift.h"
#include "graph/passes/FuseOps.h"
#include "graph/passes/InferShapes.h"
#include "graph/passes/InlineConstantIf.h"
#include "graph/passes/SimplifyInference.h"
#include "ir/Diagnostic.h"

#include <exception>
#include <string>

namespace tessel::graph {

namespace {

std::string boolText(bool b) {
    return b ? "true" : "false";
}

/// Typing and expansion: every value typed, recurrent layers and integer
/// products rewritten into primitive operators, constants folded.
void addTypingPasses(GraphPassRegistry& passes, const OpRegistry* ops) {
    passes.add(GraphPassInfo{
        "infer-shapes",
        "Infer the element type and shape of every value from the inputs and constants.",
        "Walking the operators in topological order, the pass calls each operator's inference "
        "function (ONNX's semantics) with the now-known types of its inputs and records the types "
        "of its outputs. Unknown dimensions, such as a dynamic batch, flow through as unknown "
        "unless an operator fixes them. When a node already carries a type (an importer copies "
        "ONNX value_info), the inferred type must agree with it. Later passes and the lowering "
        "to kernels need these shapes; a shape that does not check is an error naming the node.",
        {
            {"merge-given-types", boolText(InferShapesOptions{}.mergeGivenTypes),
             "check inferred types against types the nodes already carry"},
        },
        [ops](const Graph& g, const GraphPassOptionValues& v) {
            InferShapesOptions o;
            o.ops = ops;
            o.mergeGivenTypes = graphPassOptionBool(v, "merge-given-types", o.mergeGivenTypes);
            return inferShapes(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "expand-recurrent",
        "Unroll RNN, GRU and LSTM over their static sequence length into Gemm, activations, Slice and Concat.",
        "No kernel computes a recurrent layer as a whole; as TVM's ONNX frontend does, the pass "
        "unrolls the recurrence over the sequence, whose length must be static. The input "
        "projection X W^T + Wb (+ Rb) does not depend on the state, so it is one Gemm over all "
        "time steps per direction; each step adds its row of that product to the hidden "
        "projection H R^T (a Gemm with the recurrent weights), slices the gates, applies the "
        "activations (with alpha, beta and clip) and combines them with the previous state, the "
        "peepholes (LSTM) and the reset gate (GRU, before or after the linear map). "
        "sequence_lens masks the steps past each batch entry's length with Where (the state is "
        "held, Y is zero there), and a reverse direction then reads each entry's own steps "
        "backwards (ReverseSequence). Y, Y_h and Y_c are concatenated from the steps' states in "
        "the ONNX layout (batch first with layout 1); an absent initial state is zero, so the "
        "first step drops the terms that read it. Fusion and the dense kernels then compile the "
        "steps; fold-constant prepares the weights once.",
        {},
        [ops](const Graph& g, const GraphPassOptionValues&) {
            ExpandRecurrentOptions o;
            o.ops = ops;
            return expandRecurrent(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "canonicalize-qdq",
        "Rewrite DequantizeLinear -> Conv/MatMul/Gemm [-> Relu] -> QuantizeLinear into QLinearConv or QLinearMatMul, "
        "and pool 8-bit tensors directly.",
        "A model quantized in ONNX Runtime's QDQ format reads each product's activation and constant "
        "weights through DequantizeLinear and quantizes its result with QuantizeLinear, so the product "
        "itself is written in float. As TVM's QNN canonicalisation does, the pass matches Conv, MatMul "
        "and Gemm whose activation is dequantized per tensor, whose weights are a constant 8-bit tensor "
        "dequantized per tensor or per output channel (axis 0 of Conv's weights and of Gemm's with "
        "transB, axis 1 of MatMul's and Gemm's without), whose bias, if any, is an int32 constant "
        "dequantized with the scale x_scale * w_scale (or a float constant, quantized so), and whose "
        "result only a QuantizeLinear reads, possibly through a Relu nothing else reads. The chain "
        "becomes QLinearConv or QLinearMatMul (a Gemm with a bias: MatMulInteger, the int32 bias "
        "added, requantized) on the 8-bit tensors, which expand-quantized then computes in int32. A "
        "Relu folds exactly: with y's scale positive, Q(relu(v)) = max(Q(v), y_zero_point), which "
        "saturation gives when the zero point is the least value of y's type and a Max otherwise. "
        "The result differs from the float chain only by the rounding of the float sums: at most one "
        "step of y per element. Whatever else the pattern meets (a product's result read elsewhere, "
        "weights computed at run time, an axis or a bias scale that does not fit, Gemm's transA or "
        "alpha) stays as it is, and so do QuantizeLinear -> DequantizeLinear pairs between float "
        "operators, which round. DequantizeLinear -> MaxPool -> QuantizeLinear with the same scale, zero "
        "point and type on both sides becomes MaxPool on the 8-bit tensor, exactly: dequantizing is "
        "increasing, so the maximum commutes with it, and a padding smaller than the kernel never wins "
        "(-inf in float, the type's least value in 8 bits).",
        {
            {"fold-relu", boolText(CanonicalizeQdqOptions{}.foldRelu),
             "fold a Relu between the product and its QuantizeLinear"},
        },
        [ops](const Graph& g, const GraphPassOptionValues& v) {
            CanonicalizeQdqOptions o;
            o.ops = ops;
            o.foldRelu = graphPassOptionBool(v, "fold-relu", o.foldRelu);
            return canonicalizeQdq(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "expand-quantized",
        "Compute integer products in int32 as Cast, Sub, MatMul or Conv; requantize the QLinear forms.",
        "An integer product (MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv) multiplies "
        "8-bit operands less their zero points and adds in int32. The pass writes each operand as "
        "Cast to int32 and Sub of its zero point (per tensor, per row of A, per column of B or per "
        "output channel of the weights, reshaped to broadcast), so a constant operand folds once, "
        "and the product as MatMul or Conv on int32 tensors, which the general strategies compute "
        "(the blocked and packed ones take float32 only). Padding after the subtraction is zero, "
        "which is what ONNX's padding with the input's zero point means. QLinearMatMul and "
        "QLinearConv add the int32 bias, scale the sum by x_scale * w_scale / y_scale in float32 "
        "and quantize it with y's zero point (QuantizeLinear: round half to even, saturate to "
        "uint8 or int8); fusion puts those element-wise stages into the product's kernel. With "
        "conv-integer (the CPU pipelines), a ConvInteger that the CPU's blocked integer "
        "convolution takes (2-d, one group, constant 8-bit weights and weight zero point, one "
        "data zero point) stays, and such a QLinearConv becomes that ConvInteger, its bias and "
        "the requantization.",
        {
            {"conv-integer", boolText(ExpandQuantizedOptions{}.keepConvInteger),
             "keep the ConvIntegers the CPU's blocked integer convolution computes"},
        },
        [ops](const Graph& g, const GraphPassOptionValues& v) {
            ExpandQuantizedOptions o;
            o.ops = ops;
            o.keepConvInteger = graphPassOptionBool(v, "conv-integer", o.keepConvInteger);
            return expandQuantized(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "fold-constant",
        "Compute operators whose inputs are constants, and Shape/Size of static shapes, now.",
        "An operator whose inputs are all constants computes the same tensor every time the "
        "model runs, so the pass computes it once, in the tensor's own element type, and puts a "
        "constant in its place. Shape and Size need only their input's type: once the input "
        "shapes are bound, they fold even though their input is computed at run time. This is "
        "what removes the shape sub-graphs exporters write (Shape, Gather, Unsqueeze, Concat "
        "feeding a Reshape): the Reshape is left with a constant target shape and a static "
        "type, and whatever depends on it folds in the same walk. Folded constants keep the "
        "node's id and output name; operators with outputs larger than max-elements stay.",
        {
            {"max-elements", std::to_string(FoldConstantOptions{}.maxElements),
             "fold only operators whose outputs have at most this many elements each"},
            {"fold-shapes", boolText(FoldConstantOptions{}.foldShapes),
             "fold Shape and Size of values whose shape is static"},
        },
        [ops](const Graph& g, const GraphPassOptionValues& v) {
            FoldConstantOptions o;
            o.ops = ops;
            o.maxElements = passOptionInt(v, "max-elements", o.maxElements);
            if (o.maxElements < 0)
                throw CompileError("option max-elements must not be negative, got " +
                                   std::to_string(o.maxElements));
            o.foldShapes = graphPassOptionBool(v, "fold-shapes", o.foldShapes);
            return foldConstant(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "inline-constant-if",
        "Put the taken branch of an If whose condition is a constant in the If's place.",
        "Exported models often carry an If whose condition is known once the input shapes are "
        "bound (a rank or size test, a training flag). After fold-constant makes the condition a "
        "constant, the pass copies the taken branch's constants and nodes into the graph (fresh "
        "node ids; constant names prefixed by the If's name), maps the branch's reads of outer "
        "values to the If's inputs and gives the If's users the branch's outputs. The rest of the "
        "graph then compiles statically; an If whose condition is computed at run time stays for "
        "the host control-flow executor, which runs the compiled branches.",
        {},
        [](const Graph& g, const GraphPassOptionValues&) { return inlineConstantIf(g); },
    });
}

/// Simplification for inference, weights folded, layouts chosen, the graph cleaned.
void addSimplifyingPasses(GraphPassRegistry& passes, const OpRegistry* ops) {
    passes.add(GraphPassInfo{
        "simplify-inference",
        "Turn BatchNormalization into a multiply and an add; remove Dropout and Identity.",
        "At inference, batch normalization uses fixed statistics, so y = (x - mean) / sqrt(var + "
        "epsilon) * scale + B is an affine map per channel: y = x * s + t with s = scale / "
        "sqrt(var + epsilon) and t = B - mean * s. The pass computes s and t once as constants "
        "shaped [C, 1, 1] (for NCHW) that broadcast along the channel axis and replaces the node "
        "by a Mul and an Add. Unlike batch norm, which nothing fuses with, these are simple "
        "broadcast operators that FuseOps can fuse into the convolution before them and that "
        "fold-scale-shift can fold into its weights. Dropout (the identity at inference) and "
        "Identity disappear: their users read the input directly.",
        {
            {"batch-norm", boolText(SimplifyInferenceOptions{}.batchNorm),
             "rewrite inference-mode BatchNormalization into Mul and Add"},
            {"dropout", boolText(SimplifyInferenceOptions{}.dropout), "remove Dropout"},
            {"identity", boolText(SimplifyInferenceOptions{}.identity), "remove Identity"},
        },
        [ops](const Graph& g, const GraphPassOptionValues& v) {
            SimplifyInferenceOptions o;
            o.ops = ops;
            o.batchNorm = graphPassOptionBool(v, "batch-norm", o.batchNorm);
            o.dropout = graphPassOptionBool(v, "dropout", o.dropout);
            o.identity = graphPassOptionBool(v, "identity", o.identity);
            return simplifyInference(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "fold-scale-shift",
        "Fold a per-channel Mul and Add after a Conv into its weights and bias.",
        "A convolution is linear in its weights: scaling output channel m by s[m] is the same as "
        "scaling filter m by s[m], and adding t[m] afterwards is the same as adding it to the "
        "bias. So Conv -> Mul(s) -> Add(t), which is what a batch norm becomes after "
        "simplify-inference, is one Conv with weights W[m] * s[m] and bias b[m] * s[m] + t[m]. "
        "The pass folds when the weights, bias and s and t are constants, s and t vary only "
        "along the channel axis, and nothing else reads the Conv's unscaled output. The new "
        "weights are computed in double and rounded once, so the result equals the original up "
        "to float rounding, and the batch norm costs nothing at run time. A ConvTranspose folds "
        "the same way (its output channel m is a column of its weights).",
        {
            {"fold-scale", boolText(FoldScaleShiftOptions{}.foldScale),
             "fold a per-channel Mul into the weights"},
            {"fold-shift", boolText(FoldScaleShiftOptions{}.foldShift),
             "fold a per-channel Add into the bias"},
        },
        [](const Graph& g, const GraphPassOptionValues& v) {
            FoldScaleShiftOptions o;
            o.foldScale = graphPassOptionBool(v, "fold-scale", o.foldScale);
            o.foldShift = graphPassOptionBool(v, "fold-shift", o.foldShift);
            return foldScaleShift(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "alter-layout",
        "Store activations in channel blocks (NCHW16c) between convolutions; transform back only where needed.",
        "A blocked convolution computes one vector register of output channels per pixel, so it "
        "wants its input and output stored with the channels in blocks of the vector width, "
        "innermost: NCHW16c with AVX-512. Each 2-d float32 convolution with constant weights "
        "(plain, grouped or depthwise) writes its output so (the attribute out_layout; a block of "
        "half the width when the full one does not divide a group's channels) and reads its input "
        "in whatever layout it comes; so does a 2-d transposed convolution with one group and no "
        "dilation. The layout then travels on: element-wise and broadcast "
        "operators compute on the blocked tensors (a per-channel constant such as a bias [C, 1, 1] "
        "is stored blocked too), pooling pools each block, Concat joins blocks. Where an operator "
        "needs the plain layout (Flatten, Reshape, Softmax, a graph output) a LayoutTransform node "
        "converts back, once per value. So no kernel packs its input or unpacks its output, and "
        "the transforms left in the graph mark where the layout really changes.",
        {
            {"block", std::to_string(AlterLayoutOptions{}.block),
             "the channel block: float32 lanes of the target's vectors (0 or 1: leave the graph plain)"},
        },
        [ops](const Graph& g, const GraphPassOptionValues& v) {
            AlterLayoutOptions o;
            o.ops = ops;
            o.block = passOptionInt(v, "block", o.block);
            return alterLayout(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "common-subexpression-elimination",
        "Merge nodes with the same operator, inputs and attributes, and equal constants.",
        "Two nodes that apply the same operator to the same values with equal attributes compute "
        "the same tensors, so the second is dropped and its users read the first. Walking the "
        "graph in topological order catches whole chains: once two Relu nodes are merged, two "
        "Adds that read them read the same value and merge too. Constants with equal element "
        "type, shape and bytes are merged first (importers repeat small shape tensors and "
        "scalars), which lets more operators merge. The first node of each group survives.",
        {
            {"merge-constants", boolText(CommonSubexpressionEliminationOptions{}.mergeConstants),
             "merge constants with equal type, shape and bytes"},
        },
        [](const Graph& g, const GraphPassOptionValues& v) {
            CommonSubexpressionEliminationOptions o;
            o.mergeConstants = graphPassOptionBool(v, "merge-constants", o.mergeConstants);
            return commonSubexpressionElimination(g, o);
        },
    });

    passes.add(GraphPassInfo{
        "dead-code-elimination",
        "Remove operators whose values reach no graph output, and unused constants.",
        "Starting from the graph outputs, the pass follows every node's inputs back to their "
        "producers and marks what it reaches. Operators left unmarked compute something nobody "
        "reads, such as an importer's leftovers or what another pass's rewrite made obsolete, "
        "and are removed, as are constants that no surviving node reads. A node with several "
        "outputs stays when any of them is needed; graph inputs always stay.",
        {
            {"remove-constants", boolText(DeadCodeEliminationOptions{}.removeConstants),
             "also remove constants that no surviving node reads"},
        },
        [](const Graph& g, const GraphPassOptionValues& v) {
            DeadCodeEliminationOptions o;
            o.removeConstants = graphPassOptionBool(v, "remove-constants", o.removeConstants);
            return deadCodeElimination(g, o);
        },
    });
}

/// Fusion: the partition into fused functions.
void addFusionPass(GraphPassRegistry& passes, const OpRegistry* ops) {
    passes.add(GraphPassInfo{
        "fuse-ops",
        "Group operators into fused functions with TVM's rules; annotate fuse.group/function.",
        "Each fused function becomes one kernel, so the tensors between its operators never go "
        "to memory. The operator patterns decide what fuses: an out-element-wise-fusable "
        "operator (Conv, Gemm, MatMul, pooling) takes the element-wise and broadcast operators "
        "after it, including a residual Add whose other input comes from outside; injective "
        "operators (Reshape, Transpose ...) fuse with each other and with element-wise ones; "
        "element-wise operators fuse into a following reduction as its inputs, and only "
        "element-wise operators fuse after a reduction; opaque operators (Softmax) stay alone. "
        "A value read by several operators joins them into its group when they all lead to one "
        "operator (its immediate post-dominator) through operators that may follow it, as "
        "TVM's post-dominator analysis does: SiLU after a Conv is one function. "
        "Operators in groups of two or more get the attributes fuse.group and fuse.function.",
        {
            {"max-depth", std::to_string(FuseOpsOptions{}.maxDepth),
             "at most this many operators per group"},
            {"fuse-out-elementwise", boolText(FuseOpsOptions{}.fuseOutElementWise),
             "fuse element-wise operators after Conv, Gemm, MatMul and pooling"},
            {"fuse-injective", boolText(FuseOpsOptions{}.fuseInjective),
             "fuse injective operators with each other and with element-wise ones"},
            {"fuse-reduce", boolText(FuseOpsOptions{}.fuseReduce),
             "fuse element-wise operators into and after reductions"},
            {"fuse-elementwise", boolText(FuseOpsOptions{}.fuseElementWise),
             "fuse element-wise and broadcast operators with each other"},
            {"fuse-diamonds", boolText(FuseOpsOptions{}.fuseDiamonds),
             "fuse the operators between a value read several times and its post-dominator"},
            {"annotate-singletons", boolText(FuseOpsOptions{}.annotateSingletons),
             "also annotate operators that are alone in their group"},
        },
        [ops](const Graph& g, const GraphPassOptionValues& v) {
            FuseOpsOptions o;
            o.ops = ops;
            if (auto it = v.find("max-depth"); it != v.end()) {
                const std::string& s = it->second;
                size_t used = 0;
                long long d = 0;
                try {
                    d = std::stoll(s, &used);
                } catch (const std::exception&) {
                    used = 0;
                }
                if (s.empty() || used != s.size() || d < 1 || d > 1000000)
                    throw CompileError("option max-depth needs a positive integer, got '" + s +
                                       "'");
                o.maxDepth = static_cast<int>(d);
            }
            o.fuseOutElementWise =
                graphPassOptionBool(v, "fuse-out-elementwise", o.fuseOutElementWise);
            o.fuseInjective = graphPassOptionBool(v, "fuse-injective", o.fuseInjective);
            o.fuseReduce = graphPassOptionBool(v, "fuse-reduce", o.fuseReduce);
            o.fuseElementWise = graphPassOptionBool(v, "fuse-elementwise", o.fuseElementWise);
            o.fuseDiamonds = graphPassOptionBool(v, "fuse-diamonds", o.fuseDiamonds);
            o.annotateSingletons =
                graphPassOptionBool(v, "annotate-singletons", o.annotateSingletons);
            return fuseOps(g, o);
        },
    });
}

} // namespace

void registerGraphPasses(GraphPassRegistry& passes) {
    registerGraphPasses(passes, defaultOpRegistry());
}

void registerGraphPasses(GraphPassRegistry& passes, const OpRegistry& opRegistry) {
    // The records hold the operator registry by pointer (it outlives them).
    const OpRegistry* ops = &opRegistry;
    addTypingPasses(passes, ops);
    addSimplifyingPasses(passes, ops);
    addFusionPass(passes, ops);
}

const GraphPassRegistry& builtinGraphPasses() {
    static const GraphPassRegistry registry = [] {
        GraphPassRegistry r("graph pass");
        registerGraphPasses(r);
        return r;
    }();
    return registry;
}

const std::deque<GraphPassInfo>& graphPasses() { return builtinGraphPasses().passes(); }

const GraphPassInfo* findGraphPass(const std::string& name) { return builtinGraphPasses().find(name); }

std::string graphPassNames() { return builtinGraphPasses().names(); }

void checkGraphPassOptions(const GraphPassInfo& pass, const GraphPassOptionValues& values) {
    checkPassOptions("graph pass " + pass.name, pass.options, values);
}

} // namespace tessel::graph
