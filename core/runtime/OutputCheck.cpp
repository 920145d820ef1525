#include "runtime/OutputCheck.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace tessel::runtime {

OutputCheck checkOutputs(const std::vector<NDArray>& got, const std::vector<NDArray>& want, double tolerance) {
    OutputCheck r;
    if (got.size() != want.size()) {
        r.ok = false;
        r.message = "the kernel has " + std::to_string(got.size()) + " outputs, the reference " +
                    std::to_string(want.size());
        return r;
    }
    for (size_t o = 0; o < want.size(); ++o) {
        double maxAbs = 0;
        for (int64_t i = 0; i < want[o].numElements(); ++i) {
            const double v = std::fabs(want[o].at(i));
            if (std::isfinite(v)) maxAbs = std::max(maxAbs, v);
        }
        const double atol = tolerance * std::max(maxAbs, 1e-30);
        const CompareResult c = compare(got[o], want[o], 0.0, atol);
        r.maxAbsErr = std::max(r.maxAbsErr, c.maxAbsError);
        r.maxRelErr = std::max(r.maxRelErr, c.maxRelError);
        if (r.ok && (!c.shapesMatch || !c.allClose)) {
            r.ok = false;
            std::ostringstream os;
            os.precision(3);
            os << "output " << o << " differs from the reference schedule's: ";
            if (!c.shapesMatch) os << got[o].str() << " against " << want[o].str();
            else os << c.str() << " (allowed " << atol << " = " << tolerance << " x max |reference| " << maxAbs << ")";
            r.message = os.str();
        }
    }
    return r;
}

} // namespace tessel::runtime
