// Devices in the runtime: Device names, the process's DeviceAPIs (the CPU's
// always there, another kind a clear error until it is added), arrays on a
// device (host access refused, copies across through the API), kernels
// launched through a module, the graph executor and the in-process model
// runner on a device other than the CPU, and timing events. The other device
// is a fake "cuda" whose memory is host memory the test can watch: what the
// runtime asks of a device is what is checked, not a GPU.
#include "ir/Check.h"
#include "runtime/DeviceAPI.h"
#include "runtime/GraphExecutor.h"
#include "runtime/ModelRunner.h"
#include "runtime/NDArray.h"

#include "common/TwoStepPlan.h"

#include <QtTest>

#include <cstring>
#include <set>
#include <thread>

using namespace tessel;
using namespace tessel::runtime;

namespace {

/// A device of kind CUDA whose memory is host memory, counting what is asked.
class FakeGpu : public DeviceAPI {
public:
    DeviceKind kind() const override { return DeviceKind::CUDA; }
    int count() const override { return 1; }
    void* alloc(Device, size_t bytes, size_t) override {
        void* p = std::malloc(std::max<size_t>(bytes, 1));
        live.insert(p);
        ++allocs;
        return p;
    }
    void free(Device, void* ptr) override {
        QVERIFY(live.erase(ptr) == 1);
        std::free(ptr);
    }
    void copyToDevice(Device, void* dst, const void* src, size_t bytes, Stream) override {
        QVERIFY(live.count(dst));
        toDevice += bytes;
        std::memcpy(dst, src, bytes);
    }
    void copyFromDevice(Device, void* dst, const void* src, size_t bytes, Stream) override {
        QVERIFY(live.count(const_cast<void*>(src)));
        fromDevice += bytes;
        std::memcpy(dst, src, bytes);
    }
    void copyWithinDevice(Device, void* dst, const void* src, size_t bytes, Stream) override {
        std::memmove(dst, src, bytes);
    }
    Stream createStream(Device) override { return nullptr; }
    void freeStream(Device, Stream) override {}
    void synchronize(Device, Stream) override { ++syncs; }
    Event createEvent(Device) override { return new double(0); }
    void freeEvent(Device, Event e) override { delete static_cast<double*>(e); }
    void recordEvent(Device, Event e, Stream) override { *static_cast<double*>(e) = ++clock; }
    double elapsedMs(Device, Event a, Event b) override {
        ++syncs;
        return *static_cast<double*>(b) - *static_cast<double*>(a);
    }
    ModulePtr loadModule(Device, const std::string& path) override {
        throw std::runtime_error("the fake GPU loads no files ('" + path + "')");
    }

    std::set<void*> live;
    int allocs = 0, syncs = 0;
    size_t toDevice = 0, fromDevice = 0;
    double clock = 0;
};

FakeGpu* gpu = nullptr;

using test::twoSteps;
using CpuTable = test::TableModule;

/// The same kernels as a module of the fake GPU: launched through its own
/// launch function, on device memory.
class GpuTable : public Module {
public:
    Device device() const override { return Device::cuda(0); }
    Kernel kernel(const std::string& name) const override {
        const KernelFunction f = cpu_.function(name);
        if (!f) return {};
        return Kernel(Device::cuda(0), &launch, reinterpret_cast<const void*>(f));
    }
    std::vector<std::string> functionNames() const override { return cpu_.functionNames(); }
    static inline int launches = 0;

private:
    static int32_t launch(const void* f, void* const* args, int32_t, void*) {
        ++launches;
        return reinterpret_cast<KernelFunction>(const_cast<void*>(f))(args);
    }
    CpuTable cpu_;
};

NDArray weights() {
    NDArray w = NDArray::zeros({64}, DataType::int8());
    const float v[4] = {10, 20, 30, 40};
    std::memcpy(w.rawData(), v, sizeof v);
    return w;
}

NDArray input() {
    NDArray x({4}, DataType::float32());
    for (int i = 0; i < 4; ++i) x.data<float>()[i] = float(i);
    return x;
}

} // namespace

