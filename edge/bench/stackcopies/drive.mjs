// Drives edge/bench/stackcopies' wasm under Node (see run.sh):
//   node drive.mjs file.wasm calls(serve|yield|funcof) pregrowKB requests [GC percent, default 400]
// and prints one line: the process's CPU time per request over the timed requests and the
// stack copies the first five, the warm-up and the timed requests caused.
import fs from 'node:fs';
await import(process.env.WASM_EXEC);
const [file, how, pregrowKB, nStr, gcStr] = process.argv.slice(2);
const n = +nStr;
const go = new Go();
const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), go.importObject);
go.run(instance); // returns once main blocks; the exports are callable from then on
const ex = instance.exports;
const counts = () => Array.from(new Uint32Array(ex.mem.buffer, ex.counters(), 3));
const nr = ex.nreqs();
const gc = +(gcStr || 400);
ex.gcPercent(gc);
const call = { serve: (i) => ex.serve(i), yield: (i) => ex.serveYield(i), funcof: (i) => globalThis.goServe(i) }[how];
if (+pregrowKB > 0) ex.pregrow(+pregrowKB);
const c0 = counts();
const firsts = [];
for (let i = 0; i < 5; i++) {
  const b = counts();
  call(i % nr);
  firsts.push(counts()[0] - b[0]);
}
for (let i = 0; i < 3000; i++) call(i % nr);
const c1 = counts();
const u0 = process.cpuUsage();
for (let i = 0; i < n; i++) call(i % nr);
const u = process.cpuUsage(u0);
const c2 = counts();
console.log(`${how.padEnd(6)} GC ${gc} pregrow ${String(pregrowKB).padStart(2)} KB  CPU/request ${((u.user + u.system) / n).toFixed(1).padStart(6)} µs  ` +
  `copies: first 5 calls ${firsts.join(',')}, 3000 warm-up ${c1[0] - c0[0]}, ${n} timed ${c2[0] - c1[0]} (newstack ${c2[1] - c1[1]}, shrinkstack ${c2[2] - c1[2]})`);
