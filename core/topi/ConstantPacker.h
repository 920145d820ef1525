/// \file
/// Constants derived at compile time: the one callback a compute uses to turn
/// a weight it knows is constant into a re-laid-out copy (a blocked
/// convolution's OIHW[i]i[o]o kernel, a dense layer's 16-column panels), made
/// once when compiling instead of by a stage on every call.
///
/// The caller that knows the values of its tensors (the model compiler, which
/// lowers graphs whose weights are constants) implements it; a caller that
/// does not (a TE script, an operator test) passes none, and the compute
/// makes the same values with a TE stage instead.
#pragma once

#include "te/Tensor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::topi {

/// Writes the derived values: `source` holds the source tensor's elements
/// (row-major, its dtype), `out` the zero-filled destination.
using PackFunction = std::function<void(const void* source, void* out)>;

class ConstantPacker {
public:
    virtual ~ConstantPacker() = default;
    /// A new function argument `name` of `dtype` and `shape` holding `fill`
    /// applied to the values of `source`, or an undefined tensor when the
    /// values of `source` are not known at compile time. `fill` is called at
    /// most once, before this returns.
    virtual te::Tensor derive(const te::Tensor& source, const std::string& name, DataType dtype,
                              const std::vector<int64_t>& shape, const PackFunction& fill) = 0;
};

} // namespace tessel::topi
