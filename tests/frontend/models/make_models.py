#!/usr/bin/python3
"""Writes the small models the unsupported-constructs tests import.

Run with Debian's python3-onnx (/usr/bin/python3 make_models.py DIR); the
models are committed beside this script, so the tests need no Python. Each
passes onnx.checker (a model the checker accepts must import into a graph).

  dynquant.onnx  dynamic quantization (DynamicQuantizeLinear, MatMulInteger)
                 and an operator of a custom domain
  fp16.onnx      float16 input, weights and output (+ a float32 output
                 through Cast), with one input/output pair in fp16_data/
  if.onnx        If with a then_branch and an else_branch that reads the
                 outer scope and holds a custom-domain operator
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
opsets = [helper.make_opsetid("", 13), helper.make_opsetid("com.example", 1)]


def save(model, name):
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name))


# --- dynamic quantization -------------------------------------------------
w = numpy_helper.from_array(np.arange(12, dtype=np.uint8).reshape(4, 3), "w")
w_zp = numpy_helper.from_array(np.array(3, dtype=np.uint8), "w_zp")
nodes = [
    helper.make_node("Relu", ["x"], ["r"], name="relu"),
    helper.make_node("DynamicQuantizeLinear", ["r"], ["xq", "xs", "xzp"], name="quantize"),
    helper.make_node("MatMulInteger", ["xq", "w", "xzp", "w_zp"], ["acc"], name="matmul_int"),
    helper.make_node("Cast", ["acc"], ["accf"], name="to_float", to=TensorProto.FLOAT),
    helper.make_node("Mul", ["accf", "xs"], ["y0"], name="rescale"),
    helper.make_node("FancyScale", ["y0"], ["y"], name="custom", domain="com.example",
                     factor=0.5, mode="fast", tags=["a", "b"]),
]
g = helper.make_graph(nodes, "dynquant",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
                      [w, w_zp],
                      value_info=[helper.make_tensor_value_info("xq", TensorProto.UINT8, [2, 4])])
save(helper.make_model(g, opset_imports=opsets), "dynquant.onnx")

# --- float16 --------------------------------------------------------------
rng = np.random.default_rng(20)
scale = rng.uniform(-2, 2, (2, 3)).astype(np.float16)
bias = rng.uniform(-1, 1, (3,)).astype(np.float16)
nodes = [
    helper.make_node("Mul", ["x", "scale"], ["m"], name="mul"),
    helper.make_node("Add", ["m", "bias"], ["a"], name="add"),
    helper.make_node("Relu", ["a"], ["y"], name="relu"),
    helper.make_node("Cast", ["a"], ["y32"], name="widen", to=TensorProto.FLOAT),
]
g = helper.make_graph(nodes, "fp16",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 3])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 3]),
                       helper.make_tensor_value_info("y32", TensorProto.FLOAT, [2, 3])],
                      [numpy_helper.from_array(scale, "scale"),
                       numpy_helper.from_array(bias, "bias")])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), "fp16.onnx")
# The reference in float16 arithmetic, as a float16 runtime computes it.
x = rng.uniform(-3, 3, (2, 3)).astype(np.float16)
a = (x * scale + bias).astype(np.float16)
data = os.path.join(out, "fp16_data")
os.makedirs(data, exist_ok=True)
for name, arr in [("input_0", x), ("output_0", np.maximum(a, np.float16(0))),
                  ("output_1", a.astype(np.float32))]:
    with open(os.path.join(data, name + ".pb"), "wb") as f:
        f.write(numpy_helper.from_array(arr).SerializeToString())

# --- If with subgraphs ----------------------------------------------------
then_g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["t"], name="then_relu")], "then_body", [],
    [helper.make_tensor_value_info("t", TensorProto.FLOAT, [2])])
else_g = helper.make_graph(
    [helper.make_node("Neg", ["x"], ["n"], name="else_neg"),
     helper.make_node("Wobble", ["n"], ["e"], name="else_custom", domain="com.example")],
    "else_body", [], [helper.make_tensor_value_info("e", TensorProto.FLOAT, [2])])
nodes = [
    helper.make_node("Sigmoid", ["x"], ["s"], name="sigmoid"),
    helper.make_node("If", ["c"], ["branch"], name="choose", then_branch=then_g,
                     else_branch=else_g),
    helper.make_node("Add", ["branch", "s"], ["y"], name="add"),
]
g = helper.make_graph(nodes, "if_model",
                      [helper.make_tensor_value_info("c", TensorProto.BOOL, []),
                       helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
save(helper.make_model(g, opset_imports=opsets), "if.onnx")
