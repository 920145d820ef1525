// infer-shapes: a case table per operator (ONNX semantics), and the pass over whole graphs.
#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/OpRegistry.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"

#include "GraphTestUtil.h"

#include <QtTest>

#include <string>

using namespace tessel;
using namespace tessel::graph;
using namespace tessel::graph::test;

class TestShapeInference : public QObject {
    Q_OBJECT
private slots:
    void operators_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("inputs");
        QTest::addColumn<QString>("attrs");
        QTest::addColumn<QString>("expected"); // types joined by " | ", or "error: message"
        auto row = [](const char* tag, const char* op, const char* inputs, const char* attrs,
                      const char* expected) {
            QTest::newRow(tag) << QString(op) << QString(inputs) << QString(attrs)
                               << QString(expected);
        };

        // Conv: pads, strides, dilations, groups, auto_pad.
        row("conv stem 7x7/2", "Conv",
            "float32[1,3,224,224];const float32[64,3,7,7];const float32[64]",
            "strides=[2,2];pads=[3,3,3,3]", "float32[1, 64, 112, 112]");
        row("conv 3x3 pad 1", "Conv", "float32[1,64,56,56];const float32[64,64,3,3]",
            "pads=[1,1,1,1]", "float32[1, 64, 56, 56]");
        row("conv dilation 2", "Conv", "float32[1,1,10,10];const float32[1,1,3,3]",
            "dilations=[2,2]", "float32[1, 1, 6, 6]");
        row("conv depthwise", "Conv", "float32[1,32,112,112];const float32[32,1,3,3]",
            "group=32;strides=[2,2];pads=[1,1,1,1]", "float32[1, 32, 56, 56]");
        row("conv 2 groups", "Conv", "float32[2,8,5,5];const float32[6,4,3,3]", "group=2",
            "float32[2, 6, 3, 3]");
        row("conv SAME_UPPER", "Conv", "float32[1,3,7,7];const float32[4,3,3,3]",
            "auto_pad=\"SAME_UPPER\";strides=[2,2]", "float32[1, 4, 4, 4]");
        row("conv SAME_LOWER", "Conv", "float32[1,3,8,8];const float32[4,3,3,3]",
            "auto_pad=\"SAME_LOWER\"", "float32[1, 4, 8, 8]");
        row("conv VALID", "Conv", "float32[1,3,7,7];const float32[4,3,3,3]",
            "auto_pad=\"VALID\";strides=[2,2]", "float32[1, 4, 3, 3]");
        row("conv asymmetric pads", "Conv", "float32[1,1,5,5];const float32[1,1,2,2]",
            "pads=[0,1,1,0];strides=[2,2]", "float32[1, 1, 3, 3]");
        row("conv 1-D", "Conv", "float32[1,2,10];const float32[3,2,3]", "pads=[1,1]",
            "float32[1, 3, 10]");
        row("conv unknown dims", "Conv", "float32[?,3,?,32];const float32[8,3,3,3]", "",
            "float32[?, 8, ?, 30]");
        row("conv kernel_shape attr", "Conv", "float32[1,3,8,8];const float32[4,3,3,3]",
            "kernel_shape=[3,3]", "float32[1, 4, 6, 6]");
        row("conv channel mismatch", "Conv", "float32[1,3,8,8];const float32[4,2,3,3]", "",
            "error: node 'n' (Conv): input X float32[1, 3, 8, 8] has 3 channels, but weights W "
            "float32[4, 2, 3, 3] "
            "with group 1 expect 2");
        row("conv rank mismatch", "Conv", "float32[1,3,8,8];const float32[4,3,3]", "",
            "error: node 'n' (Conv): weights W float32[4, 3, 3] have rank 3, expected 4 like input "
            "X float32[1, 3, 8, 8]");
        row("conv kernel too big", "Conv", "float32[1,1,2,2];const float32[1,1,3,3]", "",
            "error: node 'n' (Conv): the window (3 with dilation) is larger than the padded input "
            "(2) in spatial dim 0");
        row("conv bad bias", "Conv", "float32[1,3,8,8];const float32[4,3,3,3];const float32[3]", "",
            "error: node 'n' (Conv): bias B float32[3] should have shape [4]");
        row("conv pads count", "Conv", "float32[1,3,8,8];const float32[4,3,3,3]", "pads=[1,1]",
            "error: node 'n' (Conv): attribute 'pads' has 2 values, expected 4");
        row("conv bad auto_pad", "Conv", "float32[1,3,8,8];const float32[4,3,3,3]",
            "auto_pad=\"SAME\"", "error: node 'n' (Conv): unknown auto_pad \"SAME\"");
        row("conv too few inputs", "Conv", "float32[1,3,8,8]", "",
            "error: node 'n' (Conv): expects 2 to 3 inputs, got 1");

        // Pooling, with ceil_mode.
        row("maxpool 3x3/2 pad 1", "MaxPool", "float32[1,64,112,112]",
            "kernel_shape=[3,3];strides=[2,2];pads=[1,1,1,1]", "float32[1, 64, 56, 56]");
        row("maxpool floor", "MaxPool", "float32[1,1,4,4]", "kernel_shape=[3,3];strides=[2,2]",
            "float32[1, 1, 1, 1]");
        row("maxpool ceil_mode", "MaxPool", "float32[1,1,4,4]",
            "kernel_shape=[3,3];strides=[2,2];ceil_mode=1", "float32[1, 1, 2, 2]");
        row("maxpool ceil_mode last window in padding", "MaxPool", "float32[1,1,5,5]",
            "kernel_shape=[2,2];strides=[2,2];pads=[1,1,1,1];ceil_mode=1", "float32[1, 1, 3, 3]");
        row("maxpool ceil_mode 6/2", "MaxPool", "float32[1,1,6,6]",
            "kernel_shape=[3,3];strides=[2,2];ceil_mode=1", "float32[1, 1, 3, 3]");
        row("maxpool SAME_UPPER", "MaxPool", "float32[1,1,5,5]",
            "kernel_shape=[3,3];strides=[2,2];auto_pad=\"SAME_UPPER\"", "float32[1, 1, 3, 3]");
        row("maxpool indices", "MaxPool|2", "float32[1,2,4,4]", "kernel_shape=[2,2];strides=[2,2]",
            "float32[1, 2, 2, 2] | int64[1, 2, 2, 2]");
        row("maxpool no kernel", "MaxPool", "float32[1,1,4,4]", "",
            "error: node 'n' (MaxPool): attribute 'kernel_shape' is required");
        row("averagepool 2x2/2", "AveragePool", "float32[1,3,32,32]",
            "kernel_shape=[2,2];strides=[2,2]", "float32[1, 3, 16, 16]");
        row("averagepool ceil", "AveragePool", "float32[1,3,7,7]",
            "kernel_shape=[2,2];strides=[2,2];ceil_mode=1", "float32[1, 3, 4, 4]");
        row("global average pool", "GlobalAveragePool", "float32[1,512,7,7]", "",
            "float32[1, 512, 1, 1]");
        row("global max pool 1-D", "GlobalMaxPool", "float32[?,16,9]", "", "float32[?, 16, 1]");
        row("global pool rank 2", "GlobalAveragePool", "float32[1,512]", "",
            "error: node 'n' (GlobalAveragePool): input X has rank 2 (float32[1, 512]), expected "
            "at least 3");

