#include "graph/Graph.h"

#include "graph/OpRegistry.h"
#include "ir/AxisMath.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "ir/Layout.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace tessel::graph {

// --- TensorType --------------------------------------------------------------

bool TensorType::isStatic() const {
    for (int64_t d : shape)
        if (d < 0) return false;
    return known();
}

int64_t TensorType::numElements() const {
    int64_t n = 1;
    for (int64_t d : shape) {
        if (d < 0) return -1;
        n = saturatingMul(n, d);
    }
    return n;
}

bool tooManyElements(const TensorType& t) {
    int64_t n = 1;
    for (int64_t d : t.shape)
        if (d >= 0) n = saturatingMul(n, d);
    return n > kMaxTensorElements;
}

TensorType TensorType::logical() const {
    if (layout.empty()) return *this;
    auto l = Layout::of(layout).logicalShape(shape);
    TESSEL_CHECK(l.has_value(), "type " + str() + ": the shape does not fit its layout");
    return TensorType(dtype, *l);
}

std::optional<TensorType> TensorType::inLayout(const std::string& target) const {
    TensorType plain = logical();
    if (target.empty()) return plain;
    const Layout l = Layout::of(target);
    auto stored = l.storedShape(plain.shape);
    if (!stored) return std::nullopt;
    return TensorType(dtype, *stored, l.plain() ? std::string() : target);
}

std::string TensorType::str() const {
    if (!known()) return "?";
    std::string s = dtype.str() + (layout.empty() ? "" : "<" + layout + ">") + "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
    }
    return s + "]";
}

std::optional<TensorType> TensorType::parse(std::string_view text) {
    std::string t;
    for (char c : text)
        if (c != ' ') t += c;
    if (t == "?") return TensorType{};
    auto open = t.find('[');
    if (open == std::string::npos || t.back() != ']') return std::nullopt;
    std::string layout;
    size_t dtypeEnd = open;
    if (auto lt = t.find('<'); lt != std::string::npos && lt < open) {
        if (t[open - 1] != '>' || !Layout::parse(t.substr(lt + 1, open - lt - 2))) return std::nullopt;
        layout = t.substr(lt + 1, open - lt - 2);
        dtypeEnd = lt;
    }
    auto dtype = DataType::parse(t.substr(0, dtypeEnd));
    if (!dtype) return std::nullopt;
    TensorType result(*dtype, {}, layout);
    std::string body = t.substr(open + 1, t.size() - open - 2);
    if (body.empty()) return layout.empty() ? std::optional<TensorType>(result) : std::nullopt;
    size_t pos = 0;
    while (pos <= body.size()) {
        size_t comma = body.find(',', pos);
        if (comma == std::string::npos) comma = body.size();
        std::string dim = body.substr(pos, comma - pos);
        if (dim == "?") {
            result.shape.push_back(-1);
        } else {
            int64_t v = 0;
            auto [p, ec] = std::from_chars(dim.data(), dim.data() + dim.size(), v);
            if (ec != std::errc() || p != dim.data() + dim.size() || v < -1) return std::nullopt;
            result.shape.push_back(v);
        }
        pos = comma + 1;
    }
    if (!result.layout.empty()) {
        // The stored shape must be one the layout gives: its rank, and each block's extent.
        const Layout l = Layout::of(result.layout);
        if (l.storedRank() != result.rank()) return std::nullopt;
        for (size_t a = 0; a < result.shape.size(); ++a)
            if (!l.axes()[a].primal() && result.shape[a] != l.axes()[a].factor) return std::nullopt;
    }
    return result;
}

std::optional<DataType> dataTypeFromOnnx(int64_t code) {
    switch (code) {
    case 1:
        return DataType::float32();
    case 2:
        return DataType(DataType::Code::UInt, 8);
    case 3:
        return DataType(DataType::Code::Int, 8);
    case 4:
        return DataType(DataType::Code::UInt, 16);
    case 5:
        return DataType(DataType::Code::Int, 16);
    case 6:
        return DataType::int32();
    case 7:
        return DataType::int64();
    case 9:
        return DataType::boolean();
    case 10:
        return DataType(DataType::Code::Float, 16);
    case 11:
        return DataType::float64();
    case 12:
        return DataType(DataType::Code::UInt, 32);
    case 13:
        return DataType(DataType::Code::UInt, 64);
    default:
        return std::nullopt;
    }
}

