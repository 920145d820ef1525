/// \file
/// The default schedule of a fused function on a GPU (TVM's
/// schedule_injective / the fallback of its CUDA strategies): element-wise
/// stages inlined into their consumers; every stage that remains (outputs,
/// reductions) at root, its data-parallel axes fused and split into blocks
/// of `threadsPerBlock` threads (blockIdx.x, threadIdx.x), each thread
/// computing one output element (a reduction's axes are loops in it). Each
/// such stage is one kernel. Correct for every operator class and as fast
/// as memory allows for the injective ones; convolution and matmul need
/// templates with shared-memory tiles (the GPU GEMM ladder) to be fast.
#pragma once

#include "te/Schedule.h"
#include "te/Tensor.h"

#include <vector>

namespace tessel::topi {

te::Schedule scheduleFusedGpu(const std::vector<te::Tensor>& outputs, int threadsPerBlock = 256);

} // namespace tessel::topi
