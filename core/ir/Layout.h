/// \file
/// Tensor layouts in TVM's notation: "NCHW" is plain (row-major, the axes as
/// ONNX orders them); "NCHW16c" splits the channel axis C into blocks of 16,
/// the block innermost (so one vector register holds 16 channels of one
/// pixel): a tensor of logical shape [1, 64, 56, 56] is stored as
/// [1, 4, 56, 56, 16]. Upper-case letters are the primal (logical) axes in
/// storage order; a number and a lower-case letter are a block of that many
/// elements of the primal axis of the same letter, placed where it appears.
/// "OIHW16i16o" is a convolution's packed weights.
///
/// A Layout maps between logical and stored shapes and indices. Every block
/// must divide its axis (tensors are never padded to a whole block). No LLVM,
/// no TE: the graph, topi and the runtime all read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel {

class Layout {
public:
    /// One stored axis: a primal axis ('C', factor 0) or a block of one ('c', factor 16).
    struct Axis {
        char name = 0;
        int64_t factor = 0; ///< 0 for a primal axis
        bool primal() const { return factor == 0; }
    };

    /// The empty layout: plain, of any rank (what a tensor without a layout has).
    Layout() = default;
    /// Parses "NCHW16c"; nullopt for malformed text (a block of an axis the
    /// layout does not have, a repeated axis, a zero factor, a block with no
    /// number).
    static std::optional<Layout> parse(std::string_view text);
    /// parse() that throws CompileError naming the text.
    static Layout of(std::string_view text);
    /// "NCHW" with the channel axis in blocks of `block` ("NCHW16c"); plain
    /// "NCHW" when block is 0 or 1.
    static Layout nchwc(int64_t block);

    bool empty() const { return axes_.empty(); }
    /// True when the layout has no blocks (stored shape == logical shape).
    bool plain() const;
    const std::vector<Axis>& axes() const { return axes_; }
    /// Rank of the stored tensor (axes, blocks included).
    int storedRank() const { return int(axes_.size()); }
    /// Rank of the logical tensor (primal axes).
    int logicalRank() const;
    /// The layout with its blocks removed ("NCHW16c" -> "NCHW").
    Layout primal() const;
    /// The block of primal axis `axis` ('C' -> 16 in NCHW16c); 0 when it has none.
    int64_t blockOf(char axis) const;
    /// Position of primal axis `axis` in the logical shape ('C' -> 1 in NCHW16c); -1 when absent.
    int logicalIndexOf(char axis) const;
    /// Position of stored axis `name` (primal or block letter); -1 when absent.
    int storedIndexOf(char name) const;

    /// The stored shape of a tensor of logical shape `logical` (primal order);
    /// nullopt when the rank differs or a block does not divide its axis.
    std::optional<std::vector<int64_t>> storedShape(const std::vector<int64_t>& logical) const;
    /// The logical shape of a tensor stored as `stored`; nullopt when the rank differs.
    std::optional<std::vector<int64_t>> logicalShape(const std::vector<int64_t>& stored) const;

    /// The stored index of the element at logical index `logical`, for
    /// tensors of logical shape `logicalShape` (whose axes the blocks divide).
    std::vector<int64_t> storedIndex(const std::vector<int64_t>& logical) const;
    /// The logical index of the element at stored index `stored`.
    std::vector<int64_t> logicalIndex(const std::vector<int64_t>& stored) const;

    /// Whether `other` has the same primal axes in the same order (then a
    /// tensor can be transformed between the two).
    bool convertibleTo(const Layout& other) const;

    /// "NCHW16c"; empty for the empty layout.
    std::string str() const;
    bool operator==(const Layout& o) const { return str() == o.str(); }
    bool operator!=(const Layout& o) const { return !(*this == o); }

private:
    std::vector<Axis> axes_;
};

} // namespace tessel
