// fitclaim boot: the first script of the page, run in the head before the body is parsed. It
// starts fetching and compiling the engine at once (the <link rel="preload"> above it has the
// download going already), so the compile overlaps with everything else the page loads, and
// starts the compiled module itself once Go's glue (wasm_exec.js, the script just after this
// one) has run: the Go runtime's start overlaps the rest of the page's parsing instead of
// waiting for app.js, a deferred script, which waits for the global.
//
// tools/cmd/site writes this file into index.html's head (an inline script, allowed by its
// 'sha256-…' in the page's Content-Security-Policy and in netlify.toml's), so the compile does not
// wait for a script's download, and no script blocks the parser (issue 10 §2). So it names no
// asset: a hashed name here would change its hash with every build; it takes the engine's
// address from the preload and the glue's from its script element. A permalink load is marked on <html> so the
// stylesheet keeps the prerendered example out of sight until the link's own claim is there.
//
// On a permalink load it also renders the link's claim as soon as the engine runs, and shows its
// YAML and JSON as soon as the parser is past them: neither waits for the rest of the document,
// the deferred scripts or another script's download (issue 10 §2). It reads the link exactly as
// app.js does (fitclaim.repairLink, then app.js's own render call, as its renderTable makes it),
// in one call that answers only the YAML and JSON (bridge.FirstClaim), and only a link that
// needs no repair: any message or dropped pair is left to app.js. The result, {hash, target,
// result: {yaml, json}, rest()}, is the promise fitclaimBoot.early; app.js adopts it when its
// form reads the same hash and the same target, and takes the rest of the answer (the table, the
// words, the pictures) from rest(), so there is one render and the bytes are app.js's.
//
// The engine holds no model catalog: a link's first claim is made from the link's shard of it,
// fetched beside the engine, else from the whole table (tools/cmd/site/catalog.go says when).
"use strict";

