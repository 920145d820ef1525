#!/usr/bin/python3
"""One-convolution ONNX models for timing the int8 convolution against the float one.

Writes, into the folder given (default: the current one), for ResNet-18's
64 -> 64 3x3 layer at 56 x 56 and its 256 -> 256 3x3 layer at 14 x 14:
  float_C_H.onnx        Conv, float32, constant weights
  convinteger_C_H.onnx  ConvInteger, uint8 data (zero point 128), constant int8 weights
  qlinear_C_H.onnx      QLinearConv, the same with scales (requantized to uint8)
all 3x3, padding 1. Time them one thread, in process, per kernel:
  tesselc run float_64_56.onnx --threads 1 --in-process --profile --repeat 50
GFLOP/s = 2 * C * C * 9 * H * H / time (the profile's own column counts no
integer multiply-adds).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(kind, c, h, oc, rng):
    x_type = TensorProto.FLOAT if kind == "float" else TensorProto.UINT8
    out_type = {"float": TensorProto.FLOAT, "convinteger": TensorProto.INT32, "qlinear": TensorProto.UINT8}[kind]
    x = helper.make_tensor_value_info("x", x_type, [1, c, h, h])
    y = helper.make_tensor_value_info("y", out_type, [1, oc, h, h])
    attrs = dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    w8 = numpy_helper.from_array(rng.integers(-128, 128, (oc, c, 3, 3)).astype(np.int8), "w")
    if kind == "float":
        inits = [numpy_helper.from_array(rng.standard_normal((oc, c, 3, 3)).astype(np.float32), "w")]
        node = helper.make_node("Conv", ["x", "w"], ["y"], **attrs)
    elif kind == "convinteger":
        inits = [w8, numpy_helper.from_array(np.array(128, np.uint8), "xz"),
                 numpy_helper.from_array(np.array(0, np.int8), "wz")]
        node = helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], **attrs)
    else:
        inits = [w8] + [numpy_helper.from_array(np.array(v, t), n) for n, v, t in
                        [("xs", 0.02, np.float32), ("xz", 128, np.uint8), ("ws", 0.01, np.float32),
                         ("wz", 0, np.int8), ("ys", 0.5, np.float32), ("yz", 128, np.uint8)]]
        node = helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"], **attrs)
    graph = helper.make_graph([node], f"{kind}_{c}_{h}", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    for c, h in [(64, 56), (256, 14)]:
        for kind in ["float", "convinteger", "qlinear"]:
            onnx.save(model(kind, c, h, c, np.random.default_rng(0)), os.path.join(out, f"{kind}_{c}_{h}.onnx"))


if __name__ == "__main__":
    main()
