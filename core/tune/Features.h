/// \file
/// Features of a configuration for a cost model (AutoTVM's feature types):
/// what a model learns from instead of the configuration itself, so that it
/// can rank configurations it has not measured and carry what it learned to
/// other workloads of the same operator.
///
/// Three kinds, each a fixed-length float vector (NaN where a feature does
/// not exist, e.g. a loop slot deeper than the kernel's nest):
///
/// - "itervar" (the default): loop features of the lowered TIR
///   (Task::featureFunction: flattened, loops still annotated). The kernel's
///   hot statement, the store executed most often (a GEMM's or a
///   convolution's accumulation), and the loops around it describe the
///   schedule: per loop its extent, annotation, nesting depth, and for each
///   buffer the statement touches the loop variable's stride in it and how
///   many accesses, distinct elements and reuses one run of the loop makes.
///   Slots are aligned from the innermost loop, so the micro-kernels of two
///   configurations line up whatever the depth of their outer loops. The
///   global features before the slots describe the whole function.
///   itervarFeatureNames() names every position; Features.cpp documents how
///   each is computed.
/// - "knob": the configuration itself: per knob its choice index, then its
///   value as numbers (a split's factors, a reorder's permutation, an
///   annotation's code per axis: none 0, unroll 1, vec 2; a knob's value:
///   bools 0/1, numbers as they are, strings by their position in the
///   choices). Cheap (no lowering), but means something only within one
///   template.
/// - "curve": per buffer of the hot statement, the reuse and the footprint
///   as curves over the number of touches (log2 scales), sampled at fixed
///   points across the loop levels: a summary of the memory behaviour that
///   has the same length whatever the nest looks like.
///
/// Magnitudes (extents, counts, strides, bytes) enter as log2(1 + x).
#pragma once

#include "te/ConfigSpace.h"
#include "tir/IR.h"
#include "tune/Space.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::tune {

enum class FeatureKind : uint8_t { Itervar, Knob, Curve };

/// "itervar", "knob", "curve".
const char* featureKindName(FeatureKind kind);
std::optional<FeatureKind> featureKindFromName(std::string_view name);

struct FeatureOptions {
    /// Loop slots of the hot nest (innermost first); deeper loops are dropped.
    int maxLoops = 10;
    /// Buffers of the hot statement (the stored one, then loads in order).
    int maxBuffers = 5;
    /// Points each curve is sampled at (log2 touches 0, 2, 4, ...).
    int curveSamples = 20;
};

/// The "itervar" features of `f` (itervarFeatureNames() long).
std::vector<float> itervarFeatures(const tir::PrimFunc& f, const FeatureOptions& options = {});
std::vector<std::string> itervarFeatureNames(const FeatureOptions& options = {});

/// The "curve" features of `f` (curveFeatureNames() long).
std::vector<float> curveFeatures(const tir::PrimFunc& f, const FeatureOptions& options = {});
std::vector<std::string> curveFeatureNames(const FeatureOptions& options = {});

/// The "knob" features of the configuration `choices` of `knobs`.
std::vector<float> knobFeatures(const std::vector<te::Knob>& knobs, const Space::Choices& choices);
std::vector<std::string> knobFeatureNames(const std::vector<te::Knob>& knobs);

/// Whether a kind needs the lowered function (itervar, curve) or only the
/// configuration (knob).
bool needsLowering(FeatureKind kind);

} // namespace tessel::tune
