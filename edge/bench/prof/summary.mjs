// Splits a V8 CPU profile of the edge worker (run.sh) into where a request's time goes: the
// JS around the call (entry.mjs: URL, packing the request, reading the answer, Headers and
// Response), the Go side of the direct path (decoding the request, laying out the answer), the
// API's handler per route, the Go scheduler and collector (runtime.Gosched), the Go timers'
// clock call, V8's collector, and workerd outside JS ("(program)", unnamed native frames). Each
// sample goes to the first rule that matches its stack, read from the leaf up; idle samples
// are left out. The shares are turned into µs per request with the unprofiled run's CPU time
// per request (OUT.json from profile.mjs), i.e. the profiler's own overhead is spread evenly.
// Usage: node summary.mjs PROFILE.cpuprofile
import { existsSync, readFileSync } from "node:fs";

const [file] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, "utf8"));
const runs = existsSync(file + ".json") ? JSON.parse(readFileSync(file + ".json", "utf8")) : undefined;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n);

const name = (n) => n.callFrame.functionName.replace(/^github\.com_fitclaim_fitclaim_/, "");
const goGC = /^runtime\.(gcDrain|gcBgMarkWorker|scanobject|scanblock|scanstack|markroot|greyobject|gcmarknewobject|findObject|sweepone|bgsweep|gcMarkDone|gcMarkTermination|gcStart|gcAssistAlloc|__gcWork|__gcControllerState|__mspan_\.sweep|__sweepLocked|wbBufFlush|gcFlushBgCredit|markBits|__mheap_\.reclaim|gcResetMarkState|forEachP|stopTheWorld|startTheWorld)/;
const malloc = /^runtime\.(mallocgc|newobject|makeslice|growslice|rawstring|rawbyteslice|concatstring|slicebytetostring|stringtoslicebyte|__mcache|__mcentral|__mheap|nextFreeFast|memclrNoHeapPointers|__mspan_\.writeHeapBits|heapSetType|newarray|makemap|mapassign|rawstringtmp|publicationBarrier)/;
const routes = ["edge_api.claimYAML", "edge_api.claimJSON", "edge_api.deployYAML", "edge_api.models", "edge_api.estimateJSON", "edge_api.fittingJSON", "edge_api.version"];

// classify returns the row a sample counts under, from its stack (leaf first).
function classify(stack) {
  const names = stack.map(name);
  const leaf = names[0];
  if (leaf === "(idle)") return undefined;
  if (leaf === "(garbage collector)") return "V8: garbage collector";
  if (leaf === "(program)" || (leaf === "" && stack.length === 1)) return "workerd/V8 outside JS: (program), unnamed native";
  const has = (f) => names.includes(f);
  const tail = () => (names.some((f) => goGC.test(f)) ? " [Go GC]" : names.some((f) => malloc.test(f)) ? " [Go alloc]" : "");
  if (has("net_http.HandlerFunc.ServeHTTP")) {
    const r = routes.find(has);
    const etag = has("edge_api.etagOf") ? " etag" : "";
    return "Go: API handler " + (r ? r.replace("edge_api.", "") : "(around the route)") + etag + tail();
  }
  if (has("main.directRequest")) return "Go: directRequest (url.Parse, header map)" + tail();
  if (has("main.directAnswer")) return "Go: directAnswer (lay out the answer)" + tail();
  if (has("runtime.checkTimeouts")) return "Go: checkTimeouts (clock read, a call into JS)";
  if (has("runtime.mcall") || has("runtime.Gosched")) return "Go: runtime.Gosched" + (names.some((f) => goGC.test(f)) ? " [Go GC mark/sweep]" : " [scheduler]");
  if (has("main.fitclaimServe")) return "Go: fitclaimServe, other" + tail();
  if (names.some((f) => /^runtime\./.test(f)) && !has("serveDirect")) return "Go: runtime, no request on the stack" + tail();
  if (leaf === "Response") return "JS: new Response";
  if (leaf === "Headers" || leaf === "append") return "JS: new Headers, append";
  if (leaf === "URL" || has("goParsable")) return "JS: goParsable (new URL, regexp, href)";
  if (leaf === "serveDirect") return "JS: serveDirect itself (header iteration, encodeInto, decode, views, slice)";
  if (leaf === "js-to-wasm:i:" || leaf === "fitclaimServe" || leaf === "wasm-to-js") return "JS<->wasm transitions";
  if (leaf === "fetch") return "JS: fetch handler itself";
  return "other: " + leaf + " [" + stack[0].callFrame.url.split("/").pop() + "]";
}

const rows = new Map();
let busy = 0, idle = 0;
for (let i = 0; i < p.samples.length; i++) {
  const dt = p.timeDeltas[i + 1] ?? 0;
  const stack = [];
  for (let n = byId.get(p.samples[i]); n; n = parent.get(n.id)) stack.push(n);
  stack.pop(); // (root)
  const row = classify(stack);
  if (row === undefined) {
    idle += dt;
    continue;
  }
  busy += dt;
  rows.set(row, (rows.get(row) || 0) + dt);
}
const perReq = runs ? (runs.plain.cpuMs * 1000) / runs.plain.requests : undefined;
if (runs) {
  console.log(`unprofiled: workerd CPU ${perReq.toFixed(0)} µs/request (${runs.plain.requests} requests); profiled: busy ${(100 * busy / (busy + idle)).toFixed(0)}% of the isolate's thread; load ${runs.load}`);
}
console.log(`${"where".padEnd(78)} share   µs/request`);
const sorted = [...rows].sort((a, b) => a[0].localeCompare(b[0]));
const group = new Map();
for (const [row, t] of sorted) {
  const g = row.split(":")[0];
  group.set(g, (group.get(g) || 0) + t);
  console.log(`${row.padEnd(78)} ${(100 * t / busy).toFixed(1).padStart(5)}%  ${perReq ? ((perReq * t) / busy).toFixed(1).padStart(6) : ""}`);
}
console.log("by group:");
for (const [g, t] of [...group].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${g.padEnd(76)} ${(100 * t / busy).toFixed(1).padStart(5)}%  ${perReq ? ((perReq * t) / busy).toFixed(1).padStart(6) : ""}`);
}
