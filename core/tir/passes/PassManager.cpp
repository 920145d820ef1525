#include "tir/passes/PassManager.h"

#include "tir/IRPrinter.h"

#include <algorithm>

namespace tessel::pass {

bool IRTraits<tir::PrimFunc>::sameNodes(const tir::PrimFunc& a, const tir::PrimFunc& b) {
    if (a.sameAs(b)) return true;
    if (!a.defined() || !b.defined()) return false;
    return a->body.sameAs(b->body) && a->name == b->name && a->params.size() == b->params.size() &&
           std::equal(a->params.begin(), a->params.end(), b->params.begin(),
                      [](const tir::Buffer& x, const tir::Buffer& y) { return x.sameAs(y); });
}

AnnotatedText IRTraits<tir::PrimFunc>::print(const tir::PrimFunc& f) { return tir::printPrimFunc(f); }

} // namespace tessel::pass