(() => {
  const link = location.hash.length > 1;
  if (link) document.documentElement.dataset.link = "";
  // On a permalink load the form is kept out of layout (data-first, style.css) until the frame
  // after the link's claim is drawn, or the link is left to app.js, or 1.5 s have passed: its
  // layout (~20 ms of CPU) then does not share the page's thread with the engine's streamed
  // compile (issue 10 §2).
  const unhide = () => { delete document.documentElement.dataset.first; };
  if (link) {
    document.documentElement.dataset.first = "";
    setTimeout(unhide, 1500);
  }
  // performance marks (fitclaim:*) time the start; tools/cmd/pagebench prints them.
  const mark = (name) => { try { performance.mark("fitclaim:" + name); } catch (_) { /* old browser */ } };
  const boot = { mark, early: null, module: null }; // window.fitclaimBoot
  // The engine's address: the preload's (index.html), which the site build gives its hashed name.
  const preload = document.querySelector('link[rel="preload"][as="fetch"][type="application/wasm"]');
  // glue settles once Go's glue (the script element #go-glue, after this one: its download does not
  // hold up the compile) has run or failed to load, or the page is parsed; start checks for Go.
  // An element's load and error events do not bubble: a capturing listener on the document sees them.
  const glue = new Promise((resolve) => {
    if (typeof Go === "function") return resolve();
    const events = ["load", "error", "DOMContentLoaded"];
    const seen = (e) => {
      if (e.type !== "DOMContentLoaded" && !(e.target && e.target.id === "go-glue")) return;
      for (const t of events) document.removeEventListener(t, seen, true);
      resolve();
    };
    for (const t of events) document.addEventListener(t, seen, true);
  });
  const compile = async () => {
    mark("compile-start");
    if (!preload) throw new Error("index.html names no engine (its wasm preload is missing)");
    const resp = await fetch(preload.href);
    if (!resp.ok) throw new Error("the engine could not be fetched: HTTP " + resp.status);
    const type = resp.headers.get("Content-Type") || "";
    if (WebAssembly.compileStreaming && type.startsWith("application/wasm")) return WebAssembly.compileStreaming(resp);
    return WebAssembly.compile(await resp.arrayBuffer());
  };
  // A bare visit shows the example first (app.js draws it from index.html): compiling the engine
  // at once would take the cores it needs, so there the compile starts once the page is parsed
  // and drawn; the download (the preload) starts at once either way.
  const ready = link ? Promise.resolve()
    : new Promise((resolve) => document.addEventListener("DOMContentLoaded", () => setTimeout(resolve, 0), { once: true }));
  // start instantiates and runs the module; {exited()} says whether the Go program has ended.
  const start = async (module) => {
    mark("compiled");
    // The engine's bytes are all here: the whole table's download (given to the engine only
    // once the link's first claim is settled) overlaps Go's start and that claim.
    if (link && !local) fetchCatalog().catch(() => {});
    await glue;
    if (typeof Go !== "function") throw new Error("the Go runtime script did not load");
    const go = new Go();
    go.env = Object.assign({}, go.env, { GOGC: "100" }); // wasm/page/main.go says why
    const instance = await WebAssembly.instantiate(module, go.importObject);
    boot.module = module; // app.js's warm-up runs it in firstclaim.js too (its code is shared)
    boot.exports = instance.exports; // app.js renders through them (render.js)
    mark("instantiated");
    let ended = false;
    go.run(instance).then(() => { ended = true; }, () => { ended = true; });
    return { exited: () => ended };
  };
  // Settles to {exited} or {error}: never an unhandled rejection, whatever app.js is doing.
  const engine = typeof WebAssembly === "object"
    ? ready.then(compile).then(start).catch((error) => ({ error }))
    : Promise.resolve({ error: new Error("this browser has no WebAssembly") });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const cat = document.querySelector('meta[name="fitclaim-catalog"]');
  const bytesOf = async (url) => {
    const resp = await fetch(url);
    if (!resp.ok) throw new Error("the model catalog could not be fetched: HTTP " + resp.status);
    return new Uint8Array(await resp.arrayBuffer());
  };
  // shardKey and shardOf are catalog.ShardKey and catalog.ShardOf (a test holds them together).
  const shardKey = (name) => { const k = name.trim().toLowerCase(); return k.slice(k.lastIndexOf("/") + 1); };
  const shardOf = (name, count) => {
    let h = 0x811c9dc5;
    for (const b of new TextEncoder().encode(shardKey(name))) h = Math.imul(h ^ b, 0x01000193) >>> 0;
    return h % count;
  };
  boot.shardOf = shardOf;
  const hash = location.hash.startsWith("#") ? location.hash.slice(1) : location.hash;
  const local = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  let model = null;
  try { model = link ? new URLSearchParams(hash).get("m") : null; } catch (_) { /* left to the engine */ }
  const count = cat ? Number(cat.dataset.count) : 0;
  const shard = link && model && !local && cat && cat.dataset.shards && count > 0
    ? bytesOf(cat.dataset.shards.replace("{}", String(shardOf(model, count)))).catch(() => null) : null;
  let table = null;
  const fetchCatalog = () => table || (table = cat ? bytesOf(cat.content) : Promise.reject(new Error("index.html names no model catalog")));
  // give writes the catalog's bytes into the engine (fitclaim_catalog): the table, or a shard.
  const give = (ex, bytes, isShard) => {
    const at = ex.fitclaim_call_buffer(bytes.length); // may grow the memory: the view comes after
    new Uint8Array(ex.mem.buffer, at, bytes.length).set(bytes);
    const n = ex.fitclaim_catalog(bytes.length, isShard ? 1 : 0);
    if (n < 0) throw new Error(JSON.parse(new TextDecoder().decode(new Uint8Array(ex.mem.buffer, ex.fitclaim_answer(), -n))).message);
  };
  // engineUp: the engine has started and Go's main has installed the global (else an error);
  // briefly (the first claim: else app.js reads the link), or while the program runs (patient).
  const engineUp = async (patient) => {
    const { error, exited } = await engine;
    if (error) throw error;
    for (let i = 0; !(window.fitclaim && typeof window.fitclaim.render === "function"); i++) {
      if (patient ? exited() : i > 200) throw new Error("the engine did not start");
      await sleep(5);
    }
    const ex = boot.exports;
    if (!ex || typeof ex.fitclaim_catalog !== "function" || !(ex.mem instanceof WebAssembly.Memory)) throw new Error("the engine takes no catalog");
    return ex;
  };
  let wantCatalog;
  const catalogWanted = new Promise((resolve) => { wantCatalog = resolve; });
  // Settles once the engine holds the whole table (kept for app.js's warm-up worker).
  const catalog = catalogWanted.then(async () => {
    const bytes = await fetchCatalog();
    give(await engineUp(true), bytes, false);
    boot.catalogBytes = bytes;
    mark("catalog");
  });
  catalog.catch(() => {}); // app.js says what failed
  if (local || !link) (local ? Promise.resolve() : ready).then(wantCatalog);
  // parsedPast resolves once the parser has made the element with this id (everything before it
  // in index.html is parsed), or the document is parsed anyway.
  const parsedPast = (id) => new Promise((resolve) => {
    if (document.getElementById(id) || document.readyState !== "loading") return resolve();
    const done = () => { mo.disconnect(); resolve(); };
    const mo = new MutationObserver(() => { if (document.getElementById(id)) done(); });
    mo.observe(document, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", done, { once: true });
  });
  const showLink = async () => {
    // Go's main installs the global while go.run starts; wait for it briefly, else leave it to app.js.
    const ex = await engineUp().catch(() => null);
    if (!ex || typeof ex.fitclaim_first !== "function") return null;
    // The link's shard, if it came (else the engine holds no catalog, and says it needs one).
    const part = shard && !local ? await shard : null;
    if (part) try { give(ex, part, true); } catch (_) { /* the whole table then */ }
    // One call through the engine's exports (wasm/page/export.go, fitclaim_first): the link
    // read as fitclaim.repairLink reads it and its claim rendered as fitclaim.render renders it,
    // only the YAML and JSON; the rest of the answer waits for app.js (first.rest below), so
    // none of its code is compiled before the claim shows. 0: app.js reads the link itself;
    // -1: the catalog the engine holds cannot answer it, the whole table can.
    const bytes = new TextEncoder().encode(hash);
    const first = () => {
      const at = ex.fitclaim_call_buffer(bytes.length); // may grow the memory: the view comes after
      new Uint8Array(ex.mem.buffer, at, bytes.length).set(bytes);
      return ex.fitclaim_first(bytes.length);
    };
    const answer = (n) => JSON.parse(new TextDecoder().decode(new Uint8Array(ex.mem.buffer, ex.fitclaim_answer(), n)));
    let n = first();
    if (n === -1) {
      mark("early-waits");
      wantCatalog();
      await catalog;
      n = first();
    }
    mark("early-rendered");
    if (n <= 0) return null;
    const claim = answer(n);
    const target = claim.target, result = { yaml: claim.yaml, json: claim.json };
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
    // the page is still drawing (drawRest in app.js clears it), which tests and tools wait on.
    document.documentElement.dataset.drawing = "";
    mark("early-shown");
    // rest() is render(target, {columns: true})'s whole answer, from the same render, once; null
    // if the engine has none.
    const rest = () => {
      const m = ex.fitclaim_first_rest();
      return m > 0 ? answer(m) : null;
    };
    return { hash, target, result, rest };
  };
  // The claim is shown (or left to app.js): the whole table now, unless the link's shard made it.
  // Then app.js adopts the claim and draws its rest (the table, the pictures, the panels) from
  // the same render first, and asks for the table after (boot.wantCatalog): its parse on the
  // page's thread no longer comes between the claim and its table. Given anyway after 3 s,
  // should app.js never ask.
  const early = link ? showLink().catch(() => null).then((first) => {
    if (first) requestAnimationFrame(() => setTimeout(unhide, 0)); else unhide();
    if (first) setTimeout(wantCatalog, 3000); else wantCatalog();
    return first;
  }) : null;
  boot.wantCatalog = () => wantCatalog();
  boot.engine = engine;
  boot.early = early;
  boot.catalog = catalog;
  window.fitclaimBoot = boot;
})();