// --- Constant ----------------------------------------------------------------

namespace {

int64_t product(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n = saturatingMul(n, d);
    return n;
}

template <class T> void store(std::vector<uint8_t>& bytes, size_t i, T v) {
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
}
template <class T> T load(const std::vector<uint8_t>& bytes, size_t i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    return v;
}

/// Calls f(element as double or int64) for element i of a buffer.
template <class R> R element(const Constant& c, size_t i) {
    const DataType t = c.dtype;
    if (t.isFloat()) {
        if (t.bits() == 32) return static_cast<R>(load<float>(c.bytes, i));
        if (t.bits() == 64) return static_cast<R>(load<double>(c.bytes, i));
        TESSEL_CHECK(false, "float16 constants cannot be read as numbers yet");
    }
    if (t.isBool()) return static_cast<R>(load<uint8_t>(c.bytes, i));
    const bool s = t.isInt();
    switch (t.bits()) {
    case 8:
        return s ? static_cast<R>(load<int8_t>(c.bytes, i))
                 : static_cast<R>(load<uint8_t>(c.bytes, i));
    case 16:
        return s ? static_cast<R>(load<int16_t>(c.bytes, i))
                 : static_cast<R>(load<uint16_t>(c.bytes, i));
    case 32:
        return s ? static_cast<R>(load<int32_t>(c.bytes, i))
                 : static_cast<R>(load<uint32_t>(c.bytes, i));
    case 64:
        return s ? static_cast<R>(load<int64_t>(c.bytes, i))
                 : static_cast<R>(load<uint64_t>(c.bytes, i));
    }
    TESSEL_CHECK(false, "constant of unsupported type " + t.str());
    return R();
}

} // namespace

Ref<Constant> Constant::make(DataType dtype, std::vector<int64_t> shape,
                             std::vector<uint8_t> bytes) {
    for (int64_t d : shape)
        TESSEL_CHECK(d >= 0, "constant with a negative dimension");
    TESSEL_CHECK(dtype.isScalar() && !dtype.isVoid() && !dtype.isHandle(),
                 "constant of type " + dtype.str());
    TESSEL_CHECK(static_cast<int64_t>(bytes.size()) == product(shape) * dtype.bytes(),
                 "constant buffer of " + std::to_string(bytes.size()) + " bytes for " +
                     TensorType(dtype, shape).str());
    Ref<Constant> c(new Constant());
    auto* m = const_cast<Constant*>(c.get());
    m->dtype = dtype;
    m->shape = std::move(shape);
    m->bytes = std::move(bytes);
    return c;
}

Ref<Constant> Constant::inLayout(const std::string& target) const {
    const TensorType from = type(), logicalType = from.logical();
    auto to = logicalType.inLayout(target);
    if (!to) throw CompileError("constant " + from.str() + " cannot be stored as " + target);
    if (*to == from) return Ref<Constant>(const_cast<Constant*>(this));
    const Layout src = from.blocked() ? Layout::of(from.layout) : Layout();
    const Layout dst = to->blocked() ? Layout::of(to->layout) : Layout();
    const size_t elem = static_cast<size_t>(dtype.bytes());
    std::vector<uint8_t> out(bytes.size());
    // Walk the logical index space; each element moves from its stored
    // position in `from` to its stored position in `to`.
    const auto& lshape = logicalType.shape;
    auto flat = [](const std::vector<int64_t>& idx, const std::vector<int64_t>& shape) {
        int64_t f = 0;
        for (size_t d = 0; d < shape.size(); ++d) f = f * shape[d] + idx[d];
        return f;
    };
    std::vector<int64_t> idx(lshape.size(), 0);
    const int64_t n = product(lshape);
    for (int64_t e = 0; e < n; ++e) {
        const auto s = src.empty() ? idx : src.storedIndex(idx);
        const auto d = dst.empty() ? idx : dst.storedIndex(idx);
        std::memcpy(out.data() + size_t(flat(d, to->shape)) * elem, bytes.data() + size_t(flat(s, from.shape)) * elem,
                    elem);
        for (size_t k = lshape.size(); k-- > 0;) {
            if (++idx[k] < lshape[k]) break;
            idx[k] = 0;
        }
    }
    Ref<Constant> c = make(dtype, to->shape, std::move(out));
    const_cast<Constant*>(c.get())->layout = to->layout;
    return c;
}

