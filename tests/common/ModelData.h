/// \file
/// A compiled model run in process against reference data written beside its
/// .onnx file by a generator (numpy): `DIR/input_K.pb` and `DIR/output_K.pb`,
/// K from 0. Used by the model tests whose references come from outside
/// Tessel (tests/frontend/models/recurrent, .../quantized).
#pragma once

#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/TensorProto.h"

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace tessel::test {

/// DIR/PREFIX0.pb, DIR/PREFIX1.pb ... until one is missing.
inline std::vector<runtime::NDArray> readTensorFiles(const std::filesystem::path& dir, const char* prefix) {
    std::vector<runtime::NDArray> out;
    for (int i = 0;; ++i) {
        std::filesystem::path p = dir / (std::string(prefix) + std::to_string(i) + ".pb");
        if (!std::filesystem::exists(p)) break;
        out.push_back(driver::toNDArray(*frontend::readTensorProto(p.string()).value));
    }
    return out;
}

/// Runs `compiled` on DIR's inputs, in process or on `runner` (a session on
/// a tessel-rpc server), and checks every output's shape and values against
/// DIR's within `tolerance` (absolute; 0: exact). A Qt Test check: fails the
/// calling test function with each output's error.
inline void checkAgainstData(const driver::CompiledModel& compiled, const std::filesystem::path& dir,
                             double tolerance, runtime::ModelRunner* runner = nullptr) {
    const auto inputs = readTensorFiles(dir, "input_");
    const auto expected = readTensorFiles(dir, "output_");
    QCOMPARE(compiled.plan.outputs.size(), expected.size());
    driver::ModelRunOptions options;
    options.runner = runner;
    options.atol = std::max(options.atol, tolerance);
    const auto report = driver::runModel(compiled, inputs, expected, options);
    std::string detail = dir.string() + ": " + report.error;
    for (const auto& o : report.outputs)
        detail += "\n  " + o.name + " " + o.type + ": max abs error " + std::to_string(o.maxAbsErr);
    QVERIFY2(report.ok, detail.c_str());
    QCOMPARE(report.values.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        QVERIFY2(report.values[i].shape() == expected[i].shape(),
                 (detail + "\n  output " + std::to_string(i) + " is " + report.values[i].str() + ", not " +
                  expected[i].str())
                     .c_str());
        QVERIFY(report.outputs[i].checked);
        QVERIFY2(report.outputs[i].maxAbsErr <= tolerance, detail.c_str());
    }
}

} // namespace tessel::test
