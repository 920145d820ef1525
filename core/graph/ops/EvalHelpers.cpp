#include "graph/ops/EvalHelpers.h"

namespace tessel::graph::ops {

int64_t product(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s)
        n *= d;
    return n;
}

Shape stridesOf(const Shape& s) {
    Shape st(s.size(), 1);
    for (size_t d = s.size(); d-- > 1;)
        st[d - 1] = st[d] * s[d];
    return st;
}

std::vector<int64_t> broadcastIndex(const Shape& in, const Shape& out) {
    const size_t r = out.size();
    Shape padded(r - in.size(), 1);
    padded.insert(padded.end(), in.begin(), in.end());
    Shape step = stridesOf(padded);
    for (size_t d = 0; d < r; ++d)
        if (padded[d] == 1) step[d] = 0;
    std::vector<int64_t> index(static_cast<size_t>(product(out)));
    Shape pos(r, 0);
    int64_t offset = 0;
    for (auto& ix : index) {
        ix = offset;
        for (size_t d = r; d-- > 0;) {
            offset += step[d];
            if (++pos[d] < out[d]) break;
            offset -= step[d] * out[d];
            pos[d] = 0;
        }
    }
    return index;
}

std::vector<int64_t> stridedIndex(const Shape& out, const Shape& base, const Shape& step,
                                  const Shape& stride) {
    const size_t r = out.size();
    std::vector<int64_t> index(static_cast<size_t>(product(out)));
    Shape pos(r, 0);
    int64_t offset = 0;
    for (size_t d = 0; d < r; ++d)
        offset += base[d] * stride[d];
    for (auto& ix : index) {
        ix = offset;
        for (size_t d = r; d-- > 0;) {
            offset += step[d] * stride[d];
            if (++pos[d] < out[d]) break;
            offset -= step[d] * stride[d] * out[d];
            pos[d] = 0;
        }
    }
    return index;
}

Ref<Constant> gatherBytes(const Constant& src, DataType dtype, Shape shape,
                          const std::vector<int64_t>& index) {
    const size_t size = static_cast<size_t>(dtype.bytes());
    std::vector<uint8_t> bytes(index.size() * size);
    for (size_t k = 0; k < index.size(); ++k)
        std::memcpy(bytes.data() + k * size,
                    src.bytes.data() + static_cast<size_t>(index[k]) * size, size);
    return Constant::make(dtype, std::move(shape), std::move(bytes));
}

EvalResult sameBytes(const EvalContext& e) {
    return one(Constant::make(e.output().dtype, e.output().shape, e.input(0).bytes));
}

} // namespace tessel::graph::ops