Ref<Constant> Constant::fromFloats(std::vector<int64_t> shape, const std::vector<double>& values,
                                   DataType dtype) {
    TESSEL_CHECK(dtype.isFloat() && (dtype.bits() == 32 || dtype.bits() == 64),
                 "fromFloats with type " + dtype.str());
    TESSEL_CHECK(static_cast<int64_t>(values.size()) == product(shape), "fromFloats: wrong count");
    std::vector<uint8_t> bytes(values.size() * dtype.bytes());
    for (size_t i = 0; i < values.size(); ++i) {
        if (dtype.bits() == 32)
            store<float>(bytes, i, static_cast<float>(values[i]));
        else
            store<double>(bytes, i, values[i]);
    }
    return make(dtype, std::move(shape), std::move(bytes));
}

Ref<Constant> Constant::fromInts(std::vector<int64_t> shape, const std::vector<int64_t>& values,
                                 DataType dtype) {
    TESSEL_CHECK(dtype.isIntOrUInt(), "fromInts with type " + dtype.str());
    TESSEL_CHECK(static_cast<int64_t>(values.size()) == product(shape), "fromInts: wrong count");
    std::vector<uint8_t> bytes(values.size() * dtype.bytes());
    for (size_t i = 0; i < values.size(); ++i) {
        switch (dtype.bytes()) {
        case 1:
            store<uint8_t>(bytes, i, static_cast<uint8_t>(values[i]));
            break;
        case 2:
            store<uint16_t>(bytes, i, static_cast<uint16_t>(values[i]));
            break;
        case 4:
            store<uint32_t>(bytes, i, static_cast<uint32_t>(values[i]));
            break;
        default:
            store<uint64_t>(bytes, i, static_cast<uint64_t>(values[i]));
            break;
        }
    }
    return make(dtype, std::move(shape), std::move(bytes));
}

Ref<Constant> Constant::zeros(DataType dtype, std::vector<int64_t> shape) {
    std::vector<uint8_t> bytes(static_cast<size_t>(product(shape) * dtype.bytes()), 0);
    return make(dtype, std::move(shape), std::move(bytes));
}

int64_t Constant::numElements() const {
    return product(shape);
}

std::vector<int64_t> Constant::toInts() const {
    std::vector<int64_t> out(static_cast<size_t>(numElements()));
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = element<int64_t>(*this, i);
    return out;
}

std::vector<double> Constant::toDoubles() const {
    std::vector<double> out(static_cast<size_t>(numElements()));
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = element<double>(*this, i);
    return out;
}

// --- Attributes --------------------------------------------------------------

AttrKind attrKind(const AttrValue& v) {
    return static_cast<AttrKind>(v.index());
}

const char* attrKindName(AttrKind k) {
    switch (k) {
    case AttrKind::Int:
        return "int";
    case AttrKind::Float:
        return "float";
    case AttrKind::String:
        return "string";
    case AttrKind::Ints:
        return "ints";
    case AttrKind::Floats:
        return "floats";
    case AttrKind::Tensor:
        return "tensor";
    }
    return "?";
}

namespace {

std::string floatStr(double d) {
    std::ostringstream os;
    os.precision(9);
    os << d;
    std::string s = os.str();
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

} // namespace

std::string attrValueStr(const AttrValue& v) {
    switch (attrKind(v)) {
    case AttrKind::Int:
        return std::to_string(std::get<int64_t>(v));
    case AttrKind::Float:
        return floatStr(std::get<double>(v));
    case AttrKind::String:
        return "\"" + std::get<std::string>(v) + "\"";
    case AttrKind::Ints: {
        std::string s = "[";
        const auto& l = std::get<std::vector<int64_t>>(v);
        for (size_t i = 0; i < l.size(); ++i)
            s += (i ? ", " : "") + std::to_string(l[i]);
        return s + "]";
    }
    case AttrKind::Floats: {
        std::string s = "[";
        const auto& l = std::get<std::vector<double>>(v);
        for (size_t i = 0; i < l.size(); ++i)
            s += (i ? ", " : "") + floatStr(l[i]);
        return s + "]";
    }
    case AttrKind::Tensor: {
        const auto& c = std::get<Ref<Constant>>(v);
        return "tensor " + (c ? c->type().str() : std::string("null"));
    }
    }
    return "?";
}

void Attributes::set(const std::string& name, AttrValue value) {
    for (auto& e : entries_)
        if (e.first == name) {
            e.second = std::move(value);
            return;
        }
    entries_.emplace_back(name, std::move(value));
}

bool Attributes::erase(const std::string& name) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->first == name) {
            entries_.erase(it);
            return true;
        }
    return false;
}

