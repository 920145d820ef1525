#!/usr/bin/python3
"""Writes the models of tests/driver/tst_dynshape with ONNX Runtime's outputs.

Run with Debian's python3-onnx and an onnxruntime-node install (see
scripts/setup-ort.sh):

  /usr/bin/python3 make_dynshape.py [--ort DIR] [OUT]

The models and their data are committed beside this script, so the tests need
neither Python nor ONNX Runtime. Each data folder holds input_K.pb and
output_K.pb; the outputs are what ONNX Runtime computed (scripts/ort-run.mjs).

  detector.onnx   boxes [12, 4] and scores [12] -> TopK (8) -> Gather -> NonMaxSuppression
                  (at most 4 per class, IoU 0.5, score 0.2) -> Gather the kept boxes (scaled
                  to pixels) and scores, and the selected indices: the static regions before
                  and after NonMaxSuppression compiled, the one after for the count it keeps
    detector_overlap_data  overlapping boxes: some are suppressed
    detector_few_data      other boxes: a different number kept (another compile)
    detector_none_data     every score under the threshold: empty outputs
  nonzero_where.onnx  x [3, 4] -> NonZero -> Transpose -> Cast -> Mul 2: a compiled
                  region after NonZero
    nonzero_where_data
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_RUN = os.path.join(HERE, "..", "..", "..", "..", "scripts", "ort-run.mjs")
OPSET = [helper.make_opsetid("", 13)]


def save(model, out, name):
    onnx.checker.check_model(model)
    path = os.path.join(out, name + ".onnx")
    onnx.save(model, path)
    return path


def ort_outputs(ort_dir, model_path, inputs):
    """ONNX Runtime's outputs of MODEL_PATH for INPUTS (numpy arrays, in order)."""
    types = {np.float32: "float32", np.int64: "int64", np.bool_: "bool"}
    with tempfile.TemporaryDirectory() as tmp:
        ins, outs = os.path.join(tmp, "in"), os.path.join(tmp, "out")
        os.makedirs(ins)
        for k, a in enumerate(inputs):
            a.tofile(os.path.join(ins, f"input_{k}.bin"))
            with open(os.path.join(ins, f"input_{k}.json"), "w") as f:
                json.dump({"type": types[a.dtype.type], "dims": list(a.shape)}, f)
        r = subprocess.run(["node", ORT_RUN, "--ort", ort_dir, "--model", model_path, "--inputs", ins,
                            "--out", outs], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"make_dynshape: ONNX Runtime failed on {model_path}:\n{r.stderr}")
        results = []
        for k in range(len(onnx.load(model_path).graph.output)):
            with open(os.path.join(outs, f"output_{k}.json")) as f:
                meta = json.load(f)
            dtype = {"float32": np.float32, "int64": np.int64}[meta["type"]]
            results.append(np.fromfile(os.path.join(outs, f"output_{k}.bin"), dtype=dtype).reshape(meta["dims"]))
        return results


def write_data(out, name, inputs, outputs):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    for prefix, arrays in (("input", inputs), ("output", outputs)):
        for k, a in enumerate(arrays):
            with open(os.path.join(d, f"{prefix}_{k}.pb"), "wb") as f:
                f.write(numpy_helper.from_array(a).SerializeToString())
    print(f"make_dynshape: {name}: " + ", ".join(str(list(a.shape)) for a in outputs))


