// Takes a V8 CPU profile of a running workerd through its inspector (Chrome DevTools protocol,
// Profiler domain) while this script sends the edge bench's request mix to it, and writes the
// profile (.cpuprofile, readable by Chrome DevTools or summary.mjs).
// Before the profiled run, the same requests unprofiled give workerd's CPU time per request
// (user + system time of its process, /proc/<pid>/stat), which summary.mjs splits by the
// profile's shares; both are written beside the profile (OUT.json).
// Usage (run.sh): node --experimental-websocket profile.mjs INSPECTOR_HOSTPORT BASE_URL PID OUT WARM N C PATH...
import { readFileSync, writeFileSync } from "node:fs";

const [inspector, base, pid, out, warmArg, nArg, cArg, ...paths] = process.argv.slice(2);
const ticks = () => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * 10; // utime + stime, in 10 ms ticks -> ms
};
async function timed(count) {
  const cpu0 = ticks(), t0 = performance.now();
  await load(count);
  return { cpuMs: ticks() - cpu0, wallMs: performance.now() - t0, requests: count };
}
const warm = Number(warmArg), n = Number(nArg), c = Number(cArg);

async function load(count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const res = await fetch(base + paths[i % paths.length]);
      await res.arrayBuffer();
      if (res.status !== 200) {
        throw new Error(`${paths[i % paths.length]}: ${res.status}`);
      }
    }
  };
  await Promise.all(Array.from({ length: c }, worker));
}

await load(warm); // V8 tiers the wasm up as it runs
const plain = await timed(n);
const targets = await (await fetch(`http://${inspector}/json/list`)).json();
const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
await new Promise((resolve, reject) => {
  ws.onopen = resolve;
  ws.onerror = reject;
});
let id = 0;
const pending = new Map();
ws.onmessage = (ev) => {
  const msg = JSON.parse(ev.data);
  if (msg.id !== undefined && pending.has(msg.id)) {
    const { resolve, reject } = pending.get(msg.id);
    pending.delete(msg.id);
    msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result);
  }
};
const call = (method, params = {}) =>
  new Promise((resolve, reject) => {
    pending.set(++id, { resolve, reject });
    ws.send(JSON.stringify({ id, method, params }));
  });
await call("Profiler.enable");
await call("Profiler.setSamplingInterval", { interval: 50 });
await call("Profiler.start");
const profiled = await timed(n);
const { profile } = await call("Profiler.stop");
writeFileSync(out, JSON.stringify(profile));
writeFileSync(out + ".json", JSON.stringify({ plain, profiled, load: readFileSync("/proc/loadavg", "utf8").trim() }));
for (const [name, r] of Object.entries({ unprofiled: plain, profiled })) {
  console.error(`${name}: ${r.requests} requests at concurrency ${c}, ${(r.requests / r.wallMs * 1000).toFixed(0)} req/s, workerd CPU ${(r.cpuMs / r.requests * 1000).toFixed(0)} µs/request`);
}
ws.close();
