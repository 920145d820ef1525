// Einsum as one compute over the equation's letters.
#include "topi/Einsum.h"

#include "ir/AxisMath.h"
#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

#include <map>

namespace tessel::topi {

using namespace tir;

Tensor einsum(const std::string& equation, const std::vector<Tensor>& inputs, const std::string& name) {
    if (inputs.empty()) throw CompileError("einsum needs at least one operand");
    std::vector<int64_t> ranks;
    std::vector<std::vector<int64_t>> shapes;
    for (auto& t : inputs) {
        ranks.push_back(t.ndim());
        shapes.push_back(staticShape(t));
    }
    const EinsumTerms terms = parseEinsum(equation, ranks);
    if (!terms.error.empty()) throw CompileError("einsum '" + equation + "': " + terms.error);
    std::map<char, int64_t> extent;
    for (size_t k = 0; k < inputs.size(); ++k)
        for (size_t d = 0; d < terms.inputs[k].size(); ++d) {
            int64_t& e = extent.emplace(terms.inputs[k][d], 1).first->second;
            const int64_t n = shapes[k][d];
            if (e != 1 && n != 1 && e != n)
                throw CompileError(std::string("einsum: axis '") + terms.inputs[k][d] + "' has extents " +
                                   std::to_string(e) + " and " + std::to_string(n));
            e = std::max(e, n);
        }
    std::vector<int64_t> outShape;
    for (char c : terms.output)
        outShape.push_back(extent[c]);
    std::string summed;
    for (auto& [c, n] : extent)
        if (terms.output.find(c) == std::string::npos) summed += c;
    const DataType t = inputs[0]->dtype;
    return te::compute(
        toExprs(outShape),
        [&](const std::vector<Var>& i) {
            std::map<char, Expr> at;
            for (size_t d = 0; d < terms.output.size(); ++d)
                at[terms.output[d]] = i[d];
            std::vector<tir::IterVar> rv;
            for (char c : summed) {
                rv.push_back(te::reduceAxis(tir::Range(intImm(0), intImm(extent[c])), std::string("r") + c));
                at[c] = rv.back()->var;
            }
            Expr product;
            for (size_t k = 0; k < inputs.size(); ++k) {
                std::vector<Expr> idx;
                for (size_t d = 0; d < terms.inputs[k].size(); ++d)
                    idx.push_back(shapes[k][d] == 1 ? intImm(0) : at[terms.inputs[k][d]]);
                Expr v = inputs[k](idx);
                if (v.type() != t) v = tir::cast(t, v);
                product = product.defined() ? product * v : v;
            }
            return rv.empty() ? product : te::sum(product, rv);
        },
        name, summed.empty() ? tag::kBroadcast : tag::kReduce);
}

} // namespace tessel::topi