        // Gemm with transposes.
        row("gemm", "Gemm", "float32[2,3];float32[3,4]", "", "float32[2, 4]");
        row("gemm transA", "Gemm", "float32[3,2];float32[3,4]", "transA=1", "float32[2, 4]");
        row("gemm transB + bias", "Gemm",
            "float32[1,512];const float32[1000,512];const float32[1000]", "transB=1",
            "float32[1, 1000]");
        row("gemm both", "Gemm", "float32[3,2];float32[4,3]", "transA=1;transB=1", "float32[2, 4]");
        row("gemm C [M,1]", "Gemm", "float32[2,3];float32[3,4];float32[2,1]", "", "float32[2, 4]");
        row("gemm K mismatch", "Gemm", "float32[2,3];float32[4,5]", "",
            "error: node 'n' (Gemm): inner dimensions differ: A float32[2, 3] has K=3, B "
            "float32[4, 5] has K=4");
        row("gemm bad C", "Gemm", "float32[2,3];float32[3,4];float32[3]", "",
            "error: node 'n' (Gemm): C float32[3] does not broadcast to [M, N] = [2, 4]");
        row("gemm rank 3", "Gemm", "float32[1,2,3];float32[3,4]", "",
            "error: node 'n' (Gemm): A float32[1, 2, 3] and B float32[3, 4] must both have rank 2");

        // MatMul: batched, broadcast, vectors.
        row("matmul 2-D", "MatMul", "float32[2,3];float32[3,4]", "", "float32[2, 4]");
        row("matmul batched broadcast", "MatMul", "float32[2,1,3,4];float32[5,4,6]", "",
            "float32[2, 5, 3, 6]");
        row("matmul batch x matrix", "MatMul", "float32[8,12,64,64];float32[64,32]", "",
            "float32[8, 12, 64, 32]");
        row("matmul vector x matrix", "MatMul", "float32[3];float32[3,4]", "", "float32[4]");
        row("matmul matrix x vector", "MatMul", "float32[2,3,4];float32[4]", "", "float32[2, 3]");
        row("matmul dot", "MatMul", "float32[3];float32[3]", "", "float32[]");
        row("matmul unknown batch", "MatMul", "float32[?,3,4];float32[1,4,5]", "",
            "float32[?, 3, 5]");
        row("matmul K mismatch", "MatMul", "float32[2,3];float32[4,5]", "",
            "error: node 'n' (MatMul): inner dimensions differ: A float32[2, 3] has K=3, B "
            "float32[4, 5] has K=4");
        row("matmul batch mismatch", "MatMul", "float32[2,3,4];float32[3,4,5]", "",
            "error: node 'n' (MatMul): batch dimensions [2] and [3] do not broadcast");

        // Broadcasting binary operators.
        row("add same", "Add", "float32[1,64,56,56];float32[1,64,56,56]", "",
            "float32[1, 64, 56, 56]");
        row("add trailing", "Add", "float32[2,3,4,5];float32[5]", "", "float32[2, 3, 4, 5]");
        row("mul both ways", "Mul", "float32[4,1,3];float32[2,1]", "", "float32[4, 2, 3]");
        row("sub unknown 1", "Sub", "float32[?,3];float32[1,3]", "", "float32[?, 3]");
        row("sub unknown fixed", "Sub", "float32[?,3];float32[4,3]", "", "float32[4, 3]");
        row("div scalar", "Div", "float32[];float32[2,2]", "", "float32[2, 2]");
        row("pow", "Pow", "float32[2,3];int64[]", "", "float32[2, 3]");
        row("max variadic", "Max", "float32[3,1];float32[1,4];float32[4]", "", "float32[3, 4]");
        row("min single", "Min", "float32[3]", "", "float32[3]");
        row("add not broadcastable", "Add", "float32[2,3];float32[4,3]", "",
            "error: node 'n' (Add): shapes float32[2, 3] and float32[4, 3] do not broadcast");
        row("add types differ", "Add", "float32[2];int64[2]", "",
            "error: node 'n' (Add): input 1 has type int64, input 0 has float32");
        row("add one input", "Add", "float32[2]", "",
            "error: node 'n' (Add): expects 2 inputs, got 1");

        // Element-wise unary operators.
        row("relu", "Relu", "float32[1,2]", "", "float32[1, 2]");
        row("sigmoid", "Sigmoid", "float32[?,8]", "", "float32[?, 8]");
        row("tanh", "Tanh", "float64[3]", "", "float64[3]");
        row("exp", "Exp", "float32[3]", "", "float32[3]");
        row("log", "Log", "float32[3]", "", "float32[3]");
        row("neg int", "Neg", "int64[3]", "", "int64[3]");
        row("abs", "Abs", "int32[3]", "", "int32[3]");
        row("erf", "Erf", "float32[3]", "", "float32[3]");
        row("leaky relu", "LeakyRelu", "float32[3]", "alpha=0.1", "float32[3]");
        row("hard sigmoid", "HardSigmoid", "float32[3]", "alpha=0.2;beta=0.5", "float32[3]");
        row("hard swish", "HardSwish", "float32[3]", "", "float32[3]");
        row("identity", "Identity", "bool[3]", "", "bool[3]");
        row("sqrt of ints", "Sqrt", "int64[3]", "",
            "error: node 'n' (Sqrt): input 0 has type int64, expected a floating-point type");
        row("clip inputs", "Clip", "float32[1,32,8,8];const float32[]=0;const float32[]=6", "",
            "float32[1, 32, 8, 8]");
        row("clip max only", "Clip", "float32[4];none;const float32[]=6", "", "float32[4]");
        row("clip attrs", "Clip", "float32[4]", "min=0.0;max=6.0", "float32[4]");
        row("clip non-scalar", "Clip", "float32[4];const float32[2]", "",
            "error: node 'n' (Clip): min float32[2] must be a scalar");
        row("dropout", "Dropout", "float32[2,3]", "", "float32[2, 3]");
        row("dropout mask", "Dropout|2", "float32[2,3]", "", "float32[2, 3] | bool[2, 3]");
        row("cast to int64", "Cast", "float32[2,3]", "to=7", "int64[2, 3]");
        row("cast to float", "Cast", "int32[2]", "to=1", "float32[2]");
        row("cast no to", "Cast", "int32[2]", "",
            "error: node 'n' (Cast): attribute 'to' is required");
        row("cast to string", "Cast", "int32[2]", "to=8",
            "error: node 'n' (Cast): unsupported target type code 8");

