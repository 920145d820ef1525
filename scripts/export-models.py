#!/usr/bin/python3
"""Whole models for Tessel's model tests and bench_models, with ONNX Runtime's outputs.

    /usr/bin/python3 scripts/export-models.py OUT [--ort DIR] [--models resnet18,...]

Exports torchvision's resnet18, resnet50 and mobilenet_v2 (weights=None: seeded
random weights, so nothing is downloaded; eval mode; opset 13; input
float32[1,3,224,224] "input", output "output"), and three models built here from
torch.nn with seeded random weights:

    transformer_encoder  nn.TransformerEncoder of 6 nn.TransformerEncoderLayer
                         (d_model 512, 8 heads, feed-forward 2048, GELU,
                         batch_first), input float32[1,128,512], opset 17
                         (LayerNormalization as an operator)
    dcgan_generator      the DCGAN generator: a latent float32[1,100,1,1] through
                         5 ConvTranspose2d (the first 4 with BatchNorm2d + ReLU,
                         the last with Tanh) to float32[1,3,64,64], opset 13
    lstm_gru             a 2-layer bidirectional nn.LSTM (64 -> 128), an nn.GRU
                         (256 -> 128) over its outputs and a Linear on the last
                         step: input float32[1,32,64], ONNX LSTM and GRU nodes

to ONNX (or, named with --models, any other torchvision.models classifier such as
resnext50_32x4d or efficientnet_b0: models nobody here chose, for measuring), and
with --ort resnet18_qdq: resnet18 quantized in QDQ format by scripts/quantize-qdq.py
(int8, calibrated under ONNX Runtime; no _probe variant), and resnet18_fp16:
resnet18 with every float32 tensor (weights, input, output) stored as float16,
whose reference is ONNX Runtime's float16 run; all laid out like ONNX's backend
test cases:

    OUT/<model>/model.onnx                      the model
    OUT/<model>/test_data_set_0/input_0.pb      a seeded random input (TensorProto)
    OUT/<model>/test_data_set_0/input_0.bin     the same as raw little-endian data,
    OUT/<model>/test_data_set_0/input_0.json      {"name", "type", "dims"}, for ort-run.mjs
    OUT/<model>_probe/...                       the model with 3 or 4 intermediate tensors
                                                  as further graph outputs, same input

BatchNormalization is kept as a node (TrainingMode.PRESERVE on a model in eval
mode exports it with inference semantics instead of folding it into the
convolution), so that Tessel's own folding is what the tests see; the running
statistics and affine parameters of every batch norm are seeded random values,
not torchvision's 0/1 initialisation, so that folding them is not a no-op.

With --ort DIR (an `npm install --prefix DIR onnxruntime-node`, see
scripts/setup-ort.sh), each model then runs under ONNX Runtime through
scripts/ort-run.mjs and its outputs are written as test_data_set_0/output_K.pb:
the references Tessel's outputs are checked against.

Work is skipped when its files are newer than what they are made from (this
script, ort-run.mjs, the model). Tests and benchmarks only: nothing here is part of
Tessel.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings

MODELS = ("resnet18", "resnet50", "mobilenet_v2", "transformer_encoder", "dcgan_generator", "resnet18_qdq",
          "resnet18_fp16", "lstm_gru")
# Quantized variants (QDQ format, scripts/quantize-qdq.py) of the float models:
# calibrated under ONNX Runtime, so made only with --ort.
QDQ = {"resnet18_qdq": "resnet18"}
# Float16 variants: the float model with every float32 tensor (weights, input,
# output, Constant and Cast types) stored as float16, as a float16 export is.
FLOAT16 = {"resnet18_fp16": "resnet18"}
QUANTIZE_QDQ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quantize-qdq.py")
OPSET = {"transformer_encoder": 17}  # 13 otherwise
INPUT_SHAPE = {"transformer_encoder": (1, 128, 512), "dcgan_generator": (1, 100, 1, 1),
               "lstm_gru": (1, 32, 64)}  # (1, 3, 224, 224) otherwise
SEED = 0
HERE = os.path.dirname(os.path.abspath(__file__))
ORT_RUN = os.path.join(HERE, "ort-run.mjs")

# The intermediate tensors of each _probe variant: the output of the last node
# (in graph order) whose name starts with the scope, i.e. the tensor a module of
# torchvision's model produces. Scopes are torch.onnx's module paths.
PROBES = {
    "resnet18": ["/relu/", "/layer2/", "/layer4/", "/Flatten"],
    "resnet50": ["/maxpool/", "/layer2/", "/layer3/", "/Flatten"],
    "mobilenet_v2": ["/features/features.0/", "/features/features.7/", "/features/features.18/", "/Flatten"],
    "transformer_encoder": ["/layers.0/self_attn/Softmax", "/layers.0/norm1/", "/layers.2/", "/layers.4/"],
    "dcgan_generator": ["/main/main.2/", "/main/main.5/", "/main/main.11/"],
    "lstm_gru": ["/lstm/", "/gru/"],
}


def fail(msg):
    print(f"export-models: {msg}", file=sys.stderr)
    sys.exit(1)


def up_to_date(outputs, inputs):
    """True when every output exists and is at least as new as every input."""
    try:
        oldest_out = min(os.path.getmtime(o) for o in outputs)
    except OSError:
        return False
    return all(os.path.getmtime(i) <= oldest_out for i in inputs)


def write_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def write_tensor(folder, stem, array, name, raw=True):
    """stem.pb (TensorProto) and, with raw, stem.bin + stem.json (for node)."""
    from onnx import numpy_helper
    import numpy as np

    array = np.ascontiguousarray(array)
    if raw:
        write_atomic(os.path.join(folder, stem + ".bin"), array.astype(array.dtype.newbyteorder("<")).tobytes())
        meta = {"name": name, "type": str(array.dtype), "dims": list(array.shape)}
        write_atomic(os.path.join(folder, stem + ".json"), json.dumps(meta).encode())
    write_atomic(os.path.join(folder, stem + ".pb"), numpy_helper.from_array(array, name).SerializeToString())


def require_modules(*names):
    for n in names:
        try:
            __import__(n)
        except ImportError:
            fail(f"{sys.executable} cannot import {n}: install python3-torch, python3-torchvision and "
                 "python3-onnx (scripts/install-deps.sh does)")


def build_torch_model(name):
    import torch

    torch.manual_seed(SEED)
    if name == "transformer_encoder":
        layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, activation="gelu",
                                                 batch_first=True)
        model = torch.nn.TransformerEncoder(layer, num_layers=6)
        # TransformerEncoder copies one layer 6 times and torch initialises
        # biases to 0 and LayerNorm to 1/0: every parameter gets its own seeded
        # random values instead, so that no layer is the same as another and no
        # bias or normalisation is a no-op.
        gen = torch.Generator().manual_seed(SEED + 1)
        with torch.no_grad():
            for pname, p in model.named_parameters():
                if "norm" in pname and pname.endswith("weight"):
                    p.copy_(torch.rand(p.shape, generator=gen) + 0.5)
                elif p.dim() == 1:
                    p.copy_(torch.randn(p.shape, generator=gen) * 0.1)
                else:
                    p.copy_(torch.randn(p.shape, generator=gen) / p.shape[1] ** 0.5)
        return model.eval()
    if name == "lstm_gru":
        nn = torch.nn

        class Recurrent(nn.Module):
            """A sequence model as people write them: a 2-layer bidirectional
            LSTM, a GRU over its outputs, a classifier on the last step."""

            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(64, 128, num_layers=2, batch_first=True, bidirectional=True)
                self.gru = nn.GRU(256, 128, batch_first=True)
                self.fc = nn.Linear(128, 10)

            def forward(self, x):
                y, _ = self.lstm(x)
                z, _ = self.gru(y)
                return self.fc(z[:, -1])

        return Recurrent().eval()
    if name == "dcgan_generator":
        nn = torch.nn
        stages = []
        for cin, cout, stride, pad in ((100, 512, 1, 0), (512, 256, 2, 1), (256, 128, 2, 1), (128, 64, 2, 1)):
            stages += [nn.ConvTranspose2d(cin, cout, 4, stride, pad, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True)]
        stages += [nn.ConvTranspose2d(64, 3, 4, 2, 1, bias=False), nn.Tanh()]

        class Generator(nn.Module):
            def __init__(self):
                super().__init__()
                self.main = nn.Sequential(*stages)

            def forward(self, z):
                return self.main(z)

        model = Generator()
    else:
        import torchvision

        model = getattr(torchvision.models, name)(weights=None)
    gen = torch.Generator().manual_seed(SEED + 1)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                c = m.num_features
                m.running_mean.copy_(torch.randn(c, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(c, generator=gen) + 0.5)
                m.weight.copy_(torch.rand(c, generator=gen) + 0.5)
                m.bias.copy_(torch.randn(c, generator=gen) * 0.1)
    return model.eval()


def export(name, out):
    """OUT/<name>/model.onnx and OUT/<name>_probe/model.onnx with their input."""
    plain_dir = os.path.join(out, name)
    probe_dir = os.path.join(out, name + "_probe")
    files = [os.path.join(d, f) for d in (plain_dir, probe_dir)
             for f in ("model.onnx", "test_data_set_0/input_0.pb", "test_data_set_0/input_0.bin",
                       "test_data_set_0/input_0.json")]
    if up_to_date(files, [os.path.abspath(__file__)]):
        return False
    require_modules("torch", "torchvision")
    opset = OPSET.get(name, 13)
    shape = INPUT_SHAPE.get(name, (1, 3, 224, 224))
    import io

    import numpy as np
    import onnx
    import torch

    started = time.time()
    model = build_torch_model(name)
    buf = io.BytesIO()
    with warnings.catch_warnings():
        # PRESERVE warns about constant folding in training mode; the model is in eval mode.
        warnings.filterwarnings("ignore", message=".*constant folding.*")
        # Gradients stay enabled: in eval mode without them, nn.TransformerEncoderLayer
        # takes its fused fast path (aten::_transformer_encoder_layer_fwd), which
        # has no ONNX export.
        # A newer torch exports through dynamo by default, which has no TrainingMode:
        # the TorchScript exporter (Debian's torch has only that one) keeps the batch norms.
        import inspect
        legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
        torch.onnx.export(model, torch.zeros(*shape), buf, opset_version=opset,
                          input_names=["input"], output_names=["output"],
                          training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=True, **legacy)
    proto = onnx.load_from_string(buf.getvalue())
    onnx.checker.check_model(proto)

    # The probe variant: intermediate tensors as further outputs, typed by shape inference.
    inferred = onnx.shape_inference.infer_shapes(proto)
    value_info = {v.name: v for v in inferred.graph.value_info}
    probe = onnx.ModelProto()
    probe.CopyFrom(inferred)
    for scope in PROBES.get(name, ()):
        nodes = [n for n in probe.graph.node if n.name.startswith(scope)]
        if not nodes:
            fail(f"{name}: no node in scope '{scope}' (torch.onnx named the nodes differently?)")
        value = nodes[-1].output[0]
        if value not in value_info:
            fail(f"{name}: shape inference gave no type for '{value}'")
        probe.graph.output.append(value_info[value])
    del probe.graph.value_info[:]
    onnx.checker.check_model(probe)

    rng = np.random.default_rng(SEED)
    x = rng.standard_normal(shape).astype(np.float32)
    for d, m in ((plain_dir, proto), (probe_dir, probe)):
        os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
        write_tensor(os.path.join(d, "test_data_set_0"), "input_0", x, "input")
        write_atomic(os.path.join(d, "model.onnx"), m.SerializeToString())
    outs = ", ".join(o.name for o in probe.graph.output)
    print(f"export-models: {name} exported in {time.time() - started:.1f} s (probe outputs: {outs})", flush=True)
    return True


def ort_runner(ort_dir, model_path, data_dir, out_dir, extra=()):
    cmd = ["node", ORT_RUN, "--ort", ort_dir, "--model", model_path, "--inputs", data_dir, "--out", out_dir, *extra]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except FileNotFoundError:
        fail("node is not installed (scripts/install-deps.sh installs nodejs)")
    if r.returncode != 0:
        fail(f"ONNX Runtime failed on {model_path}:\n{r.stderr.strip()}")
    return r.stdout


def reference(name, out, ort_dir):
    """ONNX Runtime's outputs of OUT/<name>/model.onnx as test_data_set_0/output_K.pb."""
    import numpy as np
    import onnx

    d = os.path.join(out, name)
    data = os.path.join(d, "test_data_set_0")
    model_path = os.path.join(d, "model.onnx")
    n_outputs = len(onnx.load(model_path, load_external_data=False).graph.output)
    outputs = [os.path.join(data, f"output_{k}.pb") for k in range(n_outputs)]
    if up_to_date(outputs, [model_path, os.path.join(data, "input_0.bin"), ORT_RUN, os.path.abspath(__file__)]):
        return False
    raw = os.path.join(d, "ort")
    os.makedirs(raw, exist_ok=True)
    ort_runner(ort_dir, model_path, data, raw)
    for k in range(n_outputs):
        with open(os.path.join(raw, f"output_{k}.json")) as f:
            meta = json.load(f)
        dtypes = {"float32": "<f4", "float16": "<f2"}
        if meta["type"] not in dtypes:
            fail(f"{name}: output {k} '{meta['name']}' is {meta['type']}, expected float32 or float16")
        array = np.fromfile(os.path.join(raw, f"output_{k}.bin"), dtype=dtypes[meta["type"]]).reshape(meta["dims"])
        write_tensor(data, f"output_{k}", array, meta["name"], raw=False)
    print(f"export-models: {name}: ONNX Runtime's {n_outputs} output(s) written", flush=True)
    return True


