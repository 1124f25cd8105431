// fitclaim boot: the first script of the page, run in the head before the body is parsed. It
// starts fetching and compiling the engine at once (the <link rel="preload"> above it has the
// download going already), so the compile overlaps with everything else the page loads, and
// starts the compiled module itself (wasm_exec.js, Go's glue, is loaded just before this
// script): the Go runtime's start overlaps the rest of the page's parsing instead of waiting for
// app.js, a deferred script, which waits for the global. A permalink load is marked on <html> so the
// stylesheet keeps the prerendered example out of sight until the link's own claim is there.
"use strict";

(() => {
  if (location.hash.length > 1) document.documentElement.dataset.link = "";
  // performance marks (fitclaim:*) time the start; tools/cmd/pagebench prints them.
  const mark = (name) => { try { performance.mark("fitclaim:" + name); } catch (_) { /* old browser */ } };
  const compile = async () => {
    mark("compile-start");
    const resp = await fetch("fitclaim.wasm");
    if (!resp.ok) throw new Error("the engine could not be fetched: HTTP " + resp.status);
    const type = resp.headers.get("Content-Type") || "";
    if (WebAssembly.compileStreaming && type.startsWith("application/wasm")) return WebAssembly.compileStreaming(resp);
    return WebAssembly.compile(await resp.arrayBuffer());
  };
  // A bare visit shows the example first (app.js draws it from index.html): compiling the engine
  // at once would take the cores it needs, so there the compile starts once the page is parsed
  // and drawn; the download (the preload) starts at once either way.
  const ready = location.hash.length > 1 ? Promise.resolve()
    : new Promise((resolve) => document.addEventListener("DOMContentLoaded", () => setTimeout(resolve, 0), { once: true }));
  // start instantiates and runs the module; {exited()} says whether the Go program has ended.
  const start = async (module) => {
    mark("compiled");
    if (typeof Go !== "function") throw new Error("the Go runtime script did not load");
    const go = new Go();
    go.env = Object.assign({}, go.env, { GOGC: "400" }); // wasm/page/main.go says why
    const instance = await WebAssembly.instantiate(module, go.importObject);
    mark("instantiated");
    let ended = false;
    go.run(instance).then(() => { ended = true; }, () => { ended = true; });
    return { exited: () => ended };
  };
  // Settles to {exited} or {error}: never an unhandled rejection, whatever app.js is doing.
  const engine = typeof WebAssembly === "object"
    ? ready.then(compile).then(start).catch((error) => ({ error }))
    : Promise.resolve({ error: new Error("this browser has no WebAssembly") });
  window.fitclaimBoot = { engine, mark };
})();
