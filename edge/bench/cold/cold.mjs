// A lab for the cold call into Go, under Node, with no HTTP and no workerd: every build given
// (a built dist-edge directory) is instantiated in this one process, as edge/entry.mjs does,
// and serves the edge bench's mix through the direct path (fitclaimServe, the request packed
// into its memory as entry.mjs packs it). Before every call THRASH KB of a JS array are
// written, a stand-in for workerd's own work between two requests, which leaves Go's code and
// data cold (0: none; with several builds a call still follows another build's). Only the call
// itself is timed (the clock around fitclaimServe). The builds take turns request by request,
// so a change of the machine's speed falls on all of them alike. Printed per build: the 10th
// percentile, median and mean of the calls and the median of each call's time divided by the
// first build's for the same request; with COLD_TSV set, for run.sh, a line per build: its
// name and the mean over the mix's routes of each route's 10th percentile and median (µs).
// Usage (run.sh): node cold.mjs THRASH_KB WARM N NAME=DIR ... -- PATH ...
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const args = process.argv.slice(2);
const thrashKB = Number(args[0]), warm = Number(args[1]), n = Number(args[2]);
const sep = args.indexOf("--");
const builds = args.slice(3, sep).map((a) => {
  const [name, dir] = a.split("=");
  return { name, dir: resolve(dir), times: [], ratios: [] };
});
const paths = args.slice(sep + 1);
await import(resolve(builds[0].dir, "wasm_exec.js")); // syumai/workers' copy: globalThis.Go
globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (e) {
    return { error: e };
  }
};

const encoder = new TextEncoder();
for (const b of builds) {
  const go = new Go();
  let ready = false;
  const mod = new WebAssembly.Module(readFileSync(resolve(b.dir, "app.wasm")));
  const instance = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => (ready = true) } });
  go.run(instance, { env: {}, ctx: {}, binding: {} });
  if (!ready) throw new Error(`${b.name}: the Go program did not start`);
  b.ex = instance.exports;
  b.stateAt = b.ex.fitclaimState();
  b.inAt = b.ex.fitclaimInput(1 << 14);
}

// The requests as entry.mjs packs them: method, URL, then the headers a client sends.
const packed = paths.map((p) => encoder.encode(`GET\nhttp://127.0.0.1:8787${p}\nhost\n127.0.0.1:8787\nuser-agent\nGo-http-client/1.1\n`));

function serve(b, k) {
  new Uint8Array(b.ex.mem.buffer, b.inAt, packed[k].length).set(packed[k]);
  new Uint32Array(b.ex.mem.buffer, b.stateAt, 1)[0] = 0;
  const t0 = process.hrtime.bigint();
  b.ex.fitclaimServe(packed[k].length);
  const t = Number(process.hrtime.bigint() - t0) / 1000;
  const [done, bodyAt, bodyLen] = new Uint32Array(b.ex.mem.buffer, b.stateAt, 3);
  if (done !== 1) throw new Error(`${b.name} ${paths[k]}: no answer`);
  return { t, body: new Uint8Array(b.ex.mem.buffer, bodyAt, bodyLen) };
}

const thrash = new Uint8Array(thrashKB * 1024);
let sink = 0;
function cool() {
  for (let i = 0; i < thrash.length; i += 64) {
    thrash[i] = (thrash[i] + i) & 255;
  }
  sink += thrash[thrash.length >> 1] | 0;
}

// Every build must answer the first build's bytes.
for (let k = 0; k < paths.length; k++) {
  const want = Buffer.from(serve(builds[0], k).body);
  for (const b of builds.slice(1)) {
    if (!want.equals(Buffer.from(serve(b, k).body))) throw new Error(`${b.name} ${paths[k]}: not the first build's answer`);
  }
}
for (let i = 0; i < warm; i++) {
  for (const b of builds) serve(b, i % paths.length);
}
const u0 = process.cpuUsage();
for (let i = 0; i < n; i++) {
  const k = i % paths.length;
  // The order of the builds turns with every request, so none is always the one after the
  // thrash's own JIT code or after another build.
  for (let j = 0; j < builds.length; j++) {
    const b = builds[(i + j) % builds.length];
    if (thrashKB > 0) cool();
    const { t } = serve(b, k);
    b.times.push(t);
    (b.byRoute ??= paths.map(() => [])).at(k).push(t);
    b.last = t;
  }
  for (const b of builds) b.ratios.push(b.last / builds[0].last);
}
const u = process.cpuUsage(u0);
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const pct = (a, p) => a.slice().sort((x, y) => x - y)[Math.floor(a.length * p)];
if (process.env.COLD_TSV) {
  // One line per build for run.sh: name, then the mean over the routes of each route's 10th
  // percentile and median (µs): the mix's median call would jump between routes of 3 and 100 µs.
  for (const b of builds) {
    const avg = (f) => b.byRoute.reduce((s, a) => s + f(a), 0) / b.byRoute.length;
    console.log([b.name, avg((a) => pct(a, 0.1)), avg(med)].join("\t"));
  }
} else {
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`${n} requests of the mix per build, ${warm} warm-up, ${thrashKB} KB written before each call; node ${process.version}; load ${load}`);
  console.log(`${"build".padEnd(16)} ${"call µs p10".padStart(12)} ${"median".padStart(8)} ${"mean".padStart(8)} ${"÷ first, med".padStart(13)}`);
  for (const b of builds) {
    const mean = b.times.reduce((s, x) => s + x, 0) / b.times.length;
    console.log(`${b.name.padEnd(16)} ${pct(b.times, 0.1).toFixed(1).padStart(12)} ${med(b.times).toFixed(1).padStart(8)} ${mean.toFixed(1).padStart(8)} ${med(b.ratios).toFixed(3).padStart(12)}x`);
  }
}
if (sink === 0.5) console.log(sink);