const AttrValue* Attributes::find(const std::string& name) const {
    for (const auto& e : entries_)
        if (e.first == name) return &e.second;
    return nullptr;
}

namespace {

[[noreturn]] void wrongKind(const std::string& name, const AttrValue& v, AttrKind expected) {
    throw CompileError("attribute '" + name + "' is " + attrKindName(attrKind(v)) + " " +
                       attrValueStr(v) + ", expected " + attrKindName(expected));
}

template <class T>
T getAs(const Attributes& a, const std::string& name, const T& fallback, AttrKind kind) {
    const AttrValue* v = a.find(name);
    if (!v) return fallback;
    if (const T* t = std::get_if<T>(v)) return *t;
    wrongKind(name, *v, kind);
}

} // namespace

int64_t Attributes::getInt(const std::string& name, int64_t fallback) const {
    return getAs<int64_t>(*this, name, fallback, AttrKind::Int);
}

double Attributes::getFloat(const std::string& name, double fallback) const {
    const AttrValue* v = find(name);
    if (v)
        if (const int64_t* i = std::get_if<int64_t>(v)) return static_cast<double>(*i);
    return getAs<double>(*this, name, fallback, AttrKind::Float);
}

std::string Attributes::getString(const std::string& name, const std::string& fallback) const {
    return getAs<std::string>(*this, name, fallback, AttrKind::String);
}

std::vector<int64_t> Attributes::getInts(const std::string& name,
                                         const std::vector<int64_t>& fallback) const {
    return getAs<std::vector<int64_t>>(*this, name, fallback, AttrKind::Ints);
}

std::vector<double> Attributes::getFloats(const std::string& name,
                                          const std::vector<double>& fallback) const {
    const AttrValue* v = find(name);
    if (v)
        if (const auto* i = std::get_if<std::vector<int64_t>>(v))
            return std::vector<double>(i->begin(), i->end());
    return getAs<std::vector<double>>(*this, name, fallback, AttrKind::Floats);
}

Ref<Constant> Attributes::getTensor(const std::string& name) const {
    return getAs<Ref<Constant>>(*this, name, Ref<Constant>(), AttrKind::Tensor);
}

std::string Attributes::str() const {
    if (entries_.empty()) return {};
    std::string s = "{";
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (i) s += ", ";
        s += entries_[i].first + "=" + attrValueStr(entries_[i].second);
    }
    return s + "}";
}

bool Attributes::operator==(const Attributes& o) const {
    if (entries_.size() != o.entries_.size()) return false;
    for (size_t i = 0; i < entries_.size(); ++i) {
        const auto& a = entries_[i];
        const auto& b = o.entries_[i];
        if (a.first != b.first || a.second.index() != b.second.index()) return false;
        if (const auto* t = std::get_if<Ref<Constant>>(&a.second)) {
            const auto& u = std::get<Ref<Constant>>(b.second);
            if (t->get() != u.get() &&
                (!*t || !u || (*t)->type() != u->type() || (*t)->bytes != u->bytes))
                return false;
        } else {
            bool same = std::visit(
                [&](const auto& x) {
                    using T = std::decay_t<decltype(x)>;
                    if constexpr (std::is_same_v<T, Ref<Constant>>)
                        return true;
                    else
                        return x == std::get<T>(b.second);
                },
                a.second);
            if (!same) return false;
        }
    }
    return true;
}

// --- Value -------------------------------------------------------------------

const TensorType& Value::type() const {
    TESSEL_CHECK(defined(), "type() of an absent value");
    return producer_->outputTypes[static_cast<size_t>(index_)];
}

