// fitclaim first claim: a dedicated worker that boot.js starts from the head of the page. It
// fetches and compiles the engine (fitclaim.wasm) off the page's thread, and on a permalink load
// also runs it once to render the link's claim, then hands both back to the page: the compiled
// module (a WebAssembly.Module is shared between threads, with the code compiled so far) and the
// claim. Chromium reads a streamed wasm and compiles each function at its first call on the
// thread that runs it; on the page's thread all of that queued behind (and held up) the HTML's
// parsing and layout, here the two run side by side (issue 10 §2).
//
// Messages in: one, {wasm, glue, hash} (URLs resolved by boot.js; hash is the link's fragment,
// "" on a bare visit), or {warm, module, glue} from app.js's warm-up (warmUp below). Out, in order:
//
//	{module, times}        compiled (times: see below)
//	{early, times}         the link's claim {hash, target, result} as boot.js showLink made it,
//	                       or null when the link needs app.js (a repair, a message, no model)
//	{error}                anything failed; the page compiles on its own thread instead
//
// times are milliseconds on the page's clock (performance.now() of the page): this worker's
// clock plus the difference of the two time origins.
"use strict";

// The page's performance.timeOrigin, which the page sends: at() and page() give this worker's
// times on the page's clock.
let pageOrigin = performance.timeOrigin;
const page = (t) => t + performance.timeOrigin - pageOrigin;
const at = () => page(performance.now());

self.onmessage = async (event) => {
  const { wasm, glue, hash, origin, warm, module } = event.data || {};
  if (warm) return warmUp(module, warm, glue);
  if (typeof origin === "number") pageOrigin = origin;
  const times = { start: at() };
  try {
    const compiled = fetch(wasm, { credentials: "same-origin" }).then((r) => {
      if (!r.ok) throw new Error("the engine could not be fetched: HTTP " + r.status);
      const type = r.headers.get("Content-Type") || "";
      return WebAssembly.compileStreaming && type.startsWith("application/wasm")
        ? WebAssembly.compileStreaming(r)
        : r.arrayBuffer().then((b) => WebAssembly.compile(b));
    });
    compiled.catch(() => {}); // awaited below, after the glue
    // Go's wasm_exec.js, while the wasm downloads (a synchronous load, so after the fetch)
    if (typeof Go !== "function") importScripts(glue);
    const module = await compiled;
    times.compiled = at();
    Object.assign(times, download(wasm));
    self.postMessage({ module, times });
    if (!hash) return self.close();
    const early = await render(module, hash, times);
    self.postMessage({ early, times });
  } catch (e) {
    self.postMessage({ error: String((e && e.message) || e), times });
  }
  self.close(); // the page runs its own instance of the module; this one's memory goes
};

// download: the wasm's Resource Timing on the page's clock, and the bytes this worker fetched
// (the wasm and the glue; the page's own entries do not list them).
function download(url) {
  const e = performance.getEntriesByName(url, "resource")[0];
  const bytes = { fetchedBytes: performance.getEntriesByType("resource").reduce((s, r) => s + r.transferSize, 0) };
  if (!e) return bytes;
  return Object.assign(bytes, { wasmAsked: page(e.requestStart), wasmFirstByte: page(e.responseStart), wasmEnd: page(e.responseEnd) });
}

// render runs the module and renders the link's claim exactly as boot.js's showLink did on the
// page: fitclaim.repairLink, then app.js's own render call; null if the link needs app.js.
async function render(module, hash, times) {
  const go = new Go();
  go.env = Object.assign({}, go.env, { GOGC: "400" }); // wasm/page/main.go says why
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance);
  for (let i = 0; !(self.fitclaim && typeof self.fitclaim.render === "function"); i++) {
    if (i > 400) return null;
    await new Promise((r) => setTimeout(r, 5));
  }
  times.goMain = at();
  const fc = self.fitclaim;
  const r = await fc.repairLink(hash);
  if (!r || r.message || (r.dropped && r.dropped.length) || !r.target) return null;
  const target = r.target;
  if (!("model" in target) && !("paramsB" in target)) return null;
  const result = await fc.render(target, { columns: true });
  times.rendered = at();
  return { hash, target, result };
}


// warmUp renders each of app.js's warm-up targets (one per path an edit can take) with the page's
// own render call and asks for its permalink, then runs Go's collector once, and answers
// {warmed, refused} (or {error}) before it closes. Chromium compiles a wasm function at its first
// call, on the thread that calls it, into the module every thread holding it shares: rendered
// here, each path an edit can take is compiled for the page's instance too, and the hot ones
// again by the optimizing tier, while the page's own thread stays free (issue 10 §3; the same
// renders on the page's thread took ~1 s of it at load 12).
async function warmUp(module, targets, glue) {
  try {
    if (typeof Go !== "function") importScripts(glue);
    const go = new Go();
    go.env = Object.assign({}, go.env, { GOGC: "400" }); // wasm/page/main.go says why
    const instance = await WebAssembly.instantiate(module, go.importObject);
    go.run(instance);
    for (let i = 0; !(self.fitclaim && typeof self.fitclaim.renderInto === "function"); i++) {
      if (i > 400) throw new Error("the engine did not start");
      await new Promise((r) => setTimeout(r, 5));
    }
    const fc = self.fitclaim, utf8 = new TextDecoder(), columns = { columns: true };
    let bytes = new Uint8Array(1 << 17), refused = 0;
    for (const t of targets) {
      let n = fc.renderInto(t, columns, bytes);
      if (typeof n === "number" && n < 0) {
        bytes = new Uint8Array(2 * -n);
        n = fc.renderInto(t, columns, bytes);
      }
      if (typeof n !== "number") { refused++; continue; }
      JSON.parse(utf8.decode(bytes.subarray(0, n)));
      fc.permalink(t).catch(() => {});
    }
    if (typeof fc.collect === "function") fc.collect();
    self.postMessage({ warmed: targets.length, refused });
  } catch (e) {
    self.postMessage({ error: String((e && e.message) || e) });
  }
  self.close();
}
