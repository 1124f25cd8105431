// Splits `perf report --sort dso,sym -n` of workerd (run.sh) into where a request's CPU time
// goes, in µs per request: Go's code in wasm (named per function from the worker's name section,
// the top ones listed), the JS around it and V8's builtins, V8's runtime and collector, workerd's
// own C++ (jsg wrappers, its API objects, the rest), kj (HTTP, the event loop), malloc, libc and
// the kernel.
// Usage: node split.mjs REPORT.txt REQUESTS SAMPLE_HZ NAMED.wasm [top]
import { readFileSync } from "node:fs";

const [report, requestsArg, hzArg, wasmFile, topArg] = process.argv.slice(2);
const usPerSample = 1e6 / Number(hzArg) / Number(requestsArg);

// Go's function names, by wasm function index, from the unstripped build's name section.
const mod = new WebAssembly.Module(readFileSync(wasmFile));
const sec = new Uint8Array(WebAssembly.Module.customSections(mod, "name")[0]);
let p = 0;
const leb = () => {
  let r = 0, s = 0, b;
  do {
    b = sec[p++];
    r |= (b & 0x7f) << s;
    s += 7;
  } while (b & 0x80);
  return r >>> 0;
};
const names = new Map();
while (p < sec.length) {
  const id = sec[p++];
  const end = leb() + p;
  if (id === 1) {
    for (let n = leb(); n > 0; n--) {
      const idx = leb(), len = leb();
      names.set(idx, new TextDecoder().decode(sec.subarray(p, p + len)));
      p += len;
    }
  }
  p = end;
}

const groups = [
  ["JS (entry.mjs, wasm_exec.js) and V8 builtins", /^JS:|^Builtins_|^RegExp|^LazyCompile|^Function:/],
  ["V8 collector", /v8::internal::(Heap|Scaveng|MarkCompact|Mark|Sweep|Concurrent|Minor|Evacuat|Young|Old|IncrementalMarking|MemoryAllocator|Page|Worklist|GCTracer|LocalHeap|PagedSpace|NewSpace|SemiSpace|ArrayBufferSweeper)|cppgc/],
  ["V8 wasm runtime (memory.copy/fill, tier-up)", /v8::internal::wasm|memory_copy|memory_fill/],
  ["V8 other (objects, handles, API calls)", /v8::|^Builtins/],
  ["workerd jsg (JS wrappers of C++ objects)", /workerd::jsg/],
  ["workerd api (Request, Response, Headers)", /workerd::api/],
  ["workerd other", /workerd::/],
  ["kj (HTTP, event loop)", /kj::/],
  ["malloc", /tcmalloc|TCMalloc|malloc|free/],
  ["libc (copies, syscalls)", /./],
];
const byGroup = new Map(), byGo = new Map();
let total = 0;
for (const line of readFileSync(report, "utf8").split("\n")) {
  const m = line.match(/^\s*[\d.]+%\s+(\d+)\s+(\S+(?: tid \d+)?)\s+\[(.)\]\s+(.*)$/);
  if (!m) continue;
  const n = Number(m[1]), sym = m[4];
  total += n;
  const w = sym.match(/wasm-function\[(\d+)\]-\d+-(\w+)/);
  let group;
  if (w) {
    group = "Go in wasm";
    const name = (names.get(Number(w[1])) || "?").replace(/github\.com[_/]fitclaim[_/]fitclaim[_/]/, "") + (w[2] === "liftoff" ? " (liftoff)" : "");
    byGo.set(name, (byGo.get(name) || 0) + n);
  } else if (m[3] === "k") {
    group = "kernel (sockets, scheduling)";
  } else {
    group = groups.find(([, re]) => re.test(sym))[0];
  }
  byGroup.set(group, (byGroup.get(group) || 0) + n);
}
const us = (n) => (n * usPerSample).toFixed(1).padStart(7);
console.log(`workerd's CPU time per request, from perf samples (${requestsArg} requests):`);
for (const [g, n] of [...byGroup].sort((a, b) => b[1] - a[1])) console.log(`${us(n)} µs  ${g}`);
console.log(`${us(total)} µs  total`);
console.log(`Go in wasm, the top functions:`);
for (const [f, n] of [...byGo].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg || 25))) console.log(`${us(n)} µs  ${f}`);