const std::string& Value::name() const {
    TESSEL_CHECK(defined(), "name() of an absent value");
    if (producer_->kind != NodeKind::Op) return producer_->name;
    return producer_->outputNames[static_cast<size_t>(index_)];
}

bool Value::isInput() const {
    return defined() && producer_->kind == NodeKind::Input;
}
bool Value::isConstant() const {
    return defined() && producer_->kind == NodeKind::Constant;
}
Ref<Constant> Value::constant() const {
    return isConstant() ? producer_->constant : Ref<Constant>();
}

// --- Node --------------------------------------------------------------------

Ref<Node> Node::makeOp(int64_t id, std::string op, std::vector<Value> inputs, Attributes attrs,
                       int numOutputs, std::string name, std::vector<TensorType> outputTypes,
                       std::vector<std::string> outputNames) {
    TESSEL_CHECK(!op.empty(), "operator node without an operator name");
    TESSEL_CHECK(numOutputs >= 1, "operator node " + op + " with no outputs");
    if (outputTypes.empty()) outputTypes.resize(static_cast<size_t>(numOutputs));
    if (outputNames.empty()) outputNames.resize(static_cast<size_t>(numOutputs));
    TESSEL_CHECK(static_cast<int>(outputTypes.size()) == numOutputs &&
                     static_cast<int>(outputNames.size()) == numOutputs,
                 "operator node " + op + ": output types/names do not match the output count");
    Node* n = new Node();
    n->kind = NodeKind::Op;
    n->id = id;
    n->op = std::move(op);
    n->name = std::move(name);
    n->inputs = std::move(inputs);
    n->attrs = std::move(attrs);
    n->outputTypes = std::move(outputTypes);
    n->outputNames = std::move(outputNames);
    return Ref<Node>(n);
}

Ref<Node> Node::makeOpaque(int64_t id, std::string op, std::string domain,
                           std::vector<Value> inputs, Attributes attrs,
                           std::vector<Subgraph> subgraphs, std::string reason, std::string name,
                           std::vector<TensorType> outputTypes,
                           std::vector<std::string> outputNames) {
    TESSEL_CHECK(!reason.empty(), "opaque node " + op + " without a reason");
    const int numOutputs = static_cast<int>(std::max(outputTypes.size(), outputNames.size()));
    Ref<Node> made = makeOp(id, std::move(op), std::move(inputs), std::move(attrs),
                            std::max(numOutputs, 1), std::move(name), std::move(outputTypes),
                            std::move(outputNames));
    Node* n = const_cast<Node*>(made.get()); // still private to this factory
    n->domain = std::move(domain);
    n->subgraphs = std::move(subgraphs);
    n->unsupported = std::move(reason);
    return made;
}

Ref<Node> Node::makeControlFlow(int64_t id, std::string op, std::vector<Value> inputs,
                                Attributes attrs, std::vector<Subgraph> subgraphs, std::string name,
                                std::vector<std::string> outputNames) {
    const int numOutputs = static_cast<int>(outputNames.size());
    Ref<Node> made = makeOp(id, std::move(op), std::move(inputs), std::move(attrs),
                            std::max(numOutputs, 1), std::move(name), {}, std::move(outputNames));
    const_cast<Node*>(made.get())->subgraphs = std::move(subgraphs); // still private here
    TESSEL_CHECK(made->numOwnInputs() >= 0, "control-flow node with fewer inputs than outer values");
    return made;
}

int Node::numOwnInputs() const {
    if (opaque()) return static_cast<int>(inputs.size()); // shown only: outer values are not inputs
    size_t outer = 0;
    for (const auto& s : subgraphs) outer += s.outer.size();
    return static_cast<int>(inputs.size()) - static_cast<int>(outer);
}

Ref<Node> Node::makeUnsupportedInput(int64_t id, std::string name, std::string reason) {
    TESSEL_CHECK(!reason.empty(), "unsupported input " + name + " without a reason");
    Ref<Node> made = makeInput(id, std::move(name), TensorType());
    const_cast<Node*>(made.get())->unsupported = std::move(reason);
    return made;
}

Ref<Node> Node::makeInput(int64_t id, std::string name, TensorType type) {
    TESSEL_CHECK(!name.empty(), "graph input without a name");
    Node* n = new Node();
    n->kind = NodeKind::Input;
    n->id = id;
    n->outputNames = {name};
    n->name = std::move(name);
    n->outputTypes = {std::move(type)};
    return Ref<Node>(n);
}