def quantize_qdq(base, name, out, ort_dir):
    """OUT/<name>: OUT/<base> quantized by scripts/quantize-qdq.py, with ONNX Runtime's output."""
    src, dst = os.path.join(out, base), os.path.join(out, name)
    made = [os.path.join(dst, f) for f in ("model.onnx", "test_data_set_0/input_0.bin", "test_data_set_0/output_0.pb")]
    if up_to_date(made, [os.path.join(src, "model.onnx"), os.path.join(src, "test_data_set_0", "input_0.bin"),
                         QUANTIZE_QDQ, ORT_RUN]):
        return False
    r = subprocess.run(["/usr/bin/python3", QUANTIZE_QDQ, src, dst, "--ort", ort_dir], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"quantizing {base} failed:\n{r.stderr.strip()}")
    print(f"export-models: {name}: {base} quantized (QDQ) with ONNX Runtime's output", flush=True)
    return True


def to_float16(base, name, out):
    """OUT/<name>: OUT/<base> with every float32 tensor stored as float16 (its input too)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, numpy_helper

    src, dst = os.path.join(out, base), os.path.join(out, name)
    made = [os.path.join(dst, f) for f in ("model.onnx", "test_data_set_0/input_0.bin")]
    if up_to_date(made, [os.path.join(src, "model.onnx"), os.path.join(src, "test_data_set_0", "input_0.bin"),
                         os.path.abspath(__file__)]):
        return False
    m = onnx.load(os.path.join(src, "model.onnx"))
    g = m.graph

    def half(t):
        return numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float16), t.name)

    for i, t in enumerate(g.initializer):
        if t.data_type == TensorProto.FLOAT:
            g.initializer[i].CopyFrom(half(t))
    for v in list(g.input) + list(g.output) + list(g.value_info):
        if v.type.tensor_type.elem_type == TensorProto.FLOAT:
            v.type.tensor_type.elem_type = TensorProto.FLOAT16
    for n in g.node:
        for a in n.attribute:
            if n.op_type == "Constant" and a.type == onnx.AttributeProto.TENSOR and a.t.data_type == TensorProto.FLOAT:
                a.t.CopyFrom(half(a.t))
            if n.op_type == "Cast" and a.name == "to" and a.i == TensorProto.FLOAT:
                a.i = TensorProto.FLOAT16
    onnx.checker.check_model(m)
    x = numpy_helper.to_array(onnx.load_tensor(os.path.join(src, "test_data_set_0", "input_0.pb")))
    os.makedirs(os.path.join(dst, "test_data_set_0"), exist_ok=True)
    write_tensor(os.path.join(dst, "test_data_set_0"), "input_0", x.astype(np.float16), g.input[0].name)
    write_atomic(os.path.join(dst, "model.onnx"), m.SerializeToString())
    print(f"export-models: {name}: {base} stored in float16", flush=True)
    return True


def torchvision_has(name):
    """Whether torchvision.models builds `name` (a model nobody here chose, for
    measuring: any classifier with a 224x224 input; its probe has no extra
    outputs)."""
    require_modules("torch", "torchvision")
    import torchvision

    return callable(getattr(torchvision.models, name, None)) and not name.startswith("_")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="output folder (in the build folder; never committed)")
    ap.add_argument("--ort", help="folder with node_modules/onnxruntime-node: also write ONNX Runtime's outputs")
    ap.add_argument("--models", default=None,
                    help="comma-separated subset of " + ", ".join(MODELS) + ", or other torchvision.models classifiers "
                         "(default: all; the _qdq ones only with --ort)")
    args = ap.parse_args()
    # By default every model; the QDQ ones only where ONNX Runtime is there to calibrate them.
    names = ([m for m in args.models.split(",") if m] if args.models is not None
             else [m for m in MODELS if args.ort or m not in QDQ])
    for m in names:
        if m in QDQ and not args.ort:
            fail(f"{m} is calibrated under ONNX Runtime: it needs --ort")
        if m not in MODELS and not torchvision_has(m):
            fail(f"unknown model '{m}' (known: {', '.join(MODELS)}, or a torchvision.models classifier)")
    require_modules("numpy", "onnx")
    if args.ort and not os.path.isfile(os.path.join(args.ort, "node_modules", "onnxruntime-node", "package.json")):
        fail(f"ONNX Runtime is not installed in {args.ort}: run scripts/setup-ort.sh {args.ort}")
    os.makedirs(args.out, exist_ok=True)
    floats = list(dict.fromkeys(QDQ.get(m, FLOAT16.get(m, m)) for m in names))
    for m in floats:
        export(m, args.out)
    for m in names:
        if m in FLOAT16:
            to_float16(FLOAT16[m], m, args.out)
    if args.ort:
        for m in floats:
            reference(m, args.out, args.ort)
            reference(m + "_probe", args.out, args.ort)
        for m in names:
            if m in FLOAT16:
                reference(m, args.out, args.ort)
        for m in names:
            if m in QDQ:
                quantize_qdq(QDQ[m], m, args.out, args.ort)


if __name__ == "__main__":
    main()
