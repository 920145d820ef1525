// The ONNX backend conformance suite: every test case in Debian's
// libonnx-testdata (node, pytorch-converted, pytorch-operator, simple) runs
// through the whole pipeline (import, graph passes, fusion, topi, TIR, LLVM,
// graph executor) and is sorted into passed, failed or unsupported. A case
// runs where `tesselc run` runs it by default (a session on this machine's
// tessel-rpc server, the model going there as its export) and in this
// process; it passes when both pass. Any failed case fails the test;
// unsupported cases (an operator, a type or an attribute value Tessel does
// not support, with the reason) are counted and listed in
// conformance-<folder>.txt in the build folder. TESSEL_CONFORMANCE_FILTER, a
// regular expression, runs only the cases whose folder name it matches.
#include "driver/Devices.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelRunner.h"
#include "frontend/OnnxImporter.h"
#include "frontend/TensorProto.h"
#include "graph/FreezeInputs.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"

#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

namespace fs = std::filesystem;
using namespace tessel;

namespace {

const char* kData = "/usr/share/libonnx-testdata/data/";

enum class Outcome { Passed, Failed, Unsupported };

struct CaseResult {
    Outcome outcome = Outcome::Failed;
    std::string detail;
};

/// A CompileError that says Tessel lacks something (as opposed to a wrong
/// result or a broken invariant, which are failures).
bool isUnsupported(const std::string& m) {
    static const std::regex re("not supported|unsupported|has no compute|not static|is absent|"
                                "declares no opset|has a dimension of 0");
    return std::regex_search(m, re);
}

std::vector<std::string> dataFiles(const fs::path& dir, const char* prefix) {
    std::vector<std::string> out;
    for (int i = 0;; ++i) {
        fs::path p = dir / (std::string(prefix) + std::to_string(i) + ".pb");
        if (!fs::exists(p)) break;
        out.push_back(p.string());
    }
    return out;
}

CaseResult runCase(const fs::path& dir, runtime::ModelRunner& byDefault) {
    fs::path data = dir / "test_data_set_0";
    driver::CompiledModel model;
    std::vector<runtime::NDArray> inputs, expected;
    try {
        graph::Graph g = frontend::importOnnx((dir / "model.onnx").string());
        for (auto& f : dataFiles(data, "input_")) inputs.push_back(driver::toNDArray(*frontend::readTensorProto(f).value));
        // A few cases' data contradict their own model (castlike_*_BFLOAT16_expanded
        // give 'like' as [1] for a declared [3, 4]); a runtime must refuse them.
        for (size_t i = 0; i < inputs.size() && i < g.inputs().size(); ++i) {
            const auto& declared = g.inputs()[i]->outputTypes[0];
            if (declared.isStatic() && declared.shape != inputs[i].shape())
                return {Outcome::Unsupported, "the test's input_" + std::to_string(i) + " is " + inputs[i].str() +
                                                  ", but the model declares " + declared.str() +
                                                  " (the test data is not supported: it contradicts the model)"};
        }
        try {
            model = driver::compileGraph(g);
        } catch (const CompileError& e) {
            // Inputs that carry shapes (Slice's starts, Resize's sizes, Pad's
            // pads, a window's length) must be known when compiling: bind every
            // input after the data input, and every integer input, to the
            // test's value, as TVM's freeze_params does.
            if (!std::regex_search(std::string(e.what()),
                                   std::regex("must be a constant|as constants|known length|has a dimension of 0|"
                                              "is not static")) ||
                g.inputs().size() != inputs.size())
                throw;
            std::map<std::string, Ref<graph::Constant>> frozen;
            std::vector<runtime::NDArray> kept;
            for (size_t i = 0; i < inputs.size(); ++i) {
                if (i >= 1 || inputs[i].dtype().isIntOrUInt())
                    frozen[g.inputs()[i]->name] = frontend::readTensorProto(dataFiles(data, "input_")[i]).value;
                else
                    kept.push_back(inputs[i]);
            }
            if (frozen.empty()) throw;
            model = driver::compileGraph(graph::freezeInputs(g, frozen));
            inputs = kept;
        }
        for (auto& f : dataFiles(data, "output_")) expected.push_back(driver::toNDArray(*frontend::readTensorProto(f).value));
    } catch (const CompileError& e) {
        std::string m = e.what();
        return {isUnsupported(m) ? Outcome::Unsupported : Outcome::Failed, m};
    } catch (const InternalError& e) {
        return {Outcome::Failed, std::string("internal error: ") + e.what()};
    } catch (const std::exception& e) {
        return {Outcome::Failed, std::string("error: ") + e.what()};
    }
    if (expected.size() != model.plan.outputs.size())
        return {Outcome::Failed, "the model has " + std::to_string(model.plan.outputs.size()) + " outputs, the test " +
                                     std::to_string(expected.size())};
    try {
        driver::ModelRunOptions ro;
        ro.runner = &byDefault;
        auto rep = driver::runModel(model, inputs, expected, ro);
        if (!rep.ok) return {Outcome::Failed, "on " + byDefault.name() + ": " + rep.error};
        rep = driver::runModel(model, inputs, expected);
        if (!rep.ok) return {Outcome::Failed, "in process: " + rep.error};
        return {Outcome::Passed, ""};
    } catch (const CompileError& e) {
        return {Outcome::Failed, e.what()};
    } catch (const std::exception& e) {
        return {Outcome::Failed, std::string("error: ") + e.what()};
    }
}

} // namespace