Ref<Node> Node::makeConstant(int64_t id, std::string name, Ref<Constant> value) {
    TESSEL_CHECK(!name.empty(), "constant without a name");
    TESSEL_CHECK(value.defined(), "constant node without a tensor");
    Node* n = new Node();
    n->kind = NodeKind::Constant;
    n->id = id;
    n->outputNames = {name};
    n->name = std::move(name);
    n->outputTypes = {value->type()};
    n->constant = std::move(value);
    return Ref<Node>(n);
}

Value Node::output(int i) const {
    TESSEL_CHECK(i >= 0 && i < numOutputs(), "output " + std::to_string(i) + " of " + describe());
    return Value(Ref<Node>(this), i);
}

std::vector<Value> Node::outputs() const {
    std::vector<Value> out;
    for (int i = 0; i < numOutputs(); ++i)
        out.push_back(output(i));
    return out;
}

Ref<Node> Node::withInputs(std::vector<Value> newInputs) const {
    return with(std::move(newInputs), outputTypes);
}

Ref<Node> Node::withOutputTypes(std::vector<TensorType> types) const {
    return with(inputs, std::move(types));
}

Ref<Node> Node::with(std::vector<Value> newInputs, std::vector<TensorType> types) const {
    TESSEL_CHECK(kind == NodeKind::Op, "with() on " + describe());
    TESSEL_CHECK(types.size() == outputTypes.size(),
                 "with(): output count changes for " + describe());
    Ref<Node> made = makeOp(id, op, std::move(newInputs), attrs, numOutputs(), name,
                            std::move(types), outputNames);
    if (!domain.empty() || !subgraphs.empty() || opaque()) {
        Node* n = const_cast<Node*>(made.get()); // not shared yet
        n->domain = domain;
        n->subgraphs = subgraphs;
        n->unsupported = unsupported;
    }
    return made;
}

std::string Node::describe() const {
    switch (kind) {
    case NodeKind::Input:
        return "input '" + name + "'";
    case NodeKind::Constant:
        return "constant '" + name + "'";
    case NodeKind::Op:
        break;
    }
    if (name.empty()) return "node %" + std::to_string(id) + " (" + op + ")";
    return "node '" + name + "' (" + op + ")";
}

// --- Graph -------------------------------------------------------------------

void Graph::checkName(const std::string& name) const {
    if (name.empty())
        throw CompileError("graph '" + name_ + "': an input or constant needs a name");
    for (const auto* list : {&inputs_, &constants_})
        for (const auto& n : *list)
            if (n->name == name)
                throw CompileError("graph '" + name_ + "': the name '" + name +
                                   "' is used twice (inputs and constants need unique names)");
}

Value Graph::addInput(const std::string& name, TensorType type) {
    checkName(name);
    inputs_.push_back(Node::makeInput(nextId_++, name, std::move(type)));
    return inputs_.back()->output(0);
}

Value Graph::addConstant(const std::string& name, Ref<Constant> value) {
    checkName(name);
    constants_.push_back(Node::makeConstant(nextId_++, name, std::move(value)));
    return constants_.back()->output(0);
}

Value Graph::addInputNode(Ref<Node> input) {
    TESSEL_CHECK(input.defined() && input->kind == NodeKind::Input, "addInputNode: not an input");
    checkName(input->name);
    if (input->id >= nextId_) nextId_ = input->id + 1;
    inputs_.push_back(std::move(input));
    return inputs_.back()->output(0);
}

bool Graph::hasUnsupported() const {
    for (const auto& n : inputs_)
        if (n->opaque()) return true;
    for (const auto& n : nodes_) {
        if (n->opaque()) return true;
        for (const auto& s : n->subgraphs)
            if (s.graph && s.graph->hasUnsupported()) return true;
    }
    return false;
}

Ref<Node> Graph::addNode(const std::string& op, std::vector<Value> inputs, Attributes attrs,
                         int numOutputs, const std::string& name) {
    Ref<Node> n =
        Node::makeOp(nextId_++, op, std::move(inputs), std::move(attrs), numOutputs, name);
    nodes_.push_back(n);
    return n;
}

