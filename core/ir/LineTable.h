/// \file
/// Text with a line table: for every line, the node it was printed from.
///
/// Printers of every IR produce an AnnotatedText. The IDE links lines across
/// stages through these tables (TIR node -> TIR line -> LLVM debug location ->
/// assembly `.loc`), and codegen uses the TIR table to set debug locations.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

namespace tessel {

class Object;

struct AnnotatedText {
    std::string text;
    /// lineNode[i] is the node printed on line i+1 (nullptr for structural lines).
    std::vector<const Object*> lineNode;
    /// First line (1-based) where each node was printed.
    std::unordered_map<const Object*, int> nodeLine;

    int lineOf(const Object* n) const {
        auto it = nodeLine.find(n);
        return it == nodeLine.end() ? 0 : it->second;
    }
};

} // namespace tessel
