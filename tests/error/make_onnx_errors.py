#!/usr/bin/python3
"""Writes the malformed ONNX models of tests/error/ (run by hand, not by the build).

Each FILE.onnx has a sidecar FILE.onnx.expect: line 1 is the message that
`tesselc show FILE.onnx --stage graph` must print (a substring of its stderr),
line 2, when present, extra tesselc arguments. Needs python3-onnx (Debian).
"""
import os

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
RELU = "/usr/share/libonnx-testdata/data/node/test_relu/model.onnx"


def save(name, model, expect, args=""):
    onnx.save(model, os.path.join(HERE, name))
    write_expect(name, expect, args)


def write_expect(name, expect, args=""):
    with open(os.path.join(HERE, name + ".expect"), "w") as f:
        f.write(expect + "\n" + (args + "\n" if args else ""))


def model(nodes, inputs, outputs, opset=13, initializers=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def tensor(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


# The test_relu model is 99 bytes; 64 of them end inside the graph message.
with open(RELU, "rb") as f:
    head = f.read()[:64]
with open(os.path.join(HERE, "truncated_model.onnx"), "wb") as f:
    f.write(head)
write_expect("truncated_model.onnx",
             "error: not a valid ONNX model (malformed or truncated protobuf data)")

with open(os.path.join(HERE, "not_protobuf.onnx"), "w") as f:
    f.write("this is a text file, not an ONNX model\n")
write_expect("not_protobuf.onnx",
             "error: not a valid ONNX model (malformed or truncated protobuf data)")

save("unsupported_operator.onnx",
     model([helper.make_node("Relu", ["x"], ["t"], name="relu"),
            helper.make_node("FooBar", ["t"], ["y"], name="foo")],
           [tensor("x", [2, 3])], [tensor("y", [2, 3])]),
     "error: node 'foo' (FooBar, opset 13): operator 'FooBar' is not supported")

save("wrong_input_shape.onnx",
     model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
           [tensor("x", ["N", 3, 4, 4])], [tensor("y", ["N", 3, 4, 4])]),
     "error: input 'x' has rank 4 (float32[?, 3, 4, 4]), but the input shape [1, 2] has 2",
     "--input-shape x:1,2")

save("shapes_do_not_broadcast.onnx",
     model([helper.make_node("Add", ["a", "b"], ["y"], name="add")],
           [tensor("a", [2, 3]), tensor("b", [4, 3])], [tensor("y", [2, 3])], opset=11),
     "error: node 'add' (Add, opset 11): shapes float32[2, 3] and float32[4, 3] do not "
     "broadcast")

ints = [helper.make_tensor(n, TensorProto.INT64, [1], [v])
        for n, v in [("starts", 0), ("ends", 4), ("axes", 1), ("steps", 0)]]
save("slice_step_zero.onnx",
     model([helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"],
                             name="slice")],
           [tensor("x", [4, 4])], [tensor("y", [4, 4])], initializers=ints),
     "error: node 'slice' (Slice, opset 13): steps [0] has a 0")

weights = [helper.make_tensor("W", TensorProto.FLOAT, [1, 9, 2], [0.0] * 18),
           helper.make_tensor("R", TensorProto.FLOAT, [1, 9, 3], [0.0] * 27)]
save("gru_unknown_activation.onnx",
     model([helper.make_node("GRU", ["x", "W", "R"], ["", "h"], name="gru", hidden_size=3,
                             activations=["Sigmoid", "Swish"])],
           [tensor("x", [4, 1, 2])], [tensor("h", [1, 1, 3])], opset=14, initializers=weights),
     "error: node 'gru' (GRU, opset 14): activation 'Swish' is not supported")
