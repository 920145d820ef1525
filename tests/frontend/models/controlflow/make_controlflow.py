#!/usr/bin/python3
"""Writes the control-flow models tests/driver/tst_controlflow.cpp runs, with
reference outputs computed here by numpy (ONNX 1.12 has no reference
evaluator): each model's semantics written out in plain loops below, from the
ONNX operator documents, never from Tessel's output.

Run with Debian's python3-onnx (/usr/bin/python3 make_controlflow.py [DIR]); the
models and their data are committed beside this script, so the tests need no
Python.

  if_data        If on a condition computed from the data (ReduceSum(x) > 0);
                 the branches read the outer x and a constant; an Add after
                 it. Two data sets, one per branch (if_data_then, if_data_else).
  if_constant    If on a condition known once shapes are bound (Shape(x)[0] ==
                 2): inline-constant-if removes it.
  loop_cond      Loop with a trip count input, a condition computed in the body
                 (stops early), a carried value, an outer value read by the
                 body and a scan output whose length is data; ops before and
                 after the Loop, one on the scan output.
  scan_axes      Scan (opset 11) with two scan inputs, scan_input_axes [1, 0],
                 a reversed input, scan_output_axes [1], a reversed output and
                 an outer value read by the body.
  scan8_batch    Scan (opset 8) over a batch of 2, the scan input reversed.
  loop_nested_if Loop whose body holds an If; the If's branches read the body's
                 carried value and the outer graph's input (two scopes out).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)
F, B, I64 = TensorProto.FLOAT, TensorProto.BOOL, TensorProto.INT64


def save(model, name, datasets):
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    for suffix, inputs, outputs in datasets:
        d = os.path.join(out, name + suffix + "_data")
        os.makedirs(d, exist_ok=True)
        for k, a in enumerate(inputs):
            onnx.save_tensor(numpy_helper.from_array(a), os.path.join(d, "input_%d.pb" % k))
        for k, a in enumerate(outputs):
            onnx.save_tensor(numpy_helper.from_array(a), os.path.join(d, "output_%d.pb" % k))


def vi(name, t, shape):
    return helper.make_tensor_value_info(name, t, shape)


# --- if_data ------------------------------------------------------------------
k = np.array([0.5, -1.0, 2.0], np.float32)
then_g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Mul", ["r", "two"], ["t"])],
    "then_body", [], [vi("t", F, [2, 3])],
    initializer=[numpy_helper.from_array(np.array(2.0, np.float32), "two")])
else_g = helper.make_graph(
    [helper.make_node("Neg", ["x"], ["n"]), helper.make_node("Add", ["n", "k"], ["e"])],
    "else_body", [], [vi("e", F, [2, 3])])
g = helper.make_graph(
    [helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
     helper.make_node("Greater", ["s", "zero"], ["c"]),
     helper.make_node("If", ["c"], ["b"], name="choose", then_branch=then_g, else_branch=else_g),
     helper.make_node("Add", ["b", "x"], ["y"])],
    "if_data", [vi("x", F, [2, 3])], [vi("y", F, [2, 3])],
    initializer=[numpy_helper.from_array(k, "k"), numpy_helper.from_array(np.array(0.0, np.float32), "zero")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def if_data(x):
    b = np.maximum(x, 0) * 2 if x.sum() > 0 else -x + k
    return b + x


xp = np.abs(rng.standard_normal((2, 3))).astype(np.float32)
xn = -np.abs(rng.standard_normal((2, 3))).astype(np.float32)
save(m, "if_data", [("_then", [xp], [if_data(xp)]), ("_else", [xn], [if_data(xn)])])

# --- if_constant ----------------------------------------------------------------
then_g = helper.make_graph([helper.make_node("Sigmoid", ["x"], ["t"])], "then_body", [], [vi("t", F, [2, 4])])
else_g = helper.make_graph([helper.make_node("Tanh", ["x"], ["e"])], "else_body", [], [vi("e", F, [2, 4])])
g = helper.make_graph(
    [helper.make_node("Shape", ["x"], ["shape"]),
     helper.make_node("Gather", ["shape", "zero"], ["d0"], axis=0),
     helper.make_node("Equal", ["d0", "two"], ["c"]),
     helper.make_node("If", ["c"], ["b"], name="by_shape", then_branch=then_g, else_branch=else_g),
     helper.make_node("Mul", ["b", "x"], ["y"])],
    "if_constant", [vi("x", F, [2, 4])], [vi("y", F, [2, 4])],
    initializer=[numpy_helper.from_array(np.array(0, np.int64), "zero"),
                 numpy_helper.from_array(np.array(2, np.int64), "two")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
x = rng.standard_normal((2, 4)).astype(np.float32)
save(m, "if_constant", [("", [x], [(1 / (1 + np.exp(-x))) * x])])

# --- loop_cond ------------------------------------------------------------------
body = helper.make_graph(
    [helper.make_node("Mul", ["y_in", "half"], ["h"]),
     helper.make_node("Add", ["h", "a"], ["y_out"]),           # a: the outer value
     helper.make_node("ReduceMax", ["y_out"], ["mx"], keepdims=0),
     helper.make_node("Less", ["mx", "limit"], ["cond_out"]),
     helper.make_node("Cast", ["i"], ["fi"], to=F),
     helper.make_node("Mul", ["y_out", "fi"], ["scan_out"])],
    "loop_body", [vi("i", I64, []), vi("cond_in", B, []), vi("y_in", F, [2, 2])],
    [vi("cond_out", B, []), vi("y_out", F, [2, 2]), vi("scan_out", F, [2, 2])],
    initializer=[numpy_helper.from_array(np.array(0.5, np.float32), "half"),
                 numpy_helper.from_array(np.array(6.0, np.float32), "limit")])
g = helper.make_graph(
    [helper.make_node("Add", ["x", "one"], ["a"]),
     helper.make_node("Loop", ["m", "", "y0"], ["y_final", "ys"], name="loop", body=body),
     helper.make_node("Mul", ["y_final", "x"], ["out_final"]),
     helper.make_node("Relu", ["ys"], ["out_scan"])],
    "loop_cond", [vi("m", I64, []), vi("x", F, [2, 2]), vi("y0", F, [2, 2])],
    [vi("out_final", F, [2, 2]), vi("out_scan", F, ["n", 2, 2])],
    initializer=[numpy_helper.from_array(np.array(1.0, np.float32), "one")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def loop_cond(trips, x, y0):
    a = x + 1
    y, cond, scans, i = y0, True, [], 0
    while i < trips and cond:
        y = y * 0.5 + a
        cond = bool(y.max() < 6.0)
        scans.append(y * np.float32(i))
        i += 1
    ys = np.stack(scans) if scans else np.zeros((0, 2, 2), np.float32)
    return [y * x, np.maximum(ys, 0)]


x = np.array([[1.0, 2.0], [0.5, 3.0]], np.float32)
y0 = np.zeros((2, 2), np.float32)
datasets = []
for suffix, trips in (("_stops", 20), ("_trips", 1), ("_zero", 0)):
    mm = np.array(trips, np.int64)
    datasets.append((suffix, [mm, x, y0], loop_cond(trips, x, y0)))
save(m, "loop_cond", datasets)

# --- scan_axes ------------------------------------------------------------------
body = helper.make_graph(
    [helper.make_node("Mul", ["u", "w"], ["uw"]),
     helper.make_node("Add", ["s_in", "uw"], ["s1"]),
     helper.make_node("Add", ["s1", "v"], ["s_out"]),
     helper.make_node("Tanh", ["s_out"], ["o"])],
    "scan_body", [vi("s_in", F, [3]), vi("u", F, [3]), vi("v", F, [3])], [vi("s_out", F, [3]), vi("o", F, [3])])
g = helper.make_graph(
    [helper.make_node("Scan", ["s0", "U", "V"], ["s_final", "O"], name="scan", body=body, num_scan_inputs=2,
                      scan_input_axes=[1, 0], scan_input_directions=[0, 1], scan_output_axes=[1],
                      scan_output_directions=[1])],
    "scan_axes", [vi("s0", F, [3]), vi("U", F, [3, 4]), vi("V", F, [4, 3]), vi("w", F, [3])],
    [vi("s_final", F, [3]), vi("O", F, [3, 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)])


def scan_axes(s0, U, V, w):
    s, outs = s0, []
    L = U.shape[1]
    for t in range(L):
        u, v = U[:, t], V[L - 1 - t, :]
        s = s + u * w + v
        outs.append(np.tanh(s))
    outs.reverse()
    return [s, np.stack(outs, axis=1)]


s0 = rng.standard_normal(3).astype(np.float32)
U = rng.standard_normal((3, 4)).astype(np.float32)
V = rng.standard_normal((4, 3)).astype(np.float32)
w = rng.standard_normal(3).astype(np.float32)
save(m, "scan_axes", [("", [s0, U, V, w], scan_axes(s0, U, V, w))])

# --- scan8_batch ----------------------------------------------------------------
body = helper.make_graph(
    [helper.make_node("Add", ["s_in", "x"], ["s_out"]), helper.make_node("Mul", ["s_out", "x"], ["o"])],
    "scan_body", [vi("s_in", F, [2]), vi("x", F, [2])], [vi("s_out", F, [2]), vi("o", F, [2])])
g = helper.make_graph(
    [helper.make_node("Scan", ["", "s0", "X"], ["s_final", "O"], name="scan8", body=body, num_scan_inputs=1,
                      directions=[1])],
    "scan8_batch", [vi("s0", F, [2, 2]), vi("X", F, [2, 3, 2])], [vi("s_final", F, [2, 2]), vi("O", F, [2, 3, 2])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 8)])


def scan8(s0, X):
    finals, outs = [], []
    for b in range(X.shape[0]):
        s, o = s0[b], []
        for t in reversed(range(X.shape[1])):
            s = s + X[b, t]
            o.append(s * X[b, t])
        finals.append(s)
        outs.append(np.stack(o))
    return [np.stack(finals), np.stack(outs)]


s0 = rng.standard_normal((2, 2)).astype(np.float32)
X = rng.standard_normal((2, 3, 2)).astype(np.float32)
save(m, "scan8_batch", [("", [s0, X], scan8(s0, X))])

# --- loop_nested_if ---------------------------------------------------------------
then_g = helper.make_graph([helper.make_node("Add", ["y_in", "a"], ["t"])], "then_body", [], [vi("t", F, [2])])
else_g = helper.make_graph([helper.make_node("Mul", ["y_in", "a"], ["e"])], "else_body", [], [vi("e", F, [2])])
body = helper.make_graph(
    [helper.make_node("Cast", ["i"], ["fi"], to=F),
     helper.make_node("Less", ["fi", "two"], ["c"]),
     helper.make_node("If", ["c"], ["y_out"], name="inner", then_branch=then_g, else_branch=else_g),
     helper.make_node("Identity", ["cond_in"], ["cond_out"])],
    "loop_body", [vi("i", I64, []), vi("cond_in", B, []), vi("y_in", F, [2])],
    [vi("cond_out", B, []), vi("y_out", F, [2])],
    initializer=[numpy_helper.from_array(np.array(2.0, np.float32), "two")])
g = helper.make_graph(
    [helper.make_node("Loop", ["m", "", "y0"], ["y"], name="outer", body=body)],
    "loop_nested_if", [vi("a", F, [2]), vi("y0", F, [2])], [vi("y", F, [2])],
    initializer=[numpy_helper.from_array(np.array(4, np.int64), "m")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def loop_nested_if(a, y0):
    y = y0
    for i in range(4):
        y = y + a if i < 2 else y * a
    return [y]


a = rng.standard_normal(2).astype(np.float32)
y0 = rng.standard_normal(2).astype(np.float32)
save(m, "loop_nested_if", [("", [a, y0], loop_nested_if(a, y0))])
