/// \file
/// The operator library (TVM's topi): computes that build tensor expressions
/// from tensors and typed parameter structs, and the schedules that make the
/// fused functions fast. It knows nothing of graphs: the model compiler
/// reaches it through the graph adapter in core/lower (lower/Strategy.h), a
/// TE script or a tuning template calls it directly.
///
/// - Elementwise.h: topi::add, topi::relu, topi::cast, topi::clip, topi::where ...
/// - Nn.h: nn::conv / conv2d, nn::convTranspose, nn::pool / pool2d, nn::globalPool,
///   nn::gemm, nn::dense, nn::matmul, nn::batchNorm
/// - Conv2dNCHWc.h, DensePacked.h: the blocked convolution and the packed dense
///   layer, with their schedules; ConstantPacker.h: how they get packed weights;
///   ConvIntegerNCHWc.h: the int8 convolution (ConvInteger) in channel-pair blocks
/// - Reduce.h: topi::reduce, nn::softmax, nn::logSoftmax, nn::layerNorm, nn::instanceNorm
/// - Transform.h: transform::reshape, transpose, concatenate, split, stridedSlice,
///   gather, pad, broadcastTo, tile, resize, depthToSpace, spaceToDepth, shapeOf,
///   sizeOf, full, arange
/// - Schedule.h: the default schedule of a fused function, driven by the
///   stages' tags (Tags.h)
///
/// Every shape is static. A compute throws CompileError for parameters it
/// cannot take (the graph adapter adds the node's name to the message).
#pragma once

#include "topi/ConstantPacker.h"
#include "topi/Conv2dNCHWc.h"
#include "topi/ConvIntegerNCHWc.h"
#include "topi/DensePacked.h"
#include "topi/Einsum.h"
#include "topi/Elementwise.h"
#include "topi/Index.h"
#include "topi/Loss.h"
#include "topi/Quantize.h"
#include "topi/Nn.h"
#include "topi/Reduce.h"
#include "topi/Schedule.h"
#include "topi/Signal.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"
#include "topi/Transform.h"