Value Graph::addOp(const std::string& op, std::vector<Value> inputs, Attributes attrs,
                   const std::string& name) {
    return addNode(op, std::move(inputs), std::move(attrs), 1, name)->output(0);
}

void Graph::append(Ref<Node> node) {
    TESSEL_CHECK(node.defined(), "append(null)");
    if (node->id >= nextId_) nextId_ = node->id + 1;
    switch (node->kind) {
    case NodeKind::Input:
        inputs_.push_back(std::move(node));
        break;
    case NodeKind::Constant:
        constants_.push_back(std::move(node));
        break;
    case NodeKind::Op:
        nodes_.push_back(std::move(node));
        break;
    }
}

Value Graph::findInput(const std::string& name) const {
    for (const auto& n : inputs_)
        if (n->name == name) return n->output(0);
    return {};
}

const Node* Graph::findNode(int64_t id) const {
    for (const auto& n : nodes_)
        if (n->id == id) return n.get();
    return nullptr;
}

std::vector<const Node*> Graph::users(const Value& v) const {
    std::vector<const Node*> out;
    for (const auto& n : nodes_)
        for (const auto& in : n->inputs)
            if (in == v) {
                out.push_back(n.get());
                break;
            }
    return out;
}

void Graph::sortTopologically() {
    std::unordered_set<const Node*> external;
    for (const auto* list : {&inputs_, &constants_})
        for (const auto& n : *list)
            external.insert(n.get());
    std::unordered_map<const Node*, size_t> position;
    for (size_t i = 0; i < nodes_.size(); ++i)
        position[nodes_[i].get()] = i;

    // Iterative depth-first post-order, visiting roots in the current order
    // so that a graph already in order comes out unchanged. Nodes are
    // immutable and only point at nodes made before them, so there is no cycle.
    std::vector<Ref<Node>> order;
    std::vector<char> done(nodes_.size(), 0);
    for (size_t root = 0; root < nodes_.size(); ++root) {
        if (done[root]) continue;
        std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
        while (!stack.empty()) {
            auto& [idx, next] = stack.back();
            const Node& n = *nodes_[idx];
            if (next < n.inputs.size()) {
                const Value& in = n.inputs[next++];
                if (!in.defined() || external.count(in.producer())) continue;
                auto it = position.find(in.producer());
                if (it == position.end())
                    throw CompileError(n.describe() + ": input " + std::to_string(next - 1) +
                                       " comes from " + in.producer()->describe() +
                                       ", which is not in graph '" + name_ + "'");
                if (!done[it->second]) {
                    done[it->second] = 1; // marks "entered"; nodes form a DAG
                    stack.emplace_back(it->second, 0);
                }
                continue;
            }
            done[idx] = 1;
            order.push_back(nodes_[idx]);
            stack.pop_back();
        }
    }
    nodes_ = std::move(order);
}

void Graph::verify() const {
    verify(defaultOpRegistry());
}

