/// \file
/// storage-flatten: from N-d buffers to flat memory.
///
/// Schedule lowering produces N-d accesses: parameters are N-d buffers and
/// intermediates are BufferRealize regions whose bounds may start anywhere in
/// the buffer's index space (after compute_at). This pass turns every
/// BufferRealize into an Allocate of a 1-d buffer holding exactly the realized
/// region, and rewrites every BufferLoad/BufferStore to one row-major index
/// relative to the region's minimum. Parameter buffers become 1-d buffers of
/// their full size that keep the same `data` variable, so codegen still binds
/// the argument pointer by it.
///
/// A realization under `T.attr("buffer_dim_align", tvm_tuple(B, axis,
/// factor, offset))` (what te::Stage::storageAlign lowers to) gets a padded
/// stride for that axis: the smallest k * factor + offset at least the
/// row-major one, so that its region holds more elements than it uses (a
/// 32 x 32 shared tile aligned (0, 32, 1) is 32 rows of 33). Only regions of
/// constant extents are padded; the attribute goes.
#pragma once

#include "tir/IR.h"

namespace tessel::tir {

/// The attribute key of a storage_align() on the BufferRealize it wraps.
inline constexpr const char* kBufferDimAlign = "buffer_dim_align";

/// storage-flatten has no options yet; the struct keeps the pass signature uniform.
struct StorageFlattenOptions {};

/// Flattens all buffers of `f` (parameters and realizations) to one dimension.
PrimFunc storageFlatten(const PrimFunc& f, const StorageFlattenOptions& options = {});

} // namespace tessel::tir
