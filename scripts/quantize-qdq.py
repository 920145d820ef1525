#!/usr/bin/python3
"""A float ONNX model quantized in QDQ format, as ONNX Runtime's static quantizer writes it.

    /usr/bin/python3 scripts/quantize-qdq.py IN OUT [--ort DIR] [--calibration N]

IN is a model folder as scripts/export-models.py writes it (IN/model.onnx,
IN/test_data_set_0/input_0.*); OUT gets the same layout: OUT/model.onnx (the
quantized model), the same input, and with --ort DIR (onnxruntime-node, see
scripts/setup-ort.sh) ONNX Runtime's output of the quantized model as
OUT/test_data_set_0/output_0.pb, the reference of Tessel's model tests.

What it does, as quantize_static(..., QuantFormat.QDQ, per_channel=True) with
its defaults does (MinMax calibration, activations uint8, weights int8):

  - BatchNormalization after a Conv is folded into the Conv's weights and bias
    first (what ORT's quant_pre_process does by its graph optimisation);
  - the activations read by each Conv, Gemm and MatMul and their results (the
    Relu's result where a Relu is the result's only reader, as ORT quantizes
    the fused Conv + Relu) get one QuantizeLinear -> DequantizeLinear pair per
    tensor, uint8, asymmetric, per tensor: rmin = min(0, min), rmax = max(0, max)
    over the calibration runs, scale = (rmax - rmin) / 255, zero point
    round(-rmin / scale); every reader of the tensor reads the DequantizeLinear;
  - weights are int8, symmetric, per output channel (axis 0 of Conv's and of
    Gemm's with transB, axis 1 of MatMul's and Gemm's without): scale =
    max|w| / 127, values in [-127, 127], zero point 0;
  - a bias is int32 with scale x_scale * w_scale (float32 products) and zero
    point 0, dequantized along axis 0.

The calibration runs the float model (the tensors above as extra outputs)
under ONNX Runtime on N inputs: the model's test input and N - 1 seeded
normal ones (default N = 4). Deterministic: same input, same output. Tests and
benchmarks only; nothing here is part of Tessel.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_RUN = os.path.join(HERE, "ort-run.mjs")
SEED = 1
PRODUCTS = ("Conv", "Gemm", "MatMul")


def fail(msg):
    print(f"quantize-qdq: {msg}", file=sys.stderr)
    sys.exit(1)


def write_tensor(folder, stem, array, name, raw=True):
    """stem.pb (TensorProto) and, with raw, stem.bin + stem.json (for node)."""
    import numpy as np
    from onnx import numpy_helper

    array = np.ascontiguousarray(array)
    if raw:
        with open(os.path.join(folder, stem + ".bin"), "wb") as f:
            f.write(array.astype(array.dtype.newbyteorder("<")).tobytes())
        with open(os.path.join(folder, stem + ".json"), "w") as f:
            json.dump({"name": name, "type": str(array.dtype), "dims": list(array.shape)}, f)
    with open(os.path.join(folder, stem + ".pb"), "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def run_ort(ort_dir, model_path, data_dir, out_dir):
    """ONNX Runtime's outputs of the model on data_dir's input: a list of arrays."""
    import numpy as np

    os.makedirs(out_dir, exist_ok=True)
    cmd = ["node", ORT_RUN, "--ort", ort_dir, "--model", model_path, "--inputs", data_dir, "--out", out_dir]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"ONNX Runtime failed on {model_path}:\n{r.stderr.strip()}")
    outputs = []
    k = 0
    while os.path.exists(os.path.join(out_dir, f"output_{k}.json")):
        with open(os.path.join(out_dir, f"output_{k}.json")) as f:
            meta = json.load(f)
        outputs.append(np.fromfile(os.path.join(out_dir, f"output_{k}.bin"), dtype=meta["type"]).reshape(meta["dims"]))
        k += 1
    return outputs


def fold_batch_norms(model):
    """Conv -> BatchNormalization (the Conv's only reader) as one Conv."""
    import numpy as np
    from onnx import numpy_helper

    g = model.graph
    inits = {i.name: i for i in g.initializer}
    readers = {}
    for n in g.node:
        for t in n.input:
            readers.setdefault(t, []).append(n)
    producer = {t: n for n in g.node for t in n.output}
    outputs = {o.name for o in g.output}
    dropped = set()
    for bn in g.node:
        if bn.op_type != "BatchNormalization" or len(bn.output) != 1:
            continue
        conv = producer.get(bn.input[0])
        if conv is None or conv.op_type != "Conv" or len(readers[conv.output[0]]) != 1 or conv.output[0] in outputs:
            continue
        if not all(t in inits for t in bn.input[1:5]) or conv.input[1] not in inits:
            continue
        eps = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
        scale, beta, mean, var = (numpy_helper.to_array(inits[t]).astype(np.float64) for t in bn.input[1:5])
        s = scale / np.sqrt(var + eps)
        w = numpy_helper.to_array(inits[conv.input[1]]).astype(np.float64)
        b = (numpy_helper.to_array(inits[conv.input[2]]).astype(np.float64) if len(conv.input) > 2 and conv.input[2]
             else np.zeros(w.shape[0]))
        w_name, b_name = conv.output[0] + "_folded_W", conv.output[0] + "_folded_B"
        g.initializer.append(numpy_helper.from_array((w * s.reshape(-1, *[1] * (w.ndim - 1))).astype(np.float32),
                                                     w_name))
        g.initializer.append(numpy_helper.from_array(((b - mean) * s + beta).astype(np.float32), b_name))
        x = conv.input[0]
        del conv.input[:]
        conv.input.extend([x, w_name, b_name])
        conv.output[0] = bn.output[0]
        dropped.add(id(bn))
    keep = [n for n in g.node if id(n) not in dropped]
    del g.node[:]
    g.node.extend(keep)
    used = {t for n in g.node for t in n.input}
    keep_inits = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(keep_inits)


def quantized_tensors(model):
    """The activations to quantize: products' inputs and results (after a lone Relu)."""
    g = model.graph
    inits = {i.name for i in g.initializer}
    readers = {}
    for n in g.node:
        for t in n.input:
            readers.setdefault(t, []).append(n)
    outputs = {o.name for o in g.output}
    tensors = []

    def add(t):
        if t not in tensors:
            tensors.append(t)

    for n in g.node:
        if n.op_type not in PRODUCTS:
            continue
        if n.input[0] not in inits:
            add(n.input[0])
        y = n.output[0]
        r = readers.get(y, [])
        if len(r) == 1 and r[0].op_type == "Relu" and y not in outputs:
            y = r[0].output[0]
        add(y)
    return tensors


def calibrate(model, tensors, test_input_dir, ort_dir, count):
    """min and max of each tensor over the calibration inputs."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    existing = {o.name for o in probe.graph.output}
    for t in tensors:
        if t not in existing:
            probe.graph.output.append(helper.make_tensor_value_info(t, onnx.TensorProto.FLOAT, None))
    names = [o.name for o in probe.graph.output]
    with open(os.path.join(test_input_dir, "input_0.json")) as f:
        meta = json.load(f)
    x0 = np.fromfile(os.path.join(test_input_dir, "input_0.bin"), dtype=meta["type"]).reshape(meta["dims"])
    rng = np.random.default_rng(SEED)
    inputs = [x0] + [rng.standard_normal(x0.shape).astype(x0.dtype) for _ in range(count - 1)]
    ranges = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.onnx")
        onnx.save(probe, path)
        for k, x in enumerate(inputs):
            d = os.path.join(tmp, f"in{k}")
            os.makedirs(d)
            write_tensor(d, "input_0", x, meta["name"])
            for name, a in zip(names, run_ort(ort_dir, path, d, os.path.join(tmp, f"out{k}"))):
                lo, hi = ranges.get(name, (np.inf, -np.inf))
                ranges[name] = (min(lo, float(a.min())), max(hi, float(a.max())))
    return {t: ranges[t] for t in tensors}


def activation_params(lo, hi):
    """uint8 scale and zero point of [min(0, lo), max(0, hi)] (ORT's compute_scale_zp)."""
    import numpy as np

    rmin, rmax = min(0.0, lo), max(0.0, hi)
    scale = np.float32((rmax - rmin) / 255.0)
    if scale == 0:
        scale = np.float32(1.0)
    zero = int(np.clip(np.round(0 - rmin / np.float64(scale)), 0, 255))
    return scale, zero


def weight_params(w, axis):
    """int8 symmetric per channel along axis: (quantized, scales)."""
    import numpy as np

    moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
    absmax = np.abs(moved).max(axis=1)
    scale = (absmax / 127.0).astype(np.float32)
    scale[scale == 0] = np.float32(1.0)
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
    return q, scale


def quantize(model, ranges):
    import numpy as np
    from onnx import helper, numpy_helper

    g = model.graph
    inits = {i.name: i for i in g.initializer}
    graph_inputs = {i.name for i in g.input}
    new_inits = []
    qdq_after = {}  # producer output (or graph input) -> Q and DQ nodes
    renamed = {}  # a tensor read through DQ -> the DQ's output, for graph inputs

    def const(name, array):
        new_inits.append(numpy_helper.from_array(array, name))
        return name

    params = {}
    for t, (lo, hi) in ranges.items():
        scale, zero = activation_params(lo, hi)
        params[t] = scale
        s = const(t + "_scale", np.array(scale, dtype=np.float32))
        z = const(t + "_zero_point", np.array(zero, dtype=np.uint8))
        src = t if t in graph_inputs else t + "_float"
        q = helper.make_node("QuantizeLinear", [src, s, z], [t + "_quantized"], name=t + "_QuantizeLinear")
        dst = t + "_dequantized" if t in graph_inputs else t
        dq = helper.make_node("DequantizeLinear", [t + "_quantized", s, z], [dst], name=t + "_DequantizeLinear")
        qdq_after[t] = (q, dq)
        if t in graph_inputs:
            renamed[t] = dst

    # The products' weights and biases.
    for index, n in enumerate(g.node):
        for i, t in enumerate(n.input):
            if t in renamed:
                n.input[i] = renamed[t]
        if n.op_type not in PRODUCTS or n.input[1] not in inits:
            continue
        x = n.input[0]
        x = next((k for k, v in renamed.items() if v == x), x)
        if x not in params:
            continue
        trans_b = next((a.i for a in n.attribute if a.name == "transB"), 0)
        axis = 0 if n.op_type == "Conv" or (n.op_type == "Gemm" and trans_b) else 1
        w = numpy_helper.to_array(inits[n.input[1]]).astype(np.float32)
        wq, ws = weight_params(w, axis)
        wname = n.input[1]
        const(wname + "_quantized", wq)
        const(wname + "_scale", ws)
        const(wname + "_zero_point", np.zeros(ws.shape, dtype=np.int8))
        wdq = helper.make_node("DequantizeLinear", [wname + "_quantized", wname + "_scale", wname + "_zero_point"],
                               [wname + "_dequantized"], name=wname + "_DequantizeLinear", axis=axis)
        extra = [wdq]
        n.input[1] = wname + "_dequantized"
        if len(n.input) > 2 and n.input[2] in inits:
            b = numpy_helper.to_array(inits[n.input[2]]).astype(np.float32)
            bs = (np.float32(params[x]) * ws).astype(np.float32)
            bq = np.round(b / bs).astype(np.int32)
            bname = n.input[2]
            const(bname + "_quantized", bq)
            const(bname + "_scale", bs)
            const(bname + "_zero_point", np.zeros(bs.shape, dtype=np.int32))
            extra.append(helper.make_node("DequantizeLinear",
                                          [bname + "_quantized", bname + "_scale", bname + "_zero_point"],
                                          [bname + "_dequantized"], name=bname + "_DequantizeLinear", axis=0))
            n.input[2] = bname + "_dequantized"
        qdq_after[("weights", index)] = tuple(extra)

    # Nodes in order: each pair right after the tensor's producer, weights before their product.
    nodes = []
    for t in graph_inputs:
        if t in qdq_after:
            nodes.extend(qdq_after[t])
    for index, n in enumerate(g.node):
        nodes.extend(qdq_after.get(("weights", index), ()))
        outs = list(n.output)
        pairs = []
        for i, t in enumerate(outs):
            if t in qdq_after and t not in graph_inputs:
                n.output[i] = t + "_float"
                pairs.extend(qdq_after[t])
        nodes.append(n)
        nodes.extend(pairs)
    del g.node[:]
    g.node.extend(nodes)
    used = {t for n in g.node for t in n.input}
    keep = [i for i in g.initializer if i.name in used] + new_inits
    del g.initializer[:]
    g.initializer.extend(keep)
    del g.value_info[:]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--ort", default=os.environ.get("ORT_DIR"))
    p.add_argument("--calibration", type=int, default=4)
    a = p.parse_args()
    import onnx

    if not a.ort:
        fail("--ort DIR is needed (the calibration runs the float model under ONNX Runtime)")
    model = onnx.load(os.path.join(a.input, "model.onnx"))
    fold_batch_norms(model)
    tensors = quantized_tensors(model)
    ranges = calibrate(model, tensors, os.path.join(a.input, "test_data_set_0"), a.ort, max(1, a.calibration))
    quantize(model, ranges)
    onnx.checker.check_model(model)
    data = os.path.join(a.output, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    path = os.path.join(a.output, "model.onnx")
    onnx.save(model, path)
    for f in ("input_0.pb", "input_0.bin", "input_0.json"):
        shutil.copyfile(os.path.join(a.input, "test_data_set_0", f), os.path.join(data, f))
    outputs = run_ort(a.ort, path, data, os.path.join(a.output, "ort"))
    for k, y in enumerate(outputs):
        write_tensor(data, f"output_{k}", y, model.graph.output[k].name, raw=False)
    counts = {}
    for n in model.graph.node:
        counts[n.op_type] = counts.get(n.op_type, 0) + 1
    print(f"quantize-qdq: {path}: {len(tensors)} activations quantized; nodes {counts}")


if __name__ == "__main__":
    main()