        // Normalisation.
        row("batchnorm", "BatchNormalization",
            "float32[1,64,56,56];const float32[64];const float32[64];const float32[64];const "
            "float32[64]",
            "epsilon=0.001", "float32[1, 64, 56, 56]");
        row("batchnorm bad scale", "BatchNormalization",
            "float32[1,64,56,56];const float32[32];const float32[64];const float32[64];const "
            "float32[64]",
            "",
            "error: node 'n' (BatchNormalization): scale float32[32] should have shape [64] (the "
            "channels of X "
            "float32[1, 64, 56, 56])");
        row("softmax", "Softmax", "float32[2,10]", "axis=1", "float32[2, 10]");
        row("logsoftmax", "LogSoftmax", "float32[2,10]", "", "float32[2, 10]");
        row("softmax bad axis", "Softmax", "float32[2,10]", "axis=2",
            "error: node 'n' (Softmax): axis 2 is out of range for float32[2, 10]");

        // Reshape: 0 copies, -1 is inferred.
        row("reshape 0 -1", "Reshape", "float32[2,3,4];const int64[2]=0,-1", "", "float32[2, 12]");
        row("reshape flatten head", "Reshape", "float32[1,512,1,1];const int64[2]=1,-1", "",
            "float32[1, 512]");
        row("reshape -1 middle", "Reshape", "float32[2,3,4];const int64[3]=4,-1,2", "",
            "float32[4, 3, 2]");
        row("reshape dynamic batch", "Reshape", "float32[?,3,4];const int64[2]=0,-1", "",
            "float32[?, 12]");
        row("reshape dynamic -1", "Reshape", "float32[?,3,4];const int64[2]=-1,12", "",
            "float32[?, 12]");
        row("reshape allowzero", "Reshape", "float32[0,3];const int64[2]=0,3", "allowzero=1",
            "float32[0, 3]");
        row("reshape non-constant shape", "Reshape", "float32[2,3,4];int64[3]", "",
            "float32[?, ?, ?]");
        row("reshape indivisible", "Reshape", "float32[2,3,4];const int64[2]=5,-1", "",
            "error: node 'n' (Reshape): cannot reshape float32[2, 3, 4] (24 elements) to [5, -1]");
        row("reshape two -1", "Reshape", "float32[2,3,4];const int64[2]=-1,-1", "",
            "error: node 'n' (Reshape): shape [-1, -1] has more than one -1");
        row("reshape count", "Reshape", "float32[2,3];const int64[2]=4,2", "",
            "error: node 'n' (Reshape): cannot reshape float32[2, 3] (6 elements) to [4, 2] (8 "
            "elements)");
        row("reshape 0 past rank", "Reshape", "float32[6];const int64[2]=2,0", "",
            "error: node 'n' (Reshape): shape [2, 0] copies dim 1 (0) but data float32[6] has rank "
            "1");

        // Flatten, Transpose, Concat.
        row("flatten 1", "Flatten", "float32[2,3,4,5]", "", "float32[2, 60]");
        row("flatten 0", "Flatten", "float32[2,3,4,5]", "axis=0", "float32[1, 120]");
        row("flatten -1", "Flatten", "float32[2,3,4,5]", "axis=-1", "float32[24, 5]");
        row("flatten rank", "Flatten", "float32[2,3,4,5]", "axis=4", "float32[120, 1]");
        row("flatten dynamic", "Flatten", "float32[?,3,4]", "", "float32[?, 12]");
        row("flatten bad axis", "Flatten", "float32[2,3]", "axis=3",
            "error: node 'n' (Flatten): axis 3 is out of range for float32[2, 3]");
        row("transpose default", "Transpose", "float32[2,3,4]", "", "float32[4, 3, 2]");
        row("transpose perm", "Transpose", "float32[2,3,4]", "perm=[0,2,1]", "float32[2, 4, 3]");
        row("transpose bad perm", "Transpose", "float32[2,3,4]", "perm=[0,0,1]",
            "error: node 'n' (Transpose): perm [0, 0, 1] is not a permutation of the 3 axes of "
            "float32[2, 3, 4]");
        row("concat", "Concat", "float32[2,3];float32[2,5]", "axis=1", "float32[2, 8]");
        row("concat negative axis", "Concat", "float32[2,3];float32[2,5];float32[2,1]", "axis=-1",
            "float32[2, 9]");
        row("concat unknown", "Concat", "float32[?,3];float32[2,3]", "axis=0", "float32[?, 3]");
        row("concat mismatch", "Concat", "float32[2,3];float32[3,3]", "axis=1",
            "error: node 'n' (Concat): input 1 float32[3, 3] differs from input 0 float32[2, 3] in "
            "dim 0 "
            "(concatenating along axis 1)");
        row("concat no axis", "Concat", "float32[2,3]", "",
            "error: node 'n' (Concat): attribute 'axis' is required");

        // Squeeze / Unsqueeze: opset 13 axes input and the older attribute.
        row("squeeze axes input", "Squeeze", "float32[2,1,3];const int64[1]=1", "",
            "float32[2, 3]");
        row("squeeze axes attr", "Squeeze", "float32[2,1,3,1]", "axes=[-1]", "float32[2, 1, 3]");
        row("squeeze all", "Squeeze", "float32[1,3,1,1]", "", "float32[3]");
        row("squeeze not 1", "Squeeze", "float32[2,3];const int64[1]=1", "",
            "error: node 'n' (Squeeze): cannot squeeze axis 1 of float32[2, 3]: its size is not 1");
        row("squeeze axes at run time", "Squeeze", "float32[2,1];int64[1]", "", "float32[?]");
        row("squeeze axes of unknown length", "Squeeze", "float32[2,1];int64[?]", "",
            "error: node 'n' (Squeeze): the axes input int64[?] must be a constant or have a "
            "known length");
        row("unsqueeze axes input", "Unsqueeze", "float32[3,4];const int64[2]=0,3", "",
            "float32[1, 3, 4, 1]");
        row("unsqueeze axes attr", "Unsqueeze", "float32[3,4]", "axes=[-1]", "float32[3, 4, 1]");
        row("unsqueeze scalar", "Unsqueeze", "int64[];const int64[1]=0", "", "int64[1]");
        row("unsqueeze twice", "Unsqueeze", "float32[2]", "axes=[0,0]",
            "error: node 'n' (Unsqueeze): axis 0 is given twice");

