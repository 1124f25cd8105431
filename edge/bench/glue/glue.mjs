// Measures the edge worker's glue between JS and Go under Node (the same V8 as workerd, without
// its HTTP): each request of the bench's mix is sent to the worker's own entry module
// (edge/entry.mjs, app.wasm as deployed) by the two paths it has: the direct path every request
// without a body takes (wasm/edge/direct.go) and syumai/workers' handleRequest, which requests
// with a body take. For each it prints the calls from Go into JS per request (wasm_exec.js's
// imports, counted by wrapping them) and the process's CPU time per request, over rounds that
// alternate the two paths (the lowest round of each is printed: the machine is shared).
// Node's Request and Response (undici) cost more than workerd's, so the times are for
// comparing the paths, not a forecast of workerd's; edge/bench.sh measures workerd.
// Usage (edge/bench/glue/run.sh): node glue.mjs DIST_EDGE_DIR ROUNDS PATH...
// GLUE_FLAT=N: the memory check runs N direct requests (default: as many as the timed rounds)
// and prints the memory at each fifth of them.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [dist, roundsArg, ...paths] = process.argv.slice(2);
const rounds = Number(roundsArg);
if (!dist || !(rounds > 0) || paths.length === 0) {
  throw new Error("usage: node glue.mjs DIST_EDGE_DIR ROUNDS PATH...");
}

// A copy of the build whose entry module loads app.wasm from the file system (workerd imports
// it as a module) and exports its internals to this script; runtime.mjs without
// cloudflare:sockets.
const dir = mkdtempSync(join(tmpdir(), "fitclaim-glue-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
cpSync(dist, dir, { recursive: true });
let entry = readFileSync(join(dir, "entry.mjs"), "utf8");
const wasmImport = 'import mod from "./app.wasm";';
if (!entry.includes(wasmImport)) {
  throw new Error(`entry.mjs no longer has ${wasmImport}`);
}
entry = entry.replace(wasmImport, 'import { readFileSync } from "node:fs";\nconst mod = new WebAssembly.Module(readFileSync(new URL("./app.wasm", import.meta.url)));');
entry += "\nexport const internals = { instance, dispatch, unpackHeaders, serveDirect, goParsable };\n";
writeFileSync(join(dir, "entry.mjs"), entry);
writeFileSync(join(dir, "runtime.mjs"), "export function createRuntimeContext({ env, ctx, binding }) {\n  return { env, ctx, binding };\n}\n");

// Count every call from Go into JS (the Go instance's imports), once entry.mjs makes its Go.
await import(join(dir, "wasm_exec.js"));
let counts = null;
const Go = globalThis.Go;
globalThis.Go = class extends Go {
  constructor() {
    super();
    const imports = this.importObject.gojs;
    for (const [name, fn] of Object.entries(imports)) {
      imports[name] = (sp) => {
        if (counts !== null) {
          counts.set(name, (counts.get(name) || 0) + 1);
        }
        return fn(sp);
      };
    }
  }
};
const { default: worker, internals } = await import(join(dir, "entry.mjs"));

const base = "http://127.0.0.1";
const ways = {
  // What entry.mjs's fetch does with a request without a body.
  direct: (request) => internals.serveDirect(internals.instance({}, {}), request, internals.goParsable(request.url)),
  // What it does with one with a body: syumai/workers' handleRequest.
  syumai: async (request) => internals.unpackHeaders(await internals.dispatch(internals.instance({}, {}), new Request(internals.goParsable(request.url), request))),
};

async function send(way, path) {
  const answer = await ways[way](new Request(base + path));
  return [answer.status, new Uint8Array(await answer.arrayBuffer())];
}

// Both paths give the same bytes (edge/test.sh compares them with net/http's in workerd).
await worker.fetch(new Request(base + "/api/v1/version"), {}, {});
for (const path of paths) {
  const [s1, b1] = await send("direct", path);
  const [s2, b2] = await send("syumai", path);
  if (s1 !== s2 || Buffer.compare(b1, b2) !== 0) {
    throw new Error(`${path}: the direct path answers ${s1} (${b1.length} bytes), syumai's ${s2} (${b2.length} bytes)`);
  }
}

// Warm up (V8 tiers the wasm up as it runs), then count the calls of one pass over the mix.
for (let i = 0; i < 1500; i++) {
  await send(i % 2 ? "direct" : "syumai", paths[i % paths.length]);
}
const calls = {};
for (const way of Object.keys(ways)) {
  counts = new Map();
  for (const path of paths) {
    await send(way, path);
  }
  calls[way] = counts;
  counts = null;
}

const best = { direct: Infinity, syumai: Infinity };
for (let r = 0; r < rounds; r++) {
  for (const way of Object.keys(ways)) {
    const n = 20 * paths.length;
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      await send(way, paths[i % paths.length]);
    }
    const used = process.cpuUsage(start);
    best[way] = Math.min(best[way], (used.user + used.system) / n);
  }
}

// The instance's memory after all that: it must stay flat once warm (the Go GC runs; see
// direct.go's runtime.Gosched).
const memoryMiB = () => internals.instance({}, {}).go._inst.exports.mem.buffer.byteLength / (1 << 20);
const memoryWarm = memoryMiB();
const flat = Number(process.env.GLUE_FLAT || 20 * paths.length * rounds);
const memorySteps = [];
for (let i = 0; i < flat; i++) {
  await send("direct", paths[i % paths.length]);
  if ((i + 1) % Math.ceil(flat / 5) === 0) {
    memorySteps.push(memoryMiB().toFixed(1));
  }
}

const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
console.log(`${paths.length} paths, node ${process.version}, load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
for (const way of Object.keys(ways)) {
  const per = (v) => (v / paths.length).toFixed(1);
  const byName = [...calls[way]].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k.replace(/^(syscall\/js|runtime)\./, "")} ${per(v)}`);
  console.log(`${way.padEnd(7)} calls from Go into JS per request: ${per(total(calls[way])).padStart(5)}${byName.length ? "  (" + byName.join(", ") + ")" : ""}`);
}
console.log(`the Go instance's memory: ${memoryWarm.toFixed(1)} MiB after the warm-up and timed rounds, then over ${flat} direct requests (GLUE_FLAT): ${memorySteps.join(", ")} MiB`);
for (const way of Object.keys(ways)) {
  console.log(`${way.padEnd(7)} CPU time per request (whole process, best of ${rounds} rounds of ${20 * paths.length}): ${best[way].toFixed(0)} µs`);
}
