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
///
/// One exception, chosen by the workload: a function of one output, all of
/// it injective, whose innermost axis walks some input across its rows (a
/// transpose of that input's last axis with another, whatever else is
/// fused: the output's variable j moves the input along a non-innermost
/// axis, and another output variable i moves it along its innermost one,
/// each with coefficient 1). One thread per output would then read that
/// input with a stride. Instead each block stages a 32 x 32 tile of it (i
/// and j in blocks of 32, the other axes one element a block) in shared
/// memory: 8 x 32 threads load it along the input's rows (coalesced), each
/// row padded to 33 elements (storage_align) so that the threads then
/// reading down a column hit 32 different banks, and write the output
/// along its rows (coalesced), 4 rows a thread. Both axes must be at least
/// 16 long; edges not a multiple of 32 are guarded. One kernel.
#pragma once

#include "te/Schedule.h"
#include "te/Tensor.h"

#include <vector>

namespace tessel::topi {

te::Schedule scheduleFusedGpu(const std::vector<te::Tensor>& outputs, int threadsPerBlock = 256);

/// True when scheduleFusedGpu() gives `outputs` the tiled transpose above.
bool tiledTransposeApplies(const std::vector<te::Tensor>& outputs);

} // namespace tessel::topi