void Graph::verify(const OpRegistry& ops) const {
    std::unordered_set<const Node*> defined;
    std::unordered_set<int64_t> ids;
    std::unordered_set<std::string> names;
    auto checkId = [&](const Node& n) {
        if (!ids.insert(n.id).second)
            throw CompileError(n.describe() + ": id " + std::to_string(n.id) +
                               " is used twice in graph '" + name_ + "'");
    };
    for (const auto* list : {&inputs_, &constants_})
        for (const auto& n : *list) {
            checkId(*n);
            if (!names.insert(n->name).second)
                throw CompileError(n->describe() + ": the name is used twice in graph '" + name_ +
                                   "'");
            defined.insert(n.get());
        }
    for (const auto& n : inputs_)
        if (n->kind != NodeKind::Input)
            throw CompileError(n->describe() + " is listed as a graph input");
    for (const auto& n : constants_)
        if (n->kind != NodeKind::Constant)
            throw CompileError(n->describe() + " is listed as a constant");

    for (const auto& n : inputs_)
        if (n->opaque()) throw CompileError(n->describe() + ": " + n->unsupported);
    for (const auto& np : nodes_) {
        const Node& n = *np;
        checkId(n);
        if (n.kind != NodeKind::Op)
            throw CompileError(n.describe() + " is listed as an operator node");
        if (n.opaque()) throw CompileError(n.describe() + ": " + n.unsupported);
        const OpInfo* info = ops.find(n.op);
        if (!info) throw CompileError(n.describe() + ": unknown operator '" + n.op + "'");
        const int nin = static_cast<int>(n.inputs.size());
        if (nin < info->minInputs || (info->maxInputs >= 0 && nin > info->maxInputs))
            throw CompileError(n.describe() + ": expects " + info->inputCountText() + ", got " +
                               std::to_string(nin));
        if (n.numOutputs() < info->minOutputs ||
            (info->maxOutputs >= 0 && n.numOutputs() > info->maxOutputs))
            throw CompileError(n.describe() + ": expects " + info->outputCountText() + ", got " +
                               std::to_string(n.numOutputs()));
        for (int i = 0; i < nin; ++i) {
            const Value& in = n.inputs[static_cast<size_t>(i)];
            if (!in.defined()) {
                if (i < info->minInputs)
                    throw CompileError(n.describe() + ": required input " + std::to_string(i) +
                                       " is absent");
                continue;
            }
            if (!defined.count(in.producer()))
                throw CompileError(n.describe() + ": input " + std::to_string(i) + " comes from " +
                                   in.producer()->describe() +
                                   ", which is not defined before it in graph '" + name_ + "'");
            if (in.index() < 0 || in.index() >= in.producer()->numOutputs())
                throw CompileError(n.describe() + ": input " + std::to_string(i) + " uses output " +
                                   std::to_string(in.index()) + " of " + in.producer()->describe());
        }
        for (const auto& [attrName, value] : n.attrs.entries()) {
            const AttrSchema* schema = info->findAttr(attrName);
            if (!schema) continue; // unknown attributes are kept and ignored
            AttrKind k = attrKind(value);
            bool ok = k == schema->kind ||
                      (schema->kind == AttrKind::Float && k == AttrKind::Int) ||
                      (schema->kind == AttrKind::Floats && k == AttrKind::Ints);
            if (!ok)
                throw CompileError(n.describe() + ": attribute '" + attrName + "' is " +
                                   attrKindName(k) + " " + attrValueStr(value) + ", expected " +
                                   attrKindName(schema->kind));
        }
        defined.insert(&n);
    }
    if (outputs_.empty()) throw CompileError("graph '" + name_ + "' has no outputs");
    for (size_t i = 0; i < outputs_.size(); ++i) {
        const Value& v = outputs_[i];
        if (!v.defined() || !defined.count(v.producer()))
            throw CompileError(
                "graph '" + name_ + "': output " + std::to_string(i) +
                (v.defined() ? " comes from " + v.producer()->describe() : std::string()) +
                " is not in the graph");
    }
}

Graph Graph::rebuild(
    const std::function<Ref<Node>(const Node& node, std::vector<Value> newInputs)>& rewrite) const {
    Graph out(name_);
    out.storedTypes_ = storedTypes_;
    out.inputs_ = inputs_;
    out.constants_ = constants_;
    out.nextId_ = nextId_;
    std::unordered_map<const Node*, Ref<Node>> replaced;
    auto remap = [&](const Value& v) -> Value {
        if (!v.defined()) return v;
        auto it = replaced.find(v.producer());
        return it == replaced.end() ? v : Value(it->second, v.index());
    };
    for (const auto& n : nodes_) {
        std::vector<Value> newInputs;
        newInputs.reserve(n->inputs.size());
        for (const auto& in : n->inputs)
            newInputs.push_back(remap(in));
        const bool inputsChanged = newInputs != n->inputs;
        Ref<Node> m = rewrite(*n, newInputs);
        if (m.sameAs(n) && inputsChanged) m = n->withInputs(std::move(newInputs));
        TESSEL_CHECK(m.defined() && m->numOutputs() == n->numOutputs(),
                     "rebuild: the rewrite of " + n->describe() + " changed its output count");
        if (!m.sameAs(n)) replaced[n.get()] = m;
        out.nodes_.push_back(m);
        if (m->id >= out.nextId_) out.nextId_ = m->id + 1;
    }
    for (const auto& v : outputs_)
        out.outputs_.push_back(remap(v));
    return out;
}

} // namespace tessel::graph
