#!/usr/bin/env node
// Runs an ONNX model under ONNX Runtime (the npm package onnxruntime-node, CPU):
// the reference of Tessel's model tests and the anchor of bench_models. Test and
// benchmark use only.
//
//   node scripts/ort-run.mjs --model M.onnx --inputs DIR [--out DIR] [--ort DIR]
//                            [--threads N] [--time R] [--warmup W]
//
// --inputs DIR   input_K.bin (raw little-endian data) + input_K.json
//                ({"name", "type", "dims"}) for K = 0, 1, ..., as scripts/export-models.py
//                writes them; an input's name defaults to the session's K-th input.
// --out DIR      writes every output K (in the model's output order) as output_K.bin
//                + output_K.json the same way.
// --ort DIR      where `npm install --prefix DIR onnxruntime-node` put it (default:
//                $ORT_DIR, else $BUILD_DIR/ort, else build/ort).
// --threads N    intraOpNumThreads (default 1); interOpNumThreads is 1, execution
//                sequential, graph optimisation level 'all'.
// --time R       after W warm-up runs (default 3), R timed runs; prints JSON
//                {"latency_ms": median, "runs_ms": [...], "threads", "session_ms"}.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

function die(msg) {
  process.stderr.write(`ort-run: ${msg}\n`);
  process.exit(1);
}

const opts = { threads: 1, time: 0, warmup: 3 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; ++i) {
  const a = argv[i];
  const value = () => (i + 1 < argv.length ? argv[++i] : die(`${a} needs a value`));
  if (a === '--model') opts.model = value();
  else if (a === '--inputs') opts.inputs = value();
  else if (a === '--out') opts.out = value();
  else if (a === '--ort') opts.ort = value();
  else if (a === '--threads') opts.threads = parseInt(value(), 10);
  else if (a === '--time') opts.time = parseInt(value(), 10);
  else if (a === '--warmup') opts.warmup = parseInt(value(), 10);
  else die(`unknown argument '${a}'`);
}
if (!opts.model || !opts.inputs) die('usage: ort-run.mjs --model M.onnx --inputs DIR [--out DIR] [--ort DIR] [--threads N] [--time R] [--warmup W]');
if (!(opts.threads >= 1)) die('--threads must be at least 1');

const ortDir = path.resolve(opts.ort ?? process.env.ORT_DIR ?? path.join(process.env.BUILD_DIR ?? 'build', 'ort'));
let ort;
try {
  ort = createRequire(path.join(ortDir, 'package.json'))('onnxruntime-node');
} catch (e) {
  die(`cannot load onnxruntime-node from ${ortDir} (run scripts/setup-ort.sh ${ortDir}): ${e.message}`);
}

const TYPES = {
  float16: Uint16Array, float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array,
  int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array,
};

function readInputs(dir, inputNames) {
  const feeds = {};
  for (let k = 0; ; ++k) {
    const meta = path.join(dir, `input_${k}.json`);
    if (!fs.existsSync(meta)) break;
    const m = JSON.parse(fs.readFileSync(meta, 'utf8'));
    const Ctor = TYPES[m.type] ?? die(`${meta}: type ${m.type} is not supported`);
    const bytes = fs.readFileSync(path.join(dir, `input_${k}.bin`));
    const data = new Ctor(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const name = m.name ?? inputNames[k];
    feeds[name] = new ort.Tensor(m.type, data, m.dims);
  }
  if (Object.keys(feeds).length === 0) die(`no input_0.json in ${dir}`);
  return feeds;
}

const sessionStart = performance.now();
let session;
try {
  session = await ort.InferenceSession.create(opts.model, {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: opts.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
} catch (e) {
  die(`cannot load ${opts.model}: ${e.message}`);
}
const sessionMs = performance.now() - sessionStart;
const feeds = readInputs(opts.inputs, session.inputNames);

let results;
try {
  results = await session.run(feeds);
} catch (e) {
  die(`running ${opts.model} failed: ${e.message}`);
}

if (opts.out) {
  fs.mkdirSync(opts.out, { recursive: true });
  session.outputNames.forEach((name, k) => {
    const t = results[name];
    const d = t.data;
    fs.writeFileSync(path.join(opts.out, `output_${k}.bin`), Buffer.from(d.buffer, d.byteOffset, d.byteLength));
    fs.writeFileSync(path.join(opts.out, `output_${k}.json`), JSON.stringify({ name, type: t.type, dims: t.dims }));
  });
}

if (opts.time > 0) {
  for (let i = 1; i < opts.warmup; ++i) await session.run(feeds);
  const runs = [];
  for (let i = 0; i < opts.time; ++i) {
    const t0 = performance.now();
    await session.run(feeds);
    runs.push(performance.now() - t0);
  }
  const sorted = [...runs].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  process.stdout.write(JSON.stringify({
    latency_ms: median, runs_ms: runs, threads: opts.threads, session_ms: sessionMs,
  }) + '\n');
}
await session.release?.();
