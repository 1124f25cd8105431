// fitclaim boot: the first script of the page, run in the head before the body is parsed. It
// starts a dedicated worker (firstclaim.js) that fetches and compiles the engine off the page's
// thread and, on a permalink load, runs it once to render the link's claim: Chromium reads a
// streamed wasm and compiles each function at its first call on the thread that runs it, and on
// the page's thread that work and the HTML's parsing and layout held each other up. The worker
// hands back the compiled module (shared with the code compiled so far), which this script
// starts on the page's thread for app.js once the link's claim is shown (on a bare visit, once
// the page is parsed and the example drawn), so the Go start does not delay either. Without
// workers, or if the worker fails, the page fetches and compiles the engine itself as before.
// A permalink load is marked on <html> so the stylesheet keeps the prerendered example out of
// sight until the link's own claim is there.
//
// The link's claim is shown as soon as the parser is past its output: it waits neither for the
// rest of the document, the deferred scripts nor another script's download (issue 10 §2). It is
// read exactly as app.js reads it (fitclaim.repairLink, then app.js's own render call, as its
// renderTable makes it), and only a link that needs no repair: any message or dropped pair is
// left to app.js. The result, {hash, target, result}, is the promise fitclaimBoot.early; app.js
// adopts it when its form reads the same hash and the same target, so there is one render and
// the bytes are app.js's.
"use strict";

