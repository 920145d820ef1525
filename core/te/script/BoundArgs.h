/// \file
/// Binding a native function's call arguments to named parameters,
/// Python-style, with messages that name the function and the parameter.
#pragma once

#include "te/script/Value.h"

#include <string>
#include <vector>

namespace tessel::te::script {

class Interpreter;

/// Binds a call's arguments to named parameters, Python-style, with messages
/// that name the function and the parameter.
struct ParamSpec {
    std::string name;
    bool required = false;
    /// Another keyword accepted for the same parameter.
    std::string alias = {};
};

class BoundArgs {
public:
    /// `varargs`: extra positional arguments go to rest() instead of failing.
    BoundArgs(Interpreter& in, std::string fname, const CallArgs& call,
              std::vector<ParamSpec> params, bool varargs = false);

    /// True when parameter i was given (and is not None).
    bool has(size_t i) const { return given_[i] && !values_[i]->isNone(); }
    const Value& value(size_t i) const { return *values_[i]; }
    SourceLoc loc(size_t i) const { return given_[i] ? locs_[i] : call_.loc; }
    const std::vector<CallArg>& rest() const { return rest_; }
    SourceLoc callLoc() const { return call_.loc; }
    const std::string& fname() const { return fname_; }

    int64_t integer(size_t i) const;
    double number(size_t i) const;
    std::string string(size_t i) const;
    bool boolean(size_t i) const;
    tir::Expr expr(size_t i) const;
    tir::IterVar iterVar(size_t i) const;
    Tensor tensor(size_t i) const;
    /// An Operation, or a Tensor's operation.
    Operation operation(size_t i) const;
    Stage stage(size_t i) const;
    Schedule schedule(size_t i) const;
    DataType dtype(size_t i) const;

    [[noreturn]] void typeError(size_t i, const std::string& expected) const;
    [[noreturn]] void typeError(const CallArg& a, const std::string& what,
                                const std::string& expected) const;

private:
    Interpreter& in_;
    std::string fname_;
    const CallArgs& call_;
    std::vector<ParamSpec> params_;
    std::vector<const Value*> values_;
    std::vector<SourceLoc> locs_;
    std::vector<bool> given_;
    std::vector<CallArg> rest_;
};

} // namespace tessel::te::script
