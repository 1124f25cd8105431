// fitclaim's worker: app.js's warm-up (warmUp below) renders, off the page's thread, with the
// page's compiled module (a WebAssembly.Module is shared between threads, and so is the code
// compiled for it). tools/cmd/site puts Go's glue (wasm_exec.js) in front of this file.
//
// Message in: {warm, module, glue} (glue: the URL of wasm_exec.js, loaded only when the glue is
// not already in front). Out: {warmed, refused} or {error}.
//
// Issue 10 §2 first had this worker fetch and compile the engine and render a permalink's claim
// while the page parsed and drew, and hand the module to the page. It measured no faster: beside
// the page's own compile in the same runs, 0.98x and 1.06x with every process of the bench at
// one real-time priority, and 1.36x and 1.70x slower on a loaded machine, where Chromium's
// worker thread, which also starts later than the preload of the head, lost the cores to the
// page's main thread; so the page compiles and renders its first claim itself (web/boot.js).
"use strict";

self.onmessage = async ({ data }) => {
  const { glue, warm, module } = data || {};
  if (warm) return warmUp(module, warm, glue);
  self.postMessage({ error: "firstclaim.js: a message without {warm}" });
  self.close();
};

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
