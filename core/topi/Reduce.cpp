// Reductions, softmax and the normalisations.
#include "topi/TopiUtil.h"

namespace tessel::topi {

void addReduceOps(std::vector<TopiOp>&) {}

} // namespace tessel::topi
