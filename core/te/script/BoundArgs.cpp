#include "te/script/BoundArgs.h"

#include "te/Suggest.h"
#include "te/script/Interpreter.h"
#include "tir/IROperators.h"

namespace tessel::te::script {

BoundArgs::BoundArgs(Interpreter& in, std::string fname, const CallArgs& call,
                     std::vector<ParamSpec> params, bool varargs)
    : in_(in), fname_(std::move(fname)), call_(call), params_(std::move(params)) {
    static const Value kNone;
    const size_t n = params_.size();
    values_.assign(n, &kNone);
    locs_.assign(n, call.loc);
    given_.assign(n, false);
    for (size_t i = 0; i < call.positional.size(); ++i) {
        if (i >= n) {
            if (varargs) {
                rest_.push_back(call.positional[i]);
                continue;
            }
            in.fail(call.positional[i].loc, fname_ + "() takes at most " + std::to_string(n) +
                                                " argument" + (n == 1 ? "" : "s") + " but " +
                                                std::to_string(call.positional.size()) +
                                                " were given");
        }
        values_[i] = call.positional[i].value.get();
        locs_[i] = call.positional[i].loc;
        given_[i] = true;
    }
    for (auto& [name, arg] : call.keywords) {
        size_t i = 0;
        while (i < n && params_[i].name != name && params_[i].alias != name)
            ++i;
        if (i == n) {
            std::vector<std::string> names;
            for (auto& p : params_) {
                names.push_back(p.name);
                if (!p.alias.empty()) names.push_back(p.alias);
            }
            in.fail(arg.loc, fname_ + "() got an unexpected keyword argument '" + name + "'" +
                                 didYouMean(name, names));
        }
        if (given_[i])
            in.fail(arg.loc,
                    fname_ + "() got multiple values for argument '" + params_[i].name + "'");
        values_[i] = arg.value.get();
        locs_[i] = arg.loc;
        given_[i] = true;
    }
    for (size_t i = 0; i < n; ++i)
        if (params_[i].required && !given_[i])
            in.fail(call.loc, fname_ + "() missing required argument '" + params_[i].name + "'");
}

void BoundArgs::typeError(size_t i, const std::string& expected) const {
    in_.fail(loc(i), fname_ + "(): argument '" + params_[i].name + "' must be " + expected +
                         ", not " + typeName(value(i)));
}

void BoundArgs::typeError(const CallArg& a, const std::string& what,
                          const std::string& expected) const {
    in_.fail(a.loc, fname_ + "(): " + what + " must be " + expected + ", not " + typeName(a.get()));
}

int64_t BoundArgs::integer(size_t i) const {
    const Value& v = value(i);
    if (v.isInt()) return v.asInt();
    if (v.is(Value::Kind::Expr))
        if (auto c = tir::asConstInt(v.asExpr()); c && !v.asExpr().type().isBool()) return *c;
    typeError(i, "an int");
}

double BoundArgs::number(size_t i) const {
    if (!value(i).isNumber()) typeError(i, "a number");
    return value(i).asFloat();
}

std::string BoundArgs::string(size_t i) const {
    if (!value(i).is(Value::Kind::String)) typeError(i, "a string");
    return value(i).asString();
}

bool BoundArgs::boolean(size_t i) const {
    if (!value(i).is(Value::Kind::Bool)) typeError(i, "True or False");
    return value(i).asBool();
}

tir::Expr BoundArgs::expr(size_t i) const {
    auto e = in_.exprOf(value(i));
    if (!e) typeError(i, "an expression or a number");
    return *e;
}

tir::IterVar BoundArgs::iterVar(size_t i) const {
    if (!value(i).is(Value::Kind::IterVar))
        typeError(i, "an IterVar (a loop such as C.op.axis[0])");
    return value(i).asIterVar();
}

Tensor BoundArgs::tensor(size_t i) const {
    if (!value(i).is(Value::Kind::Tensor)) typeError(i, "a Tensor");
    return value(i).asTensor();
}

Operation BoundArgs::operation(size_t i) const {
    if (value(i).is(Value::Kind::Operation)) return value(i).asOperation();
    if (value(i).is(Value::Kind::Tensor)) return value(i).asTensor()->op;
    typeError(i, "an operation (such as C.op)");
}

Stage BoundArgs::stage(size_t i) const {
    if (!value(i).is(Value::Kind::Stage)) typeError(i, "a Stage (such as s[C])");
    return value(i).asStage();
}

Schedule BoundArgs::schedule(size_t i) const {
    if (!value(i).is(Value::Kind::Schedule)) typeError(i, "a Schedule");
    return value(i).asSchedule();
}

DataType BoundArgs::dtype(size_t i) const {
    return parseDType(string(i), loc(i));
}

} // namespace tessel::te::script