def detector(out, ort_dir):
    k = 8
    consts = [
        numpy_helper.from_array(np.array([k], dtype=np.int64), "k"),
        numpy_helper.from_array(np.array(4, dtype=np.int64), "max_per_class"),
        numpy_helper.from_array(np.array(0.5, dtype=np.float32), "iou"),
        numpy_helper.from_array(np.array(0.2, dtype=np.float32), "score_min"),
        numpy_helper.from_array(np.array(2, dtype=np.int64), "box_column"),
        numpy_helper.from_array(np.array([480, 640, 480, 640], dtype=np.float32), "image_size"),
        numpy_helper.from_array(np.array([0], dtype=np.int64), "axes0"),
        numpy_helper.from_array(np.array([0, 1], dtype=np.int64), "axes01"),
    ]
    nodes = [
        helper.make_node("TopK", ["scores", "k"], ["top_scores", "top_idx"], name="topk"),
        helper.make_node("Gather", ["boxes", "top_idx"], ["top_boxes"], name="gather_top", axis=0),
        helper.make_node("Unsqueeze", ["top_boxes", "axes0"], ["nms_boxes"], name="batch_boxes"),
        helper.make_node("Unsqueeze", ["top_scores", "axes01"], ["nms_scores"], name="batch_scores"),
        helper.make_node("NonMaxSuppression", ["nms_boxes", "nms_scores", "max_per_class", "iou", "score_min"],
                         ["selected"], name="nms"),
        helper.make_node("Gather", ["selected", "box_column"], ["keep"], name="box_of", axis=1),
        helper.make_node("Gather", ["top_boxes", "keep"], ["kept_boxes"], name="gather_boxes", axis=0),
        helper.make_node("Mul", ["kept_boxes", "image_size"], ["det_boxes"], name="to_pixels"),
        helper.make_node("Gather", ["top_scores", "keep"], ["det_scores"], name="gather_scores", axis=0),
    ]
    g = helper.make_graph(
        nodes, "detector",
        [helper.make_tensor_value_info("boxes", TensorProto.FLOAT, [12, 4]),
         helper.make_tensor_value_info("scores", TensorProto.FLOAT, [12])],
        [helper.make_tensor_value_info("det_boxes", TensorProto.FLOAT, ["n", 4]),
         helper.make_tensor_value_info("det_scores", TensorProto.FLOAT, ["n"]),
         helper.make_tensor_value_info("selected", TensorProto.INT64, ["n", 3])],
        consts)
    path = save(helper.make_model(g, opset_imports=OPSET), out, "detector")
    rng = np.random.default_rng(20)

    def boxes_near(centres, size, jitter):
        c = np.asarray(centres, dtype=np.float32)
        c = c + rng.uniform(-jitter, jitter, c.shape).astype(np.float32)
        h = rng.uniform(0.8, 1.2, (len(c), 2)).astype(np.float32) * size / 2
        return np.concatenate([c - h, c + h], axis=1).astype(np.float32)  # [y1, x1, y2, x2]

    # Four clusters of three boxes each: NMS keeps about one per cluster.
    overlap = boxes_near(np.repeat([[0.2, 0.2], [0.2, 0.7], [0.7, 0.3], [0.6, 0.8]], 3, axis=0), 0.2, 0.02)
    few = boxes_near(np.repeat([[0.3, 0.3], [0.7, 0.7]], 6, axis=0), 0.3, 0.03)
    scores = rng.uniform(0.3, 1.0, 12).astype(np.float32)
    for name, inputs in [("detector_overlap_data", [overlap, scores]),
                         ("detector_few_data", [few, rng.uniform(0.3, 1.0, 12).astype(np.float32)]),
                         ("detector_none_data", [overlap, rng.uniform(0.0, 0.15, 12).astype(np.float32)])]:
        write_data(out, name, inputs, ort_outputs(ort_dir, path, inputs))


def nonzero_where(out, ort_dir):
    nodes = [
        helper.make_node("NonZero", ["x"], ["nz"], name="nonzero"),
        helper.make_node("Transpose", ["nz"], ["rows"], name="transpose", perm=[1, 0]),
        helper.make_node("Cast", ["rows"], ["rowsf"], name="cast", to=TensorProto.FLOAT),
        helper.make_node("Mul", ["rowsf", "two"], ["y"], name="double"),
    ]
    g = helper.make_graph(
        nodes, "nonzero_where", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 2])],
        [numpy_helper.from_array(np.array(2, dtype=np.float32), "two")])
    path = save(helper.make_model(g, opset_imports=OPSET), out, "nonzero_where")
    x = np.array([[0, 1.5, 0, -2], [3, 0, 0, 0], [0, 0, 0.25, 1]], dtype=np.float32)
    write_data(out, "nonzero_where_data", [x], ort_outputs(ort_dir, path, [x]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=HERE)
    ap.add_argument("--ort", default=os.environ.get("ORT_DIR", "/work/main/build/ort"),
                    help="folder with node_modules/onnxruntime-node")
    args = ap.parse_args()
    detector(args.out, args.ort)
    nonzero_where(args.out, args.ort)


if __name__ == "__main__":
    main()
