// The attributes and methods of TE values: Tensor, Operation, IterVar, Range, Expr.

#include "te/script/builtins/Builtins.h"
#include "te/script/builtins/Helpers.h"

#include "tir/IROperators.h"

namespace tessel::te::script {

using tir::Expr;

namespace {

Value shapeTuple(const std::vector<Expr>& shape) {
    Value::Items dims;
    for (auto& d : shape)
        dims.push_back(intOrExpr(d));
    return Value::tuple(std::move(dims));
}

void installTensor(BuiltinTable& t) {
    TypeInfo& tensor = t.type(Value::Kind::Tensor, "Tensor");
    tensor.attrs = {
        {"op", [](Interpreter&, const Value& s, SourceLoc) { return Value(s.asTensor()->op); }},
        {"shape",
         [](Interpreter&, const Value& s, SourceLoc) { return shapeTuple(s.asTensor()->shape); }},
        {"dtype", [](Interpreter&, const Value& s,
                     SourceLoc) { return Value::string(s.asTensor()->dtype.str()); }},
        {"name", [](Interpreter&, const Value& s,
                    SourceLoc) { return Value::string(s.asTensor().name()); }},
        {"ndim", [](Interpreter&, const Value& s,
                    SourceLoc) { return Value::integer(s.asTensor().ndim()); }},
        {"value_index", [](Interpreter&, const Value& s,
                           SourceLoc) { return Value::integer(s.asTensor()->valueIndex); }},
    };
}

const ComputeOpNode* computeOf(Interpreter& in, const Value& s, SourceLoc loc, const char* attr) {
    auto* c = dynamic_cast<const ComputeOpNode*>(s.asOperation().get());
    if (!c)
        in.fail(loc, "operation '" + s.asOperation()->name + "' is a placeholder and has no '" +
                         attr + "'; only computes have loops");
    return c;
}

Value outputOf(Interpreter& in, const Value& self, const CallArgs& c) {
    BoundArgs a(in, "output", c, {{"index", true}});
    int64_t i = a.integer(0);
    const Operation& op = self.asOperation();
    if (i < 0 || i >= op->numOutputs())
        in.fail(a.loc(0), "output(): operation '" + op->name + "' has " +
                              std::to_string(op->numOutputs()) + " output" +
                              (op->numOutputs() == 1 ? "" : "s") + "; index " + std::to_string(i) +
                              " is out of range");
    return Value(op.output(int(i)));
}

void installOperation(BuiltinTable& t) {
    auto rec = t.recorder();
    TypeInfo& operation = t.type(Value::Kind::Operation, "Operation");
    operation.attrs = {
        {"name", [](Interpreter&, const Value& s,
                    SourceLoc) { return Value::string(s.asOperation()->name); }},
        {"tag", [](Interpreter&, const Value& s,
                   SourceLoc) { return Value::string(s.asOperation()->tag); }},
        // Naming a stage's loops is what a schedule line does first: the
        // lines that read them link to the loops.
        {"axis",
         [rec](Interpreter& in, const Value& s, SourceLoc loc) {
             const auto& axis = computeOf(in, s, loc, "axis")->axis;
             rec->noteLoops(axis, loc);
             return iterVarList(axis);
         }},
        {"reduce_axis",
         [rec](Interpreter& in, const Value& s, SourceLoc loc) {
             const auto& axis = computeOf(in, s, loc, "reduce_axis")->reduceAxis;
             rec->noteLoops(axis, loc);
             return iterVarList(axis);
         }},
        {"body",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             Value::Items v;
             for (auto& b : computeOf(in, s, loc, "body")->body)
                 v.push_back(Value(b));
             return Value::list(std::move(v));
         }},
        {"input_tensors",
         [](Interpreter&, const Value& s, SourceLoc) {
             Value::Items v;
             for (auto& t : s.asOperation()->inputTensors())
                 v.push_back(Value(t));
             return Value::list(std::move(v));
         }},
        {"num_outputs", [](Interpreter&, const Value& s,
                           SourceLoc) { return Value::integer(s.asOperation()->numOutputs()); }},
        {"shape",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             auto* p = dynamic_cast<const PlaceholderOpNode*>(s.asOperation().get());
             if (!p)
                 in.fail(loc, "only placeholder operations have a 'shape'; use the tensor's shape "
                              "(C.shape)");
             return shapeTuple(p->shape);
         }},
        {"dtype", [](Interpreter&, const Value& s,
                     SourceLoc) { return Value::string(s.asOperation()->outputType(0).str()); }},
    };
    operation.methods = {{"output", outputOf}};
}

void installScalars(BuiltinTable& t) {
    TypeInfo& iterVar = t.type(Value::Kind::IterVar, "IterVar");
    iterVar.attrs = {
        {"var",
         [](Interpreter&, const Value& s, SourceLoc) { return Value(Expr(s.asIterVar()->var)); }},
        {"dom",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             const auto& iv = s.asIterVar();
             if (!iv->dom.extent.defined())
                 in.fail(loc, "loop '" + iv->var.name() +
                                  "' was made by a schedule primitive and has no fixed domain");
             return Value(iv->dom);
         }},
    };

    TypeInfo& range = t.type(Value::Kind::Range, "Range");
    range.attrs = {
        {"min", [](Interpreter&, const Value& s, SourceLoc) { return intOrExpr(s.asRange().min); }},
        {"extent",
         [](Interpreter&, const Value& s, SourceLoc) { return intOrExpr(s.asRange().extent); }},
    };

    TypeInfo& expr = t.type(Value::Kind::Expr, "Expr");
    expr.attrs = {
        {"dtype", [](Interpreter&, const Value& s,
                     SourceLoc) { return Value::string(s.asExpr().type().str()); }},
        {"name",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             auto* v = s.asExpr().as<tir::VarNode>();
             if (!v) in.fail(loc, "only variables have a 'name'");
             return Value::string(v->name);
         }},
        {"value",
         [](Interpreter& in, const Value& s, SourceLoc loc) {
             if (auto* i = s.asExpr().as<tir::IntImmNode>()) return Value::integer(i->value);
             if (auto* f = s.asExpr().as<tir::FloatImmNode>()) return Value::real(f->value);
             in.fail(loc, "only constants have a 'value'");
         }},
    };
    expr.methods = {
        {"astype",
         [](Interpreter& in, const Value& self, const CallArgs& c) -> Value {
             BoundArgs a(in, "astype", c, {{"dtype", true}});
             return Value(tir::cast(a.dtype(0), self.asExpr()));
         }},
    };
}

} // namespace

void installObjects(BuiltinTable& t) {
    installTensor(t);
    installOperation(t);
    installScalars(t);
}

} // namespace tessel::te::script
