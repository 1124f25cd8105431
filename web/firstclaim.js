// fitclaim's worker: app.js's warm-up (warmUp below) renders, off the page's thread, with the
// page's compiled module (a WebAssembly.Module is shared between threads, and so is the code
// compiled for it). tools/cmd/site puts Go's glue (wasm_exec.js) in front of this file.
//
// Messages in: {module, glue} first (glue: the URL of wasm_exec.js, loaded only when the glue is
// not already in front): the worker starts its Go instance at once and runs Go's collector once;
// then {warm: targets}. Out: {collected: true} once it has collected, then {warmed, refused} or
// {error}.
//
// Issue 10 §2 first had this worker fetch and compile the engine and render a permalink's claim
// while the page parsed and drew, and hand the module to the page. It measured no faster: beside
// the page's own compile in the same runs, 0.98x and 1.06x with every process of the bench at
// one real-time priority, and 1.36x and 1.70x slower on a loaded machine, where Chromium's
// worker thread, which also starts later than the preload of the head, lost the cores to the
// page's main thread; so the page compiles and renders its first claim itself (web/boot.js).
"use strict";

// started: the worker's engine, once {module} came (a Promise of {fc: the global fitclaim,
// render(target, options), permalink(target): a Promise, as fitclaim.permalink's}).
let started = null;

self.onmessage = ({ data }) => {
  const { glue, warm, module, catalog } = data || {};
  if (module && !started) {
    started = start(module, glue, catalog);
    started.catch(() => {}); // said when the targets come
  }
  if (warm) warmUp(warm);
  else if (!module) fail("firstclaim.js: a message without {module} or {warm}");
};

function fail(message) {
  self.postMessage({ error: message });
  self.close();
}

// start runs the page's module in this worker and has Go collect once at once: Go's first
// collection calls some 200 functions nothing else calls, which V8 compiles at their first call
// (~50 ms); compiled here, the page's own first collection finds them compiled (issue 10 §3: it
// fell in the page's 180th render or so, 100 ms).
async function start(module, glue, catalog) {
  if (typeof Go !== "function") importScripts(glue);
  const go = new Go();
  go.env = Object.assign({}, go.env, { GOGC: "100" }); // wasm/page/main.go says why
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance);
  for (let i = 0; !(self.fitclaim && typeof self.fitclaim.renderInto === "function"); i++) {
    if (i > 400) throw new Error("the engine did not start");
    await new Promise((r) => setTimeout(r, 5));
  }
  const fc = self.fitclaim;
  // The page's engine is built without the model catalog: the page's copy of it (boot.js).
  const ex = instance.exports;
  if (catalog && typeof ex.fitclaim_catalog === "function") {
    const at = ex.fitclaim_call_buffer(catalog.length);
    new Uint8Array(ex.mem.buffer, at, catalog.length).set(catalog);
    if (ex.fitclaim_catalog(catalog.length, 0) !== 0) throw new Error("the engine refused the model catalog");
  }
  if (typeof fc.collect === "function") fc.collect();
  self.postMessage({ collected: true });
  // The page's own render call (render.js, which the site build puts in front of this file, as
  // app.js's renderText makes it), else fitclaim.renderInto's.
  const direct = typeof fitclaimRenderer === "function" ? fitclaimRenderer(instance.exports) : null;
  const permalink = direct && direct.permalink ? (t) => new Promise((resolve) => resolve(direct.permalink(t))) : fc.permalink;
  return { fc, render: direct || renderInto(fc), permalink };
}

// renderInto is render through fitclaim.renderInto, for an engine or a page without render.js.
function renderInto(fc) {
  const utf8 = new TextDecoder();
  let bytes = new Uint8Array(1 << 17);
  return (t, options) => {
    let n = fc.renderInto(t, options, bytes);
    if (typeof n === "number" && n < 0) {
      bytes = new Uint8Array(2 * -n);
      n = fc.renderInto(t, options, bytes);
    }
    if (typeof n !== "number") throw n;
    return JSON.parse(utf8.decode(bytes.subarray(0, n)));
  };
}

// warmUp renders each of app.js's warm-up targets (one per path an edit can take) with the page's
// own render call and asks for its permalink, in app.js's order (the paths the first edits take
// first), and answers {warmed, refused} (or {error}) before it closes. Chromium compiles a wasm
// function at its first call, on the thread that calls it, into the module every thread holding
// it shares: rendered here, each path an edit can take is compiled for the page's instance too,
// and the hot ones again by the optimizing tier, while the page's own thread stays free (issue 10
// §3; the same renders on the page's thread took ~1 s of it at load 12).
async function warmUp(targets) {
  try {
    if (!started) throw new Error("firstclaim.js: {warm} before {module}");
    const { render, permalink } = await started;
    const columns = { columns: true };
    let refused = 0;
    for (const t of targets) {
      try { render(t, columns); } catch (_) { refused++; continue; }
      permalink(t).catch(() => {});
    }
    self.postMessage({ warmed: targets.length, refused });
  } catch (e) {
    self.postMessage({ error: String((e && e.message) || e) });
  }
  self.close();
}