class TestDevice : public QObject {
    Q_OBJECT
private slots:
    void namesAndParsing() {
        QCOMPARE(QString::fromStdString(Device::cpu().str()), QString("cpu:0"));
        QCOMPARE(QString::fromStdString(Device::cuda(2).str()), QString("cuda:2"));
        QVERIFY(Device::parse("cuda:1") == Device::cuda(1));
        QVERIFY(Device::parse("cpu") == Device::cpu());
        QVERIFY(!Device::parse("tpu:0"));
        QVERIFY(!Device::parse("cuda:"));
        QVERIFY(!Device::parse("cuda:-1"));
        QVERIFY(!Device::parse("cuda:1x"));
        QCOMPARE(int(DeviceKind::CPU), 1); // DLPack's numbers, on the wire too
        QCOMPARE(int(DeviceKind::CUDA), 2);
    }

    void theCpuIsAlwaysThereAndOtherKindsSaySo() {
        QVERIFY(DeviceAPIs::global().find(DeviceKind::CPU));
        QVERIFY(DeviceAPIs::global().devices().front() == Device::cpu());
        // CUDA's API is always in the table; without a driver or a GPU it has
        // no device, and asking for one says why.
        QVERIFY(DeviceAPIs::global().find(DeviceKind::CUDA));
        if (DeviceAPIs::global().find(DeviceKind::CUDA)->count() == 0) {
            try {
                deviceAPI(Device::cuda(0));
                QFAIL("cuda:0 without a GPU");
            } catch (const std::runtime_error& e) {
                QVERIFY2(QString(e.what()).contains("NVIDIA"), e.what());
            }
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, NDArray({4}, DataType::float32(), Device::cuda(0)));
        }
        try {
            deviceAPI(Device::cpu(1));
            QFAIL("cpu:1");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("cpu:1 does not exist"), e.what());
        }
        // The CPU's memory: aligned, huge blocks on 2 MiB boundaries.
        NDArray small({3}, DataType::float32()), big({1 << 20}, DataType::float32());
        QCOMPARE(reinterpret_cast<uintptr_t>(small.rawData()) % NDArray::kAlignment, uintptr_t(0));
        QCOMPARE(reinterpret_cast<uintptr_t>(big.rawData()) % (uintptr_t(2) << 20), uintptr_t(0));
        QVERIFY(small.isHost());
        QVERIFY(small.device() == Device::cpu());
    }

    void arraysOnAnotherDevice() {
        auto owned = std::make_unique<FakeGpu>();
        gpu = owned.get();
        DeviceAPIs::global().add(std::move(owned));
        QVERIFY(DeviceAPIs::global().devices().size() == 2);
        {
            NDArray host = input();
            NDArray dev = host.copyTo(Device::cuda(0));
            QVERIFY(dev.device() == Device::cuda(0));
            QVERIFY(!dev.isHost());
            QCOMPARE(QString::fromStdString(dev.str()), QString("float32[4] on cuda:0"));
            QCOMPARE(gpu->toDevice, size_t(16));
            // Host access is refused; copies go through the API.
            QVERIFY_THROWS_EXCEPTION(InternalError, dev.data<float>());
            QVERIFY_THROWS_EXCEPTION(InternalError, dev.at(0));
            const NDArray back = dev.copyTo(Device::cpu());
            QCOMPARE(gpu->fromDevice, size_t(16));
            QCOMPARE(back.data<float>()[3], 3.0f);
            // Seeded values are the host's, wherever they live.
            NDArray r1({100}, DataType::float32(), Device::cuda(0)), r2({100}, DataType::float32());
            r1.fillRandom(7);
            r2.fillRandom(7);
            QVERIFY(compare(r1.copyTo(Device::cpu()), r2, 0, 0).allClose);
            r1.fillZero();
            QCOMPARE(r1.copyTo(Device::cpu()).at(50), 0.0);
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, NDArray({4}, DataType::float32(), Device::cuda(1)));
        }
        QVERIFY(gpu->live.empty()); // every block went back through the API
    }

    void kernelsLaunchThroughTheirModule() {
        CpuTable m;
        QVERIFY(m.device() == Device::cpu());
        QVERIFY(!m.kernel("nope"));
        QVERIFY(m.kernel("fail"));
        const Kernel k = m.kernel("double");
        QVERIFY(k);
        QVERIFY(k.device() == Device::cpu());
        NDArray y = input(), z({4}, DataType::float32());
        void* args[] = {y.rawData(), z.rawData()};
        QCOMPARE(k.launch(args, 2), 0);
        QCOMPARE(z.data<float>()[3], 6.0f);
    }

    void theExecutorRunsOnTheModulesDevice() {
        QVERIFY(gpu);
        const int allocsBefore = gpu->allocs;
        GraphExecutor exec(twoSteps(), std::make_shared<GpuTable>(), weights());
        QVERIFY(exec.device() == Device::cuda(0));
        QCOMPARE(gpu->allocs - allocsBefore, 4); // the weights once, three storages
        exec.setInput(0, input());
        GpuTable::launches = 0;
        const int syncs = gpu->syncs;
        exec.run();
        QCOMPARE(GpuTable::launches, 2);
        QVERIFY(gpu->syncs > syncs); // run() waits for the device
        QVERIFY(!exec.output(0).isHost());
        const NDArray z = exec.output(0).copyTo(Device::cpu());
        for (int i = 0; i < 4; ++i) QCOMPARE(z.data<float>()[i], 2.0f * (float(i) + 10.0f * (i + 1)));
        // The profile times each step with the device's events.
        const std::vector<double> s = exec.profile(3);
        QCOMPARE(s.size(), size_t(2));
        for (double t : s) QCOMPARE(t, 1e-3); // one tick of the fake clock, in seconds
    }

    void theModelRunnerRunsHereOnAnyDevice() {
        for (bool onGpu : {false, true}) {
            ModelPackage p;
            p.plan = twoSteps();
            p.weights = weights();
            p.module = onGpu ? ModulePtr(std::make_shared<GpuTable>()) : ModulePtr(std::make_shared<CpuTable>());
            InProcessModelRunner r;
            QCOMPARE(QString::fromStdString(r.name()), QString("in-process"));
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, r.setInputs({input()}));
            r.load(p);
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, r.setInputs({}));
            r.setInputs({input()});
            ModelRunSpec once;
            const ModelTiming t = r.run(once);
            QCOMPARE(t.ms.size(), size_t(1));
            QVERIFY(t.threads >= 1);
            const std::vector<NDArray> out = r.outputs();
            QCOMPARE(out.size(), size_t(1));
            QVERIFY(out[0].isHost());
            QCOMPARE(out[0].data<float>()[0], 20.0f);
            ModelRunSpec timed;
            timed.repeat = 4;
            timed.warmup = 1;
            QCOMPARE(r.run(timed).ms.size(), size_t(4));
            QCOMPARE(r.profile(timed).ms.size(), size_t(2));
        }
        // A plan without steps needs no module.
        ModelPackage empty;
        empty.plan.tensors = twoSteps().tensors;
        empty.plan.tensors.resize(1);
        empty.plan.tensors[0].kind = PlanTensor::Kind::Input;
        empty.plan.storages = {16};
        empty.plan.inputs = {0};
        empty.plan.outputs = {0};
        InProcessModelRunner r;
        r.load(empty);
        r.setInputs({input()});
        r.run({});
        QCOMPARE(r.outputs()[0].data<float>()[2], 2.0f);
    }

    void cpuTimingEvents() {
        DeviceTimer t(Device::cpu());
        t.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        t.stop();
        QVERIFY(t.ms() >= 4.5);
        QVERIFY(t.ms() < 1000);
    }
};

QTEST_GUILESS_MAIN(TestDevice)
#include "tst_device.moc"