        // Shape computations.
        row("shape", "Shape", "float32[?,3,224,224]", "", "int64[4]");
        row("shape start end", "Shape", "float32[2,3,4]", "start=1;end=-1", "int64[1]");
        row("gather axis 0", "Gather", "float32[5,4];int64[2,3]", "", "float32[2, 3, 4]");
        row("gather scalar index", "Gather", "int64[4];const int64[]=0", "", "int64[]");
        row("gather axis 1", "Gather", "float32[2,5,4];int32[3]", "axis=1", "float32[2, 3, 4]");
        row("gather float indices", "Gather", "float32[5];float32[2]", "",
            "error: node 'n' (Gather): indices float32[2] must be int32 or int64");
        row("constant ints", "Constant", "", "value_ints=[1,-1]", "int64[2]");
        row("constant float", "Constant", "", "value_float=0.5", "float32[]");
        row("constant none", "Constant", "", "",
            "error: node 'n' (Constant): exactly one value attribute is "
            "required (value, value_float, value_ints ...)");

        // Reductions.
        row("reducemean keepdims", "ReduceMean", "float32[1,64,7,7]", "axes=[2,3]",
            "float32[1, 64, 1, 1]");
        row("reducemean drop", "ReduceMean", "float32[1,64,7,7]", "axes=[-2,-1];keepdims=0",
            "float32[1, 64]");
        row("reducesum axes input", "ReduceSum", "float32[2,3,4];const int64[1]=1", "keepdims=0",
            "float32[2, 4]");
        row("reducemax all", "ReduceMax", "float32[2,3,4]", "", "float32[1, 1, 1]");
        row("reducemin all drop", "ReduceMin", "float32[2,3,4]", "keepdims=0", "float32[]");
        row("reduceprod noop", "ReduceProd", "float32[2,3]", "noop_with_empty_axes=1",
            "float32[2, 3]");
        row("reduce bad axis", "ReduceSum", "float32[2,3]", "axes=[2]",
            "error: node 'n' (ReduceSum): axis 2 is out of range for float32[2, 3]");

        // ConvTranspose: W is [C, M / group, k...]; output_padding, output_shape, auto_pad.
        row("convtranspose", "ConvTranspose", "float32[1,1,3,3];const float32[1,2,3,3]", "",
            "float32[1, 2, 5, 5]");
        row("convtranspose strides pads", "ConvTranspose",
            "float32[1,1,3,3];const float32[1,2,3,3]", "strides=[3,2];pads=[1,2,1,2]",
            "float32[1, 2, 7, 3]");
        row("convtranspose output_padding", "ConvTranspose",
            "float32[1,1,3,3];const float32[1,2,3,3]", "strides=[3,2];output_padding=[1,1]",
            "float32[1, 2, 10, 8]");
        row("convtranspose output_shape", "ConvTranspose",
            "float32[1,1,3,3];const float32[1,2,3,3]", "strides=[3,2];output_shape=[10,8]",
            "float32[1, 2, 10, 8]");
        row("convtranspose SAME_UPPER", "ConvTranspose", "float32[1,1,3,3];const float32[1,2,3,3]",
            "auto_pad=\"SAME_UPPER\";strides=[2,2]", "float32[1, 2, 6, 6]");
        row("convtranspose dilations", "ConvTranspose", "float32[1,1,3,3];const float32[1,1,2,2]",
            "dilations=[2,2]", "float32[1, 1, 5, 5]");
        row("convtranspose groups and bias", "ConvTranspose",
            "float32[1,4,5,5];const float32[4,3,3,3];const float32[6]", "group=2",
            "float32[1, 6, 7, 7]");
        row("convtranspose 1-D", "ConvTranspose", "float32[1,1,3];const float32[1,2,3]",
            "strides=[2]", "float32[1, 2, 7]");
        row("convtranspose unknown dims", "ConvTranspose",
            "float32[?,1,?,3];const float32[1,2,3,3]", "", "float32[?, 2, ?, 5]");
        row("convtranspose channels", "ConvTranspose", "float32[1,3,3,3];const float32[2,2,3,3]",
            "",
            "error: node 'n' (ConvTranspose): input X float32[1, 3, 3, 3] has 3 channels, but "
            "weights W float32[2, 2, 3, 3] expect 2 (W is [C, M / group, k...])");
        row("convtranspose output_shape count", "ConvTranspose",
            "float32[1,1,3,3];const float32[1,2,3,3]", "output_shape=[10]",
            "error: node 'n' (ConvTranspose): attribute 'output_shape' has 1 values, expected 2");
        row("convtranspose pads too big", "ConvTranspose",
            "float32[1,1,1,1];const float32[1,1,1,1]", "pads=[1,1,1,1]",
            "error: node 'n' (ConvTranspose): pads [1, 1, 1, 1] leave no output in spatial dim 0");

        // Split: equal parts, sizes as an input (opset 13) or attribute (before).
        row("split equal", "Split|3", "float32[6,2]", "",
            "float32[2, 2] | float32[2, 2] | float32[2, 2]");
        row("split sizes input", "Split|2", "float32[2,6];const int64[2]=2,4", "axis=1",
            "float32[2, 2] | float32[2, 4]");
        row("split sizes attr", "Split|2", "float32[2,6]", "axis=-1;split=[1,5]",
            "float32[2, 1] | float32[2, 5]");
        row("split zero sizes", "Split|3", "float32[0];const int64[3]=0,0,0", "",
            "float32[0] | float32[0] | float32[0]");
        row("split unknown dim", "Split|2", "float32[?,4]", "", "float32[?, 4] | float32[?, 4]");
        row("split sizes at run time", "Split|2", "float32[2,6];int64[2]", "axis=1",
            "float32[2, ?] | float32[2, ?]");
        row("split uneven", "Split|2", "float32[5]", "",
            "error: node 'n' (Split): axis 0 of float32[5] (5) does not split into 2 equal parts");
        row("split wrong sum", "Split|2", "float32[6];const int64[2]=2,3", "",
            "error: node 'n' (Split): split [2, 3] adds up to 5, but axis 0 of float32[6] has 6");
        row("split count", "Split|2", "float32[6];const int64[3]=1,2,3", "",
            "error: node 'n' (Split): split [1, 2, 3] has 3 sizes for 2 outputs");

