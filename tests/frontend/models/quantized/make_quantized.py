#!/usr/bin/python3
"""Writes the integer-product models tests/driver/tst_integer_products.cpp runs,
with reference outputs computed here by numpy.

Run with Debian's python3-onnx (/usr/bin/python3 make_quantized.py [DIR]); the
models and their data are committed beside this script, so the tests need no
Python. The reference follows the ONNX operator documents: int32 sums of the
operands less their zero points; QLinear* scale the sum (plus the int32 bias)
by x_scale * w_scale / y_scale in float32, round half to even, add y's zero
point and saturate.

  matmulinteger_rows_cols  uint8 A less per-row zero points, int8 B less
                           per-column ones (64 columns: vectorized)
  convinteger_channels     uint8 x, uint8 w with per-channel zero points,
                           padding 1, stride 2
  qlinearconv_bias         uint8 x, int8 w with per-channel scales and zero
                           points, int32 bias, padding, int8 y (saturating)
  qlinearmatmul_cols       3-d int8 a, int8 b with per-column scales and
                           zero points, uint8 y
  dynquant_matmul          a dynamically quantized MatMul as quantizers write
                           it: DynamicQuantizeLinear, MatMulInteger, Cast, Mul
                           by both scales, Add of the bias
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(5)
ONNX_TYPE = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8, np.int32: TensorProto.INT32,
             np.float32: TensorProto.FLOAT}


def ints(dtype, *shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, shape).astype(dtype)


def conv(x, w, pads, strides):
    """Direct N=1.. NCHW convolution of int32 tensors, zero padding."""
    p = pads
    x = np.pad(x, ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    n, c, h, wd = x.shape
    m, _, kh, kw = w.shape
    oh, ow = (h - kh) // strides[0] + 1, (wd - kw) // strides[1] + 1
    y = np.zeros((n, m, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * strides[0]:i * strides[0] + kh, j * strides[1]:j * strides[1] + kw]
            y[:, :, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [1, 2, 3]))
    return y.astype(np.int32)


def requantize(acc, multiplier, zero, dtype):
    info = np.iinfo(dtype)
    y = np.round(acc.astype(np.float32) * multiplier.astype(np.float32)) + zero.astype(np.int32)
    return np.clip(y, info.min, info.max).astype(dtype)


def save(name, nodes, inputs, outputs, inits, opset=13):
    """inputs, outputs: (name, array); inits: (name, array) initializers."""
    vi = lambda n, a: helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype.type], a.shape)
    graph = helper.make_graph(nodes, name, [vi(n, a) for n, a in inputs], [vi(n, a) for n, a in outputs],
                              [numpy_helper.from_array(a, n) for n, a in inits])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    data = os.path.join(out, name + "_data")
    os.makedirs(data, exist_ok=True)
    for prefix, items in (("input", inputs), ("output", outputs)):
        for i, (n, a) in enumerate(items):
            with open(os.path.join(data, "%s_%d.pb" % (prefix, i)), "wb") as f:
                f.write(numpy_helper.from_array(a, n).SerializeToString())


# MatMulInteger with per-row and per-column zero points.
# 64 columns: whole vectors for the register-blocked schedule.
A, B = ints(np.uint8, 6, 16), ints(np.int8, 16, 64)
az, bz = ints(np.uint8, 6), ints(np.int8, 64)
Y = (A.astype(np.int32) - az.astype(np.int32)[:, None]) @ (B.astype(np.int32) - bz.astype(np.int32))
save("matmulinteger_rows_cols", [helper.make_node("MatMulInteger", ["A", "B", "az", "bz"], ["Y"])],
     [("A", A)], [("Y", Y.astype(np.int32))], [("B", B), ("az", az), ("bz", bz)])

# ConvInteger with per-channel weight zero points, padding and strides.
x, w = ints(np.uint8, 1, 2, 5, 5), ints(np.uint8, 3, 2, 3, 3)
xz, wz = np.array(7, np.uint8), ints(np.uint8, 3)
Y = conv(x.astype(np.int32) - np.int32(xz), w.astype(np.int32) - wz.astype(np.int32)[:, None, None, None],
         [1, 1, 1, 1], [2, 2])
save("convinteger_channels",
     [helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], pads=[1, 1, 1, 1], strides=[2, 2])],
     [("x", x)], [("y", Y)], [("w", w), ("xz", xz), ("wz", wz)])

# QLinearConv: per-channel int8 weights, an int32 bias, saturating int8 output.
x, w = ints(np.uint8, 1, 3, 6, 6), ints(np.int8, 4, 3, 3, 3)
xs, xz = np.array(0.02, np.float32), np.array(120, np.uint8)
ws, wz = rng.uniform(0.005, 0.02, 4).astype(np.float32), ints(np.int8, 4) // 8
ys, yz = np.array(0.05, np.float32), np.array(-3, np.int8)
bias = rng.integers(-2000, 2000, 4).astype(np.int32)
acc = conv(x.astype(np.int32) - np.int32(xz), w.astype(np.int32) - wz.astype(np.int32)[:, None, None, None],
           [1, 1, 1, 1], [1, 1]) + bias[None, :, None, None]
Y = requantize(acc, (xs * ws / ys)[None, :, None, None], yz, np.int8)
save("qlinearconv_bias",
     [helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "B"], ["y"], pads=[1, 1, 1, 1])],
     [("x", x)], [("y", Y)], [("xs", xs), ("xz", xz), ("w", w), ("ws", ws), ("wz", wz), ("ys", ys), ("yz", yz),
                              ("B", bias)])

# QLinearMatMul: 3-d int8 a, per-column b, uint8 y.
a, b = ints(np.int8, 2, 3, 4), ints(np.int8, 4, 5)
as_, az = np.array([0.03], np.float32), np.array([4], np.int8)
bs, bz = rng.uniform(0.01, 0.04, 5).astype(np.float32), ints(np.int8, 5) // 16
ys, yz = np.array([0.04], np.float32), np.array([128], np.uint8)
acc = (a.astype(np.int32) - az.astype(np.int32)) @ (b.astype(np.int32) - bz.astype(np.int32))
Y = requantize(acc, as_ * bs / ys, yz, np.uint8)
save("qlinearmatmul_cols",
     [helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])],
     [("a", a)], [("y", Y)], [("as", as_), ("az", az), ("b", b), ("bs", bs), ("bz", bz), ("ys", ys), ("yz", yz)])

# A dynamically quantized MatMul (onnxruntime's quantize_dynamic writes this).
X = rng.uniform(-2, 3, (3, 6)).astype(np.float32)
Wf = rng.uniform(-1, 1, (6, 4)).astype(np.float32)
ws = np.float32(np.abs(Wf).max() / 127)
Wq = np.round(Wf / ws).astype(np.int8)
wz = np.array(0, np.int8)
bias = rng.uniform(-1, 1, 4).astype(np.float32)
lo, hi = min(0.0, float(X.min())), max(0.0, float(X.max()))
xs = np.float32((hi - lo) / 255)
xz = np.clip(np.round(np.float32(0 - lo) / xs), 0, 255).astype(np.uint8)
Xq = np.clip(np.round(X / xs) + xz, 0, 255).astype(np.uint8)
acc = (Xq.astype(np.int32) - np.int32(xz)) @ (Wq.astype(np.int32) - np.int32(wz))
Y = (acc.astype(np.float32) * (xs * ws)).astype(np.float32) + bias
save("dynquant_matmul",
     [helper.make_node("DynamicQuantizeLinear", ["X"], ["Xq", "xs", "xz"]),
      helper.make_node("MatMulInteger", ["Xq", "Wq", "xz", "wz"], ["acc"]),
      helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
      helper.make_node("Mul", ["xs", "ws"], ["scale"]),
      helper.make_node("Mul", ["accf", "scale"], ["prod"]),
      helper.make_node("Add", ["prod", "bias"], ["Y"])],
     [("X", X)], [("Y", Y.astype(np.float32))], [("Wq", Wq), ("wz", wz), ("ws", np.array(ws, np.float32)),
                                                 ("bias", bias)])
