#!/usr/bin/python3
"""Writes the recurrent-layer models tests/driver/tst_recurrent.cpp runs, with
reference outputs computed here by numpy.

Run with Debian's python3-onnx (/usr/bin/python3 make_recurrent.py [DIR]); the
models and their data are committed beside this script, so the tests need no
Python. The reference below follows the ONNX operator documents (and
onnxruntime where they are silent: clip bounds the gates' inputs after the
peepholes; a reverse direction with sequence_lens reads each batch entry's own
steps backwards; Y is zero past an entry's length, Y_h and Y_c hold its last
state). It loops over batch entries one by one, unlike Tessel's masking.

  lstm_bidi_seqlens   bidirectional LSTM, sequence_lens and initial states as
                      inputs, peepholes, bias; Y, Y_h, Y_c
  lstm_batchfirst     layout 1, input_forget, activations Sigmoid, Affine,
                      ScaledTanh with alpha/beta; only Y_c
  gru_lbr0_bidi       bidirectional GRU, linear_before_reset 0, clip, initial_h
  gru_lbr1_reverse    reverse GRU, linear_before_reset 1, layout 1, HardSigmoid
                      (alpha, beta) and Softsign
  rnn_reverse_lens    reverse RNN, LeakyRelu, a constant sequence_lens shorter
                      than the sequence, no bias and no initial state
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20)

ACT = {
    "Sigmoid": lambda x, a, b: 1 / (1 + np.exp(-x)),
    "Tanh": lambda x, a, b: np.tanh(x),
    "Relu": lambda x, a, b: np.maximum(x, 0),
    "LeakyRelu": lambda x, a, b: np.where(x >= 0, x, a * x),
    "Affine": lambda x, a, b: a * x + b,
    "ScaledTanh": lambda x, a, b: a * np.tanh(b * x),
    "HardSigmoid": lambda x, a, b: np.clip(a * x + b, 0, 1),
    "Softsign": lambda x, a, b: x / (1 + np.abs(x)),
}
DEFAULTS = {"LeakyRelu": (0.01, 0), "Affine": (1.0, 0.0), "ScaledTanh": (1.0, 1.0),
            "HardSigmoid": (0.2, 0.5)}
PARAMS = {"LeakyRelu": 1, "Affine": 2, "ScaledTanh": 2, "HardSigmoid": 2}


def activations(names, alphas, betas):
    """Functions with their alpha and beta, consumed in order by those that take them."""
    fs, ai, bi = [], 0, 0
    for n in names:
        a, b = DEFAULTS.get(n, (0, 0))
        if PARAMS.get(n, 0) >= 1 and ai < len(alphas):
            a, ai = alphas[ai], ai + 1
        if PARAMS.get(n, 0) >= 2 and bi < len(betas):
            b, bi = betas[bi], bi + 1
        fs.append(lambda x, n=n, a=a, b=b: ACT[n](x, a, b))
    return fs


def reference(op, X, W, R, B, lens, h0, c0, P, attrs):
    H = attrs["hidden_size"]
    layout = attrs.get("layout", 0)
    direction = attrs.get("direction", "forward")
    D = 2 if direction == "bidirectional" else 1
    count = {"RNN": 1, "GRU": 2, "LSTM": 3}[op]
    default = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[op]
    names = attrs.get("activations", default * D)
    fs = activations(names, attrs.get("activation_alpha", []), attrs.get("activation_beta", []))
    clip = attrs.get("clip")
    cl = (lambda x: np.clip(x, -clip, clip)) if clip is not None else (lambda x: x)
    if layout:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    S, N, _ = X.shape
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    if B is None:
        B = np.zeros((D, 2 * G * H), np.float32)
    if lens is None:
        lens = np.full((N,), S)
    Y = np.zeros((S, D, N, H), np.float32)
    Yh = np.zeros((D, N, H), np.float32)
    Yc = np.zeros((D, N, H), np.float32)
    for d in range(D):
        f = fs[d * count:(d + 1) * count]
        back = direction == "reverse" or d == 1
        w, r, wb, rb = W[d], R[d], B[d][:G * H], B[d][G * H:]
        for n in range(N):
            h = np.zeros(H, np.float32) if h0 is None else h0[d, n].copy()
            c = np.zeros(H, np.float32) if c0 is None else c0[d, n].copy()
            steps = range(lens[n])
            for t in (reversed(steps) if back else steps):
                x = X[t, n]
                if op == "RNN":
                    h = f[0](cl(x @ w.T + h @ r.T + wb + rb))
                elif op == "GRU":
                    xz, xr, xh = np.split(x @ w.T + wb, 3)
                    rz, rr, rh = np.split(r, 3)
                    bz, br, bh = np.split(rb, 3)
                    z = f[0](cl(xz + h @ rz.T + bz))
                    rg = f[0](cl(xr + h @ rr.T + br))
                    if attrs.get("linear_before_reset", 0):
                        hh = f[1](cl(xh + rg * (h @ rh.T + bh)))
                    else:
                        hh = f[1](cl(xh + (rg * h) @ rh.T + bh))
                    h = (1 - z) * hh + z * h
                else:
                    gi, go, gf, gc = np.split(x @ w.T + h @ r.T + wb + rb, 4)
                    pi, po, pf = np.split(P[d], 3) if P is not None else (0, 0, 0)
                    i = f[0](cl(gi + pi * c))
                    fg = 1 - i if attrs.get("input_forget", 0) else f[0](cl(gf + pf * c))
                    c = fg * c + i * f[1](cl(gc))
                    o = f[0](cl(go + po * c))
                    h = o * f[2](c)
                Y[t, d, n] = h
            Yh[d, n], Yc[d, n] = h, c
    if layout:
        Y, Yh, Yc = Y.transpose(2, 0, 1, 3), Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    return Y, Yh, Yc


def rand(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def make(name, op, S, N, I, attrs, outputs, bias=True, peepholes=False, inputs=("X",),
         lens=None, const_lens=False, h0=False, c0=False):
    """inputs: which tensors are graph inputs (the others are initializers)."""
    H = attrs["hidden_size"]
    D = 2 if attrs.get("direction") == "bidirectional" else 1
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    layout = attrs.get("layout", 0)
    t = {"X": rand(N, S, I) if layout else rand(S, N, I)}
    t["W"], t["R"] = rand(D, G * H, I), rand(D, G * H, H)
    if bias:
        t["B"] = rand(D, 2 * G * H)
    if lens is not None:
        t["sequence_lens"] = np.array(lens, np.int32)
    state = (N, D, H) if layout else (D, N, H)
    if h0:
        t["initial_h"] = rand(*state)
    if c0:
        t["initial_c"] = rand(*state)
    if peepholes:
        t["P"] = rand(D, 3 * H)
    order = ["X", "W", "R", "B", "sequence_lens", "initial_h"] + (["initial_c", "P"] if op == "LSTM" else [])
    node_inputs = [n if n in t else "" for n in order]
    while node_inputs and not node_inputs[-1]:
        node_inputs.pop()
    ref = reference(op, t["X"], t["W"], t["R"], t.get("B"), t.get("sequence_lens"), t.get("initial_h"),
                    t.get("initial_c"), t.get("P"), attrs)
    names = ["Y", "Y_h", "Y_c"]
    node_outputs = [n if n in outputs else "" for n in names[:3 if op == "LSTM" else 2]]
    while not node_outputs[-1]:
        node_outputs.pop()
    node = helper.make_node(op, node_inputs, node_outputs, **attrs)
    graph_inputs = [helper.make_tensor_value_info(n, TensorProto.INT32 if n == "sequence_lens" else TensorProto.FLOAT,
                                                  t[n].shape) for n in order if n in t and n in inputs]
    inits = [numpy_helper.from_array(t[n], n) for n in order if n in t and n not in inputs]
    graph_outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, ref[names.index(n)].shape) for n in outputs]
    graph = helper.make_graph([node], name, graph_inputs, graph_outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    data = os.path.join(out, name + "_data")
    os.makedirs(data, exist_ok=True)
    for i, n in enumerate(n for n in order if n in t and n in inputs):
        with open(os.path.join(data, "input_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(t[n], n).SerializeToString())
    for i, n in enumerate(outputs):
        with open(os.path.join(data, "output_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(ref[names.index(n)], n).SerializeToString())


make("lstm_bidi_seqlens", "LSTM", 4, 3, 2, {"hidden_size": 3, "direction": "bidirectional"}, ["Y", "Y_h", "Y_c"],
     peepholes=True, inputs=("X", "sequence_lens", "initial_h", "initial_c"), lens=[4, 2, 3], h0=True, c0=True)
make("lstm_batchfirst", "LSTM", 3, 2, 3,
     {"hidden_size": 4, "layout": 1, "input_forget": 1, "activations": ["Sigmoid", "Affine", "ScaledTanh"],
      "activation_alpha": [0.7, 1.3], "activation_beta": [0.1, 0.9]}, ["Y_c"], bias=False)
make("gru_lbr0_bidi", "GRU", 3, 2, 3, {"hidden_size": 4, "direction": "bidirectional", "clip": 0.6},
     ["Y", "Y_h"], inputs=("X", "initial_h"), h0=True)
make("gru_lbr1_reverse", "GRU", 4, 2, 2,
     {"hidden_size": 3, "direction": "reverse", "layout": 1, "linear_before_reset": 1,
      "activations": ["HardSigmoid", "Softsign"], "activation_alpha": [0.3], "activation_beta": [0.4]},
     ["Y", "Y_h"], inputs=("X", "initial_h"), h0=True)
make("rnn_reverse_lens", "RNN", 4, 2, 3,
     {"hidden_size": 3, "direction": "reverse", "activations": ["LeakyRelu"], "activation_alpha": [0.2]},
     ["Y", "Y_h"], bias=False, lens=[3, 1])