        // Slice: inputs (opset 10+) or attributes (opset 1); clamping as ONNX.
        row("slice", "Slice",
            "float32[20,10,5];const int64[2]=0,0;const int64[2]=3,10;const int64[2]=0,1;const "
            "int64[2]=1,1",
            "", "float32[3, 10, 5]");
        row("slice default axes", "Slice",
            "float32[20,10,5];const int64[3]=0,0,3;const int64[3]=20,10,4", "",
            "float32[20, 10, 1]");
        row("slice negative steps", "Slice",
            "float32[20,10,5];const int64[3]=20,10,4;const int64[3]=0,0,1;const "
            "int64[3]=0,1,2;const int64[3]=-1,-3,-2",
            "", "float32[19, 3, 2]");
        row("slice reverse all", "Slice",
            "float32[4];const int64[1]=-1;const int64[1]=-9223372036854775807;const "
            "int64[1]=0;const int64[1]=-1",
            "", "float32[4]");
        row("slice end out of bounds", "Slice",
            "float32[20,10,5];const int64[1]=1;const int64[1]=1000;const int64[1]=1", "",
            "float32[20, 9, 5]");
        row("slice start out of bounds", "Slice",
            "float32[20,10,5];const int64[1]=1000;const int64[1]=1000;const int64[1]=1", "",
            "float32[20, 0, 5]");
        row("slice negative axes and starts", "Slice",
            "float32[20,10,5];const int64[1]=-3;const int64[1]=-1;const int64[1]=-2", "",
            "float32[20, 2, 5]");
        row("slice step 3", "Slice",
            "float32[10];const int64[1]=1;const int64[1]=9;const int64[1]=0;const int64[1]=3", "",
            "float32[3]");
        row("slice opset 1 attrs", "Slice", "float32[4,6]", "starts=[1];ends=[-1];axes=[1]",
            "float32[4, 4]");
        row("slice starts at run time", "Slice",
            "float32[20,10,5];int64[1];const int64[1]=5;const int64[1]=1", "", "float32[20, ?, 5]");
        row("slice axes at run time", "Slice",
            "float32[20,10,5];const int64[1]=0;const int64[1]=5;int64[1]", "", "float32[?, ?, ?]");
        row("slice unknown dim", "Slice", "float32[?,10];const int64[1]=0;const int64[1]=2", "",
            "float32[?, 10]");
        row("slice step 0", "Slice",
            "float32[10];const int64[1]=0;const int64[1]=5;const int64[1]=0;const int64[1]=0", "",
            "error: node 'n' (Slice): steps [0] has a 0");
        row("slice axis twice", "Slice",
            "float32[4,4];const int64[2]=0,0;const int64[2]=1,1;const int64[2]=1,-1", "",
            "error: node 'n' (Slice): axis -1 is given twice");
        row("slice bad axis", "Slice",
            "float32[4,4];const int64[1]=0;const int64[1]=1;const int64[1]=2", "",
            "error: node 'n' (Slice): axis 2 is out of range for float32[4, 4]");
        row("slice lengths differ", "Slice", "float32[4,4];const int64[2]=0,0;const int64[1]=1", "",
            "error: node 'n' (Slice): starts, ends, axes and steps must have the same length "
            "(starts has 2, another has 1)");
        row("slice no ends", "Slice", "float32[4];const int64[1]=0", "",
            "error: node 'n' (Slice): starts and ends are required (inputs from opset 10, "
            "attributes before)");

        // Pad: pads an input (opset 11) or attribute (before); negative pads crop.
        row("pad", "Pad", "float32[1,3,4,4];const int64[8]=0,0,1,1,0,0,1,1", "",
            "float32[1, 3, 6, 6]");
        row("pad crop", "Pad", "float32[4,4];const int64[4]=-1,0,-1,0", "", "float32[2, 4]");
        row("pad attr", "Pad", "float32[2,2]", "pads=[1,1,1,1];mode=\"reflect\"", "float32[4, 4]");
        row("pad value", "Pad", "float32[2];const int64[2]=1,2;const float32[]=5", "mode=\"edge\"",
            "float32[5]");
        row("pad unknown dim", "Pad", "float32[?,3];const int64[4]=1,1,1,1", "", "float32[?, 5]");
        row("pad at run time", "Pad", "float32[2,3];int64[4]", "", "float32[?, ?]");
        row("pad count", "Pad", "float32[2,3];const int64[2]=1,1", "",
            "error: node 'n' (Pad): pads int64[2] must have 2 * rank = 4 values for float32[2, 3]");
        row("pad mode", "Pad", "float32[2];const int64[2]=1,1", "mode=\"wrap\"",
            "error: node 'n' (Pad): unknown mode \"wrap\" (constant, reflect or edge)");
        row("pad crop too much", "Pad", "float32[2];const int64[2]=-2,-1", "",
            "error: node 'n' (Pad): pads [-2, -1] remove more than the 2 elements of dim 0 of "
            "float32[2]");
        row("pad value type", "Pad", "float32[2];const int64[2]=1,1;const int64[]=0", "",
            "error: node 'n' (Pad): input 2 has type int64, input 0 has float32");

        // Resize: scales or sizes (an empty tensor counts as absent).
        row("resize scales", "Resize", "float32[1,1,2,4];none;const float32[4]=1,1,0.6,0.6", "",
            "float32[1, 1, 1, 2]");
        row("resize upsample unknown", "Resize", "float32[1,3,?,4];none;const float32[4]=1,1,2,2",
            "mode=\"linear\"", "float32[1, 3, ?, 8]");
        row("resize sizes", "Resize", "float32[1,1,4,4];none;none;const int64[4]=1,1,3,3",
            "coordinate_transformation_mode=\"tf_crop_and_resize\"", "float32[1, 1, 3, 3]");
        row("resize opset 11 empty scales", "Resize",
            "float32[1,1,4,4];const float32[0];const float32[0];const int64[4]=1,1,8,8",
            "nearest_mode=\"floor\"", "float32[1, 1, 8, 8]");
        row("resize sizes at run time", "Resize", "float32[1,3,4,4];none;none;int64[4]", "",
            "float32[?, ?, ?, ?]");
        row("resize both", "Resize",
            "float32[1,1,2,2];none;const float32[4]=1,1,2,2;const int64[4]=1,1,4,4", "",
            "error: node 'n' (Resize): only one of scales and sizes may be given");
        row("resize neither", "Resize", "float32[1,1,2,2]", "",
            "error: node 'n' (Resize): scales or sizes is required");
        row("resize scales count", "Resize", "float32[1,1,2,2];none;const float32[2]=2,2", "",
            "error: node 'n' (Resize): scales float32[2] must have 4 values, one per dim of "
            "float32[1, 1, 2, 2]");
        row("resize mode", "Resize", "float32[1,1,2,2];none;const float32[4]=1,1,2,2",
            "mode=\"bicubic\"",
            "error: node 'n' (Resize): unknown mode \"bicubic\" (nearest, linear, cubic)");

