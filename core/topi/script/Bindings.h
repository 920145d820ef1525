/// \file
/// How the functions of the `topi` script module are written (internal to
/// topi/script): a Binding per function — its dotted name, its parameters
/// (which give both the argument binding and the documented signature), a
/// summary and a body over a Call — listed file by file as the topi headers
/// are (ScriptNn.cpp, ScriptElementwise.cpp, ScriptReduce.cpp,
/// ScriptTransform.cpp; schedule_default in ScriptModule.cpp).
///
/// A Call converts arguments into the computes' parameters with located,
/// named messages, remembers the tensors it was given, and records the
/// stages a compute made (between those inputs and its result) at the call.
#pragma once

#include "te/script/Interpreter.h"
#include "te/script/Recorder.h"
#include "topi/Schedule.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::topi::script {

namespace ts = te::script;

/// A parameter: its keyword, its default as the documentation shows it
/// (empty: required), and another keyword accepted for it ("input" for "data").
struct Param {
    std::string name;
    std::string def = {};
    std::string alias = {};
};

/// What the module's functions share in one script run.
struct Context {
    std::shared_ptr<ts::ScriptRecorder> recorder;
    ScheduleOptions schedule;
};

class Call;
using Body = std::function<ts::Value(Call&)>;

struct Binding {
    std::string name; ///< "topi.nn.conv2d"
    std::vector<Param> params;
    std::string summary;
    Body body;
};

// The functions of each file, in the order of the documentation.
void addNnBindings(std::vector<Binding>& out); // ScriptNn.cpp: topi.nn convolutions ... pooling
void addElementwiseBindings(
    std::vector<Binding>& out); // ScriptElementwise.cpp: topi.add ..., topi.nn.relu ...
void addReduceBindings(std::vector<Binding>& out); // ScriptReduce.cpp: topi.sum ..., softmax, norms
void addTransformBindings(
    std::vector<Binding>& out); // ScriptTransform.cpp: reshape, transpose, pad ...
void addScheduleBindings(std::vector<Binding>& out); // ScriptModule.cpp: topi.schedule_default

/// Every binding, in documentation order.
const std::vector<Binding>& allBindings();

/// One call of a module function: its bound arguments and their conversions.
class Call {
public:
    Call(ts::Interpreter& in, const ts::BoundArgs& args, const std::vector<Param>& params,
         const Context& ctx);

    ts::Interpreter& in;
    const ts::BoundArgs& args;
    const Context& ctx;

    SourceLoc loc() const { return args.callLoc(); }
    const std::string& fname() const { return args.fname(); }
    /// Parameter i was given and is not None.
    bool has(size_t i) const { return args.has(i); }
    /// The keyword of parameter i, quoted for messages: "'strides'".
    std::string param(size_t i) const { return "'" + params_[i].name + "'"; }

    /// "fname(): message" at argument i (at the call when it was not given).
    [[noreturn]] void fail(size_t i, const std::string& message) const;
    /// "fname(): message" at the call.
    [[noreturn]] void failCall(const std::string& message) const;

    /// A Tensor with a static shape (the computes need one).
    te::Tensor tensor(size_t i);
    /// tensor(i), or undefined when not given.
    te::Tensor optionalTensor(size_t i);
    /// A tuple or list of tensors (at least one).
    std::vector<te::Tensor> tensors(size_t i);
    /// A Tensor, or a number (or constant expression) as a one-element
    /// literal (topi::literalTensor) of dtype `like`.
    te::Tensor operand(size_t i, DataType like);
    /// The dtype of argument i when it is a Tensor, else nullopt.
    std::optional<DataType> tensorDType(size_t i) const;

    int64_t integer(size_t i) const;
    double number(size_t i) const;
    /// True/False, or an int (0 is false).
    bool flag(size_t i) const;
    std::string string(size_t i) const;
    /// The stage name: argument i, or `fallback`.
    std::string name(size_t i, const std::string& fallback) const;
    DataType dtype(size_t i) const;
    /// An int or a tuple/list of ints; empty when not given.
    std::vector<int64_t> ints(size_t i) const;
    /// ints() where every value is at least 1 (strides, dilation, kernel).
    std::vector<int64_t> positiveInts(size_t i) const;
    /// ints() where no value is negative (padding).
    std::vector<int64_t> nonNegativeInts(size_t i) const;
    /// One of `choices` (a string).
    std::string choice(size_t i, const std::vector<std::string>& choices) const;

    /// Returns `out`, recording the stages the call made.
    ts::Value result(const te::Tensor& out);
    /// Returns the tensors as a tuple, recording the stages the call made.
    ts::Value results(const std::vector<te::Tensor>& outs);

private:
    const std::vector<Param>& params_;
    std::vector<te::Tensor> inputs_;
    void noteInput(const te::Tensor& t) { inputs_.push_back(t); }
    std::vector<int64_t> intsOf(size_t i, const ts::Value& v) const;
};

} // namespace tessel::topi::script
