#include "te/script/Value.h"

#include "te/ConfigSpace.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <charconv>
#include <cmath>

namespace tessel::te::script {

const Value* ModuleObject::find(std::string_view member) const {
    for (auto& [n, v] : members)
        if (n == member) return v.get();
    return nullptr;
}

std::string formatFloat(double d) {
    return pythonFloatText(d);
}

namespace {

std::string quote(const std::string& s) {
    return pythonStringText(s);
}

std::string exprText(const tir::Expr& e) {
    if (auto c = tir::asConstInt(e); c && e.type().isScalar() && !e.type().isBool())
        return std::to_string(*c);
    return tir::toString(e);
}

std::string shapeText(const std::vector<tir::Expr>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + exprText(shape[i]);
    return s + "]";
}

std::string rangeText(const tir::Range& r) {
    if (!r.min.defined()) return "range(?)";
    return "range(min=" + exprText(r.min) +
           ", ext=" + (r.extent.defined() ? exprText(r.extent) : "?") + ")";
}

} // namespace

std::string typeName(const Value& v) {
    switch (v.kind()) {
    case Value::Kind::None:
        return "None";
    case Value::Kind::Bool:
        return "bool";
    case Value::Kind::Int:
        return "int";
    case Value::Kind::Float:
        return "float";
    case Value::Kind::String:
        return "str";
    case Value::Kind::Tuple:
        return "tuple";
    case Value::Kind::List:
        return "list";
    case Value::Kind::Expr:
        return v.asExpr().as<tir::VarNode>() ? "Var" : "Expr";
    case Value::Kind::IterVar:
        return "IterVar";
    case Value::Kind::Range:
        return "Range";
    case Value::Kind::Tensor:
        return "Tensor";
    case Value::Kind::Operation:
        return "Operation";
    case Value::Kind::Stage:
        return "Stage";
    case Value::Kind::Schedule:
        return "Schedule";
    case Value::Kind::Function:
        return "function";
    case Value::Kind::Module:
        return "module";
    case Value::Kind::Opaque:
        return v.asOpaque().typeName;
    case Value::Kind::Object:
        return v.asObject().typeName;
    }
    return "?";
}

std::string repr(const Value& v) {
    switch (v.kind()) {
    case Value::Kind::None:
        return "None";
    case Value::Kind::Bool:
        return v.asBool() ? "True" : "False";
    case Value::Kind::Int:
        return std::to_string(v.asInt());
    case Value::Kind::Float:
        return formatFloat(v.asFloat());
    case Value::Kind::String:
        return quote(v.asString());
    case Value::Kind::Tuple:
    case Value::Kind::List: {
        bool tuple = v.is(Value::Kind::Tuple);
        std::string s = tuple ? "(" : "[";
        const auto& items = v.items();
        for (size_t i = 0; i < items.size(); ++i) {
            if (s.size() > 4000) {
                s += ", ...";
                break;
            }
            s += (i ? ", " : "") + repr(items[i]);
        }
        if (tuple && items.size() == 1) s += ",";
        return s + (tuple ? ")" : "]");
    }
    case Value::Kind::Expr:
        return exprText(v.asExpr());
    case Value::Kind::IterVar: {
        const auto& iv = v.asIterVar();
        if (!iv->dom.min.defined()) return "iter_var(" + iv->var.name() + ")";
        return "iter_var(" + iv->var.name() + ", " + rangeText(iv->dom) + ")";
    }
    case Value::Kind::Range:
        return rangeText(v.asRange());
    case Value::Kind::Tensor: {
        const auto& t = v.asTensor();
        return "Tensor(shape=" + shapeText(t->shape) + ", op.name=" + t.name() + ")";
    }
    case Value::Kind::Operation: {
        const auto& op = v.asOperation();
        return std::string(op->opKind() == OpKind::Placeholder ? "placeholder(" : "compute(") +
               op->name + ")";
    }
    case Value::Kind::Stage:
        return "stage(" + v.asStage().op()->name + ")";
    case Value::Kind::Schedule: {
        std::string s = "schedule(outputs=[";
        const auto& outs = v.asSchedule().outputs();
        for (size_t i = 0; i < outs.size(); ++i)
            s += (i ? ", " : "") + outs[i]->name;
        return s + "])";
    }
    case Value::Kind::Function:
        return "<function " + v.asFunction().name + ">";
    case Value::Kind::Module:
        return "<module '" + v.asModule().name + "'>";
    case Value::Kind::Opaque:
        return "<" + v.asOpaque().typeName + ">";
    case Value::Kind::Object:
        return v.asObject().reprText.empty() ? "<" + v.asObject().typeName + ">"
                                             : v.asObject().reprText;
    }
    return "?";
}

std::string str(const Value& v) {
    return v.is(Value::Kind::String) ? v.asString() : repr(v);
}

} // namespace tessel::te::script