        // Expand, Tile: shapes given as tensors.
        row("expand", "Expand", "float32[3,1];const int64[3]=2,1,6", "", "float32[2, 3, 6]");
        row("expand lower rank", "Expand", "float32[2,3];const int64[1]=3", "", "float32[2, 3]");
        row("expand at run time", "Expand", "float32[3,1];int64[3]", "", "float32[?, 3, ?]");
        row("expand mismatch", "Expand", "float32[3];const int64[1]=4", "",
            "error: node 'n' (Expand): input float32[3] does not broadcast to shape [4]");
        row("expand unknown length", "Expand", "float32[3];int64[?]", "",
            "error: node 'n' (Expand): the shape input int64[?] must be a constant or have a "
            "known length");
        row("tile", "Tile", "float32[2,3];const int64[2]=2,2", "", "float32[4, 6]");
        row("tile unknown dim", "Tile", "float32[?,3];const int64[2]=1,0", "", "float32[?, 0]");
        row("tile at run time", "Tile", "float32[2,3];int64[2]", "", "float32[?, ?]");
        row("tile count", "Tile", "float32[2,3];const int64[1]=2", "",
            "error: node 'n' (Tile): repeats int64[1] must have one value per dim of float32[2, "
            "3]");
        row("tile negative", "Tile", "float32[2];const int64[1]=-1", "",
            "error: node 'n' (Tile): repeats [-1] has a negative count");

        // Where, ConstantOfShape, Range.
        row("where", "Where", "bool[2,1];float32[1,3];float32[2,3]", "", "float32[2, 3]");
        row("where float condition", "Where", "float32[2];float32[2];float32[2]", "",
            "error: node 'n' (Where): condition float32[2] must be a bool tensor");
        row("where types differ", "Where", "bool[2];float32[2];int64[2]", "",
            "error: node 'n' (Where): input 2 has type int64, input 1 has float32");
        row("constantofshape", "ConstantOfShape", "const int64[2]=2,3", "", "float32[2, 3]");
        row("constantofshape int32", "ConstantOfShape", "const int64[2]=2,3",
            "value=tensor int32[1]=5", "int32[2, 3]");
        row("constantofshape zero", "ConstantOfShape", "const int64[1]=0", "", "float32[0]");
        row("constantofshape scalar", "ConstantOfShape", "const int64[0]", "", "float32[]");
        row("constantofshape at run time", "ConstantOfShape", "int64[3]", "", "float32[?, ?, ?]");
        row("constantofshape negative", "ConstantOfShape", "const int64[2]=2,-1", "",
            "error: node 'n' (ConstantOfShape): shape [2, -1] has a negative dimension");
        row("constantofshape unknown length", "ConstantOfShape", "int64[?]", "",
            "error: node 'n' (ConstantOfShape): the shape input int64[?] must be a constant or "
            "have a known length");
        row("constantofshape value size", "ConstantOfShape", "const int64[1]=2",
            "value=tensor float32[2]=1,2",
            "error: node 'n' (ConstantOfShape): attribute 'value' float32[2] must hold exactly "
            "one element");
        row("range int", "Range", "const int32[]=1;const int32[]=10;const int32[]=3", "",
            "int32[3]");
        row("range negative delta", "Range", "const int32[]=10;const int32[]=4;const int32[]=-3",
            "", "int32[2]");
        row("range float", "Range", "const float32[]=0;const float32[]=1;const float32[]=0.3", "",
            "float32[4]");
        row("range empty", "Range", "const int64[]=5;const int64[]=1;const int64[]=1", "",
            "int64[0]");
        row("range at run time", "Range", "int64[];int64[];int64[]", "", "int64[?]");
        row("range delta 0", "Range", "const int64[]=0;const int64[]=4;const int64[]=0", "",
            "error: node 'n' (Range): delta is 0");
        row("range types differ", "Range", "int64[];int32[];int64[]", "",
            "error: node 'n' (Range): input 1 has type int32, input 0 has int64");
        row("range not scalar", "Range", "int64[2];int64[];int64[]", "",
            "error: node 'n' (Range): start int64[2] must be a scalar");

        // LayerNormalization (opset 17), InstanceNormalization.
        row("layernorm", "LayerNormalization", "float32[2,3,4];const float32[4];const float32[4]",
            "", "float32[2, 3, 4]");
        row("layernorm statistics", "LayerNormalization|3", "float32[2,3,4];const float32[3,4]",
            "axis=1", "float32[2, 3, 4] | float32[2, 1, 1] | float32[2, 1, 1]");
        row("layernorm scale", "LayerNormalization", "float32[2,3,4];const float32[3]", "",
            "error: node 'n' (LayerNormalization): scale float32[3] does not broadcast to the "
            "normalised dims [4]");
        row("layernorm axis", "LayerNormalization", "float32[2,3];const float32[3]", "axis=2",
            "error: node 'n' (LayerNormalization): axis 2 is out of range for float32[2, 3]");
        row("instancenorm", "InstanceNormalization",
            "float32[1,3,4,4];const float32[3];const float32[3]", "epsilon=0.01",
            "float32[1, 3, 4, 4]");
        row("instancenorm scale", "InstanceNormalization",
            "float32[1,3,4,4];const float32[2];const float32[3]", "",
            "error: node 'n' (InstanceNormalization): scale float32[2] should have shape [3] (the "
            "channels of X float32[1, 3, 4, 4])");
        row("instancenorm rank 2", "InstanceNormalization",
            "float32[2,3];const float32[3];const float32[3]", "",
            "error: node 'n' (InstanceNormalization): input X has rank 2 (float32[2, 3]), "
            "expected at least 3");

        // More element-wise operators, comparisons and logic.
        row("reciprocal", "Reciprocal", "float32[3]", "", "float32[3]");
        row("floor", "Floor", "float64[2]", "", "float64[2]");
        row("ceil", "Ceil", "float32[2]", "", "float32[2]");
        row("round", "Round", "float32[2]", "", "float32[2]");
        row("sign int", "Sign", "int32[2]", "", "int32[2]");
        row("sin", "Sin", "float32[2]", "", "float32[2]");
        row("cos", "Cos", "float32[2]", "", "float32[2]");
        row("softplus", "Softplus", "float32[2]", "", "float32[2]");
        row("elu", "Elu", "float32[2]", "alpha=0.5", "float32[2]");
        row("selu", "Selu", "float32[2]", "", "float32[2]");
        row("floor of ints", "Floor", "int64[2]", "",
            "error: node 'n' (Floor): input 0 has type int64, expected a floating-point type");
        row("prelu", "PRelu", "float32[1,3,4,4];const float32[3,1,1]", "", "float32[1, 3, 4, 4]");
        row("prelu slope too big", "PRelu", "float32[1,3,4,4];const float32[2,3,4,4]", "",
            "error: node 'n' (PRelu): slope float32[2, 3, 4, 4] does not broadcast to X "
            "float32[1, 3, 4, 4]");
        row("equal", "Equal", "int64[2,3];int64[3]", "", "bool[2, 3]");
        row("less", "Less", "float32[2,1];float32[3]", "", "bool[2, 3]");
        row("greater", "Greater", "float32[2]", "",
            "error: node 'n' (Greater): expects 2 inputs, got 1");
        row("lessorequal", "LessOrEqual", "int32[];int32[4]", "", "bool[4]");
        row("greaterorequal types", "GreaterOrEqual", "float32[2];int64[2]", "",
            "error: node 'n' (GreaterOrEqual): input 1 has type int64, input 0 has float32");
        row("not", "Not", "bool[2,2]", "", "bool[2, 2]");
        row("and", "And", "bool[3,1];bool[4]", "", "bool[3, 4]");
        row("or", "Or", "bool[2];bool[2]", "", "bool[2]");
        row("xor", "Xor", "bool[2];bool[1]", "", "bool[2]");
        row("not of float", "Not", "float32[2]", "",
            "error: node 'n' (Not): input 0 float32[2] must be a bool tensor");
        row("size", "Size", "float32[2,3]", "", "int64[]");
        row("sum", "Sum", "float32[3,1];float32[1,4];float32[4]", "", "float32[3, 4]");
        row("mean", "Mean", "float64[2];float64[2]", "", "float64[2]");
        row("sum of ints", "Sum", "int64[2];int64[2]", "",
            "error: node 'n' (Sum): input 0 has type int64, expected a floating-point type");