(() => {
  const link = location.hash.length > 1;
  if (link) document.documentElement.dataset.link = "";
  // performance marks (fitclaim:*) time the start; tools/cmd/pagebench prints them.
  const mark = (name, startTime) => {
    try { performance.mark("fitclaim:" + name, startTime === undefined ? undefined : { startTime }); } catch (_) { /* old browser */ }
  };
  const hash = location.hash.startsWith("#") ? location.hash.slice(1) : location.hash;
  const boot = { mark, early: null, worker: null };

  // The worker: moduleP settles to a WebAssembly.Module or null (no worker, or it failed before
  // compiling); workerEarly to {early} (its claim for the link, or null: app.js reads the link)
  // or null (no worker, or it failed before rendering).
  let gotModule, gotEarly;
  const moduleP = new Promise((r) => { gotModule = r; });
  const workerEarly = new Promise((r) => { gotEarly = r; });
  const fail = () => { gotModule(null); gotEarly(null); };
  const times = (t) => {
    boot.worker = Object.assign(boot.worker || {}, t);
    for (const [name, at] of Object.entries(t || {})) if (typeof at === "number" && !name.endsWith("Bytes")) mark("worker-" + name, at);
  };
  // One core: the worker could only take turns with the page's thread, and costs its own start.
  if (typeof Worker === "function" && typeof WebAssembly === "object" && (navigator.hardwareConcurrency || 2) > 1) {
    try {
      const w = new Worker("firstclaim.js");
      w.onmessage = ({ data }) => {
        times(data.times);
        if (data.module) gotModule(data.module);
        else if ("early" in data) gotEarly({ early: data.early });
        else fail();
      };
      w.onerror = fail;
      w.onmessageerror = fail;
      const url = (name) => new URL(name, document.baseURI).href;
      w.postMessage({ wasm: url("fitclaim.wasm"), glue: url("wasm_exec.js"), hash: link ? hash : "", origin: performance.timeOrigin });
    } catch (_) { fail(); }
  } else {
    fail();
  }

  // compileHere: the engine fetched and compiled on this thread, when the worker cannot.
  const compileHere = async () => {
    mark("compile-start");
    const resp = await fetch("fitclaim.wasm");
    if (!resp.ok) throw new Error("the engine could not be fetched: HTTP " + resp.status);
    const type = resp.headers.get("Content-Type") || "";
    if (WebAssembly.compileStreaming && type.startsWith("application/wasm")) return WebAssembly.compileStreaming(resp);
    return WebAssembly.compile(await resp.arrayBuffer());
  };
  // The page's own instance starts once the link's claim is shown (or left to app.js), on a bare
  // visit once the page is parsed and drawn (app.js draws the example from index.html): its Go
  // start would otherwise hold up the very thread that shows them.
  let openGate;
  const gate = link ? new Promise((r) => { openGate = r; })
    : new Promise((resolve) => document.addEventListener("DOMContentLoaded", () => setTimeout(resolve, 0), { once: true }));
  // start instantiates and runs the module; {exited()} says whether the Go program has ended.
  const start = async (module) => {
    mark("compiled");
    if (typeof Go !== "function") throw new Error("the Go runtime script did not load");
    const go = new Go();
    go.env = Object.assign({}, go.env, { GOGC: "400" }); // wasm/page/main.go says why
    const instance = await WebAssembly.instantiate(module, go.importObject);
    boot.module = module; // app.js's warm-up runs it in firstclaim.js too (its code is shared)
    mark("instantiated");
    let ended = false;
    go.run(instance).then(() => { ended = true; }, () => { ended = true; });
    return { exited: () => ended };
  };
  // Settles to {exited} or {error}: never an unhandled rejection, whatever app.js is doing.
  const engine = typeof WebAssembly === "object"
    ? moduleP.then(async (m) => {
      if (!m) { await (link ? Promise.resolve() : gate); m = await compileHere(); }
      await gate;
      return start(m);
    }).catch((error) => ({ error }))
    : Promise.resolve({ error: new Error("this browser has no WebAssembly") });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  // parsedPast resolves once the parser has made the element with this id (everything before it
  // in index.html is parsed), or the document is parsed anyway.
  const parsedPast = (id) => new Promise((resolve) => {
    if (document.getElementById(id) || document.readyState !== "loading") return resolve();
    const done = () => { mo.disconnect(); resolve(); };
    const mo = new MutationObserver(() => { if (document.getElementById(id)) done(); });
    mo.observe(document, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", done, { once: true });
  });
  // show writes a rendered claim {hash, target, result} into the page once the parser is past
  // its output; null if the address moved on meanwhile.
  const show = async ({ target, result }) => {
    // The claim's output ends inside #panel-json; #panel-deploy follows it (index.html).
    await parsedPast("panel-deploy");
    if (location.hash.slice(1) !== hash) return null; // the address moved on meanwhile
    const output = document.getElementById("output");
    const yaml = document.getElementById("yaml");
    const json = document.getElementById("json");
    if (!output || !yaml || !json) return null;
    yaml.textContent = String(result.yaml || "");
    json.textContent = String(result.json || "");
    output.removeAttribute("data-example");
    // The table, pictures and panels come when app.js adopts this claim; until then <html> says
    // the page is still drawing (app.js's drawRest clears it), which tests and tools wait on.
    document.documentElement.dataset.drawing = "";
    mark("early-shown");
    return { hash, target, result };
  };
  // renderHere: the link's claim rendered by the page's own instance, when the worker could not.
  const renderHere = async () => {
    const { error } = await engine;
    if (error) return null;
    // Go's main installs the global while go.run starts; wait for it briefly, else leave it to app.js.
    for (let i = 0; !(window.fitclaim && typeof window.fitclaim.render === "function"); i++) {
      if (i > 200) return null;
      await sleep(5);
    }
    const fc = window.fitclaim;
    const r = await fc.repairLink(hash);
    if (!r || r.message || (r.dropped && r.dropped.length) || !r.target) return null;
    const target = r.target;
    if (!("model" in target) && !("paramsB" in target)) return null;
    return { hash, target, result: await fc.render(target, { columns: true }) };
  };
  const showLink = async () => {
    const w = await workerEarly;
    if (w) {
      try {
        return w.early ? await show(w.early) : null;
      } finally {
        openGate();
      }
    }
    openGate();
    const e = await renderHere();
    return e ? show(e) : null;
  };
  if (link) boot.early = showLink().catch(() => { openGate(); return null; });
  boot.engine = engine;
  window.fitclaimBoot = boot;
})();