class TestConformanceOnnx : public QObject {
    Q_OBJECT
private slots:
    void folder_data() {
        QTest::addColumn<QString>("folder");
        for (const char* f : {"node", "pytorch-converted", "pytorch-operator", "simple"}) QTest::newRow(f) << QString(f);
    }

    void folder() {
        QFETCH(QString, folder);
        fs::path root = fs::path(kData) / folder.toStdString();
        if (!fs::exists(root)) QSKIP("libonnx-testdata is not installed");
        const char* filter = std::getenv("TESSEL_CONFORMANCE_FILTER");
        const std::regex only(filter ? filter : "");
        std::vector<fs::path> cases;
        for (auto& e : fs::directory_iterator(root))
            if (e.is_directory() && fs::exists(e.path() / "model.onnx") &&
                (!filter || std::regex_search(e.path().filename().string(), only)))
                cases.push_back(e.path());
        std::sort(cases.begin(), cases.end());
        std::map<Outcome, std::vector<std::pair<std::string, std::string>>> byOutcome;
        const std::unique_ptr<runtime::ModelRunner> byDefault =
            driver::DeviceRunners(driver::DeviceSpec::local()).modelRunner();
        for (auto& c : cases) {
            auto r = runCase(c, *byDefault);
            byOutcome[r.outcome].emplace_back(c.filename().string(), r.detail);
        }
        auto count = [&](Outcome o) { return byOutcome[o].size(); };
        std::string summary = folder.toStdString() + ": " + std::to_string(count(Outcome::Passed)) + " passed, " +
                              std::to_string(count(Outcome::Failed)) + " failed, " +
                              std::to_string(count(Outcome::Unsupported)) + " unsupported of " +
                              std::to_string(cases.size());
        std::ofstream report(std::string(TESSEL_BINARY_DIR) + "/conformance-" + folder.toStdString() + ".txt");
        report << summary << "\n";
        for (auto [o, name] : {std::pair{Outcome::Failed, "FAILED"}, std::pair{Outcome::Unsupported, "unsupported"},
                               std::pair{Outcome::Passed, "passed"}})
            for (auto& [c, d] : byOutcome[o]) report << name << " " << c << (d.empty() ? "" : ": " + d) << "\n";
        qInfo("%s", summary.c_str());
        std::string failures;
        for (auto& [c, d] : byOutcome[Outcome::Failed]) failures += "\n  " + c + ": " + d;
        QVERIFY2(count(Outcome::Failed) == 0, (summary + failures).c_str());
    }
};

QTEST_GUILESS_MAIN(TestConformanceOnnx)
#include "tst_conformance_onnx.moc"