        // Indexing, losses, Einsum and signal operators (issue 20's operator set).
        row("gather elements", "GatherElements", "float32[3,4];int64[3,2]", "axis=1", "float32[3, 2]");
        row("gather elements rank", "GatherElements", "float32[3,4];int64[3]", "",
            "error: node 'n' (GatherElements): indices int64[3] must have the rank of data float32[3, 4]");
        row("gathernd batch", "GatherND", "float32[2,3,4];int64[2,1,1]", "batch_dims=1", "float32[2, 1, 4]");
        row("gathernd unknown k", "GatherND", "float32[2,3];int64[2,?]", "",
            "error: node 'n' (GatherND): the last dimension of indices int64[2, ?] is not static");
        row("scatter elements", "ScatterElements", "float32[3,3];int64[2,3];float32[2,3]", "reduction=\"add\"",
            "float32[3, 3]");
        row("scatter elements max", "ScatterElements", "float32[3];int64[1];float32[1]", "reduction=\"max\"",
            "error: node 'n' (ScatterElements): reduction 'max' is not supported (none, add or mul)");
        row("scatternd", "ScatterND", "float32[4,4,4];int64[2,1];float32[2,4,4]", "", "float32[4, 4, 4]");
        row("scatternd updates", "ScatterND", "float32[4,4];int64[2,1];float32[2]", "",
            "error: node 'n' (ScatterND): updates float32[2] must have shape [2, 4]");
        row("onehot constant depth", "OneHot", "int64[2,3];const int64[]=5;float32[2]", "axis=1",
            "float32[2, 5, 3]");
        row("onehot depth at run time", "OneHot", "int64[4];int64[];float32[2]", "", "float32[4, ?]");
        row("topk constant k", "TopK|2", "float32[3,10];const int64[1]=4", "", "float32[3, 4] | int64[3, 4]");
        row("topk k at run time", "TopK|2", "float32[3,10];int64[1]", "axis=0", "float32[?, 10] | int64[?, 10]");
        row("topk k too large", "TopK|2", "float32[3,10];const int64[1]=11", "",
            "error: node 'n' (TopK): K = 11 is out of range for float32[3, 10]");
        row("trilu", "Trilu", "int64[2,4,5];int64[]", "upper=0", "int64[2, 4, 5]");
        row("eyelike dtype", "EyeLike", "int32[3,4]", "dtype=1", "float32[3, 4]");
        row("argmax keepdims", "ArgMax", "float32[2,3,4]", "axis=1", "int64[2, 1, 4]");
        row("argmin drop", "ArgMin", "float32[2,3,4]", "axis=-1;keepdims=0", "int64[2, 3]");
        row("reducelogsumexp", "ReduceLogSumExp", "float64[3,2,2];const int64[1]=1", "keepdims=0",
            "float64[3, 2]");
        row("cumsum", "CumSum", "float32[5];int32[]", "", "float32[5]");
        row("mod float needs fmod", "Mod", "float32[3];float32[3]", "",
            "error: node 'n' (Mod): fmod must be 1 for floating-point inputs");
        row("bitshift signed", "BitShift", "int32[3];int32[3]", "direction=\"LEFT\"",
            "error: node 'n' (BitShift): X int32[3] must be an unsigned integer tensor");
        row("castlike", "CastLike", "float32[2,3];float64[1]", "", "float64[2, 3]");
        row("isinf", "IsInf", "float32[6]", "", "bool[6]");
        row("einsum batch matmul", "Einsum", "float32[5,2,3];float32[5,3,4]", "equation=\"bij, bjk -> bik\"",
            "float32[5, 2, 4]");
        row("einsum implicit", "Einsum", "float32[2,3];float32[3,4]", "equation=\"ij,jk\"", "float32[2, 4]");
        row("einsum ellipsis broadcast", "Einsum", "float32[2,1,3,4];float32[5,4,6]",
            "equation=\"...ij,...jk->...ik\"", "float32[2, 5, 3, 6]");
        row("einsum trace", "Einsum", "float32[3,3]", "equation=\"ii\"", "float32[]");
        row("einsum rank", "Einsum", "float32[3,3]", "equation=\"ijk->i\"",
            "error: node 'n' (Einsum): equation 'ijk->i': term 'ijk' does not fit an operand of rank 2");
        row("einsum extents", "Einsum", "float32[2,3];float32[4,5]", "equation=\"ij,jk->ik\"",
            "error: node 'n' (Einsum): axis 'j' has extents 3 and 4");
        row("nll loss none", "NegativeLogLikelihoodLoss", "float32[3,5,2];int64[3,2]", "reduction=\"none\"",
            "float32[3, 2]");
        row("nll loss mean", "NegativeLogLikelihoodLoss", "float32[3,5];int64[3];float32[5]", "", "float32[]");
        row("sce log prob", "SoftmaxCrossEntropyLoss|2", "float32[3,5];int64[3]", "",
            "float32[] | float32[3, 5]");
        row("quantize default uint8", "QuantizeLinear", "float32[4];float32[]", "", "uint8[4]");
        row("quantize per axis", "QuantizeLinear", "float32[1,3,2];float32[3];int8[3]", "axis=1", "int8[1, 3, 2]");
        row("dequantize", "DequantizeLinear", "int8[4];float32[];int8[]", "", "float32[4]");
        row("dynamic quantize", "DynamicQuantizeLinear|3", "float32[2,3]", "", "uint8[2, 3] | float32[] | uint8[]");
        row("hann window", "HannWindow", "const int64[]=10", "", "float32[10]");
        row("dft onesided", "DFT", "float32[1,10,1]", "onesided=1", "float32[1, 6, 2]");
        row("stft", "STFT", "float32[1,128,1];const int64[]=8;none;const int64[]=16", "",
            "float32[1, 15, 9, 2]");
        row("gridsample", "GridSample", "float32[1,2,4,4];float32[1,6,5,2]", "", "float32[1, 2, 6, 5]");
        row("gridsample mode", "GridSample", "float32[1,2,4,4];float32[1,6,5,2]", "mode=\"area\"",
            "error: node 'n' (GridSample): mode 'area' is not supported (bilinear, nearest, bicubic)");

        // Squeeze, Unsqueeze and reductions with axes known only at run time.
        row("unsqueeze axes at run time", "Unsqueeze", "float32[3,4];int64[2]", "",
            "float32[?, ?, ?, ?]");
        row("reducesum axes at run time", "ReduceSum", "float32[2,3];int64[1]", "",
            "float32[?, ?]");
        row("reducesum axes at run time drop", "ReduceSum", "float32[2,3];int64[1]", "keepdims=0",
            "float32[?]");
    }

    void operators() {
        QFETCH(QString, op);
        QFETCH(QString, inputs);
        QFETCH(QString, attrs);
        QFETCH(QString, expected);
        std::string opName = op.toStdString();
        int numOutputs = 1;
        if (auto bar = opName.find('|'); bar != std::string::npos) {
            numOutputs = std::stoi(opName.substr(bar + 1));
            opName = opName.substr(0, bar);
        }
        Graph g = oneNode(opName, inputs.toStdString(), attrs.toStdString(), numOutputs);
        std::string got;
        try {
            g.verify();
            Graph typed = inferShapes(g);
            typed.verify();
            for (const auto& v : typed.outputs())
                got += (got.empty() ? "" : " | ") + v.type().str();
        } catch (const CompileError& e) {
            got = std::string("error: ") + e.what();
        }
        QCOMPARE(QString::fromStdString(got), expected);
    }

    void wholeGraphIsTypedInOrder() {
        Graph g("cnn");
        Value x = g.addInput("x", type("float32[?, 3, 32, 32]"));
        Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {16, 3, 3, 3}));
        Value fcW = g.addConstant("fc_w", Constant::zeros(DataType::float32(), {10, 16}));
        Value fcB = g.addConstant("fc_b", Constant::zeros(DataType::float32(), {10}));
        Attributes conv;
        conv.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        Value c = g.addOp("Conv", {x, w}, conv, "conv");
        Value r = g.addOp("Relu", {c}, {}, "relu");
        Attributes pool;
        pool.set("kernel_shape", std::vector<int64_t>{2, 2});
        pool.set("strides", std::vector<int64_t>{2, 2});
        Value p = g.addOp("MaxPool", {r}, pool, "pool");
        Value gap = g.addOp("GlobalAveragePool", {p}, {}, "gap");
        Value flat = g.addOp("Flatten", {gap}, {}, "flatten");
        Attributes gemm;
        gemm.set("transB", int64_t(1));
        Value y = g.addOp("Gemm", {flat, fcW, fcB}, gemm, "fc");
        g.setOutputs({y});

        Graph typed = inferShapes(g);
        typed.verify();
        std::vector<std::string> types;
        for (const auto& n : typed.nodes())
            types.push_back(n->outputTypes[0].str());
        QCOMPARE(types,
                 (std::vector<std::string>{"float32[?, 16, 32, 32]", "float32[?, 16, 32, 32]",
                                           "float32[?, 16, 16, 16]", "float32[?, 16, 1, 1]",
                                           "float32[?, 16]", "float32[?, 10]"}));
        QCOMPARE(typed.outputs()[0].type().str(), std::string("float32[?, 10]"));
        // Ids and names survive; the input graph is unchanged.
        for (size_t i = 0; i < typed.nodes().size(); ++i) {
            QCOMPARE(typed.nodes()[i]->id, g.nodes()[i]->id);
            QCOMPARE(typed.nodes()[i]->name, g.nodes()[i]->name);
            QVERIFY(!g.nodes()[i]->outputTypes[0].known());
        }
        // Running it again changes nothing: every node is shared.
        Graph again = inferShapes(typed);
        for (size_t i = 0; i < typed.nodes().size(); ++i)
            QVERIFY(again.nodes()[i].sameAs(typed.nodes()[i]));
    }

    void givenTypesAreMergedAndChecked() {
        // A node that already carries a type (an importer's value_info) lends
        // dims that inference leaves unknown, and must agree with the rest.
        Graph g;
        Value x = g.addInput("x", type("float32[?, 4]"));
        g.append(Node::makeOp(g.newId(), "Relu", {x}, {}, 1, "r", {type("float32[8, 4]")}));
        g.setOutputs({g.nodes()[0]->output()});
        QCOMPARE(inferShapes(g).outputs()[0].type().str(), std::string("float32[8, 4]"));

        Graph h;
        Value y = h.addInput("y", type("float32[2, 4]"));
        h.append(Node::makeOp(h.newId(), "Relu", {y}, {}, 1, "r", {type("float32[2, 5]")}));
        h.setOutputs({h.nodes()[0]->output()});
        try {
            inferShapes(h);
            QFAIL("expected a CompileError");
        } catch (const CompileError& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("node 'r' (Relu): output 0 is inferred as float32[2, 4], but the "
                                 "graph gives float32[2, 5]"));
        }
        InferShapesOptions replace;
        replace.mergeGivenTypes = false;
        QCOMPARE(inferShapes(h, replace).outputs()[0].type().str(), std::string("float32[2, 4]"));
    }

    void errorsNameTheFailingNode() {
        Graph g;
        Value a = g.addInput("a", type("float32[2, 3]"));
        Value b = g.addInput("b", type("float32[3, 3]"));
        Value r = g.addOp("Relu", {a}, {}, "first");
        g.setOutputs({g.addOp("Add", {r, b}, {}, "residual")});
        try {
            inferShapes(g);
            QFAIL("expected a CompileError");
        } catch (const CompileError& e) {
            QCOMPARE(std::string(e.what()), std::string("node 'residual' (Add): shapes float32[2, "
                                                        "3] and float32[3, 3] do not broadcast"));
        }
    }

    void helpers() {
        QCOMPARE(*broadcastShapes({8, 1, 6, 1}, {7, 1, 5}), (std::vector<int64_t>{8, 7, 6, 5}));
        QCOMPARE(*broadcastShapes({}, {3}), (std::vector<int64_t>{3}));
        QCOMPARE(*broadcastShapes({-1}, {1}), (std::vector<int64_t>{-1}));
        QVERIFY(!broadcastShapes({2}, {3}));
        QCOMPARE(*normalizeAxis(-1, 4), int64_t(3));
        QVERIFY(!normalizeAxis(4, 4));
        QVERIFY(!normalizeAxis(-5, 4));
    }
};

QTEST_APPLESS_MAIN(TestShapeInference)
#include "tst_shapeinference.moc"
