// fitclaim page: the second engine (fitclaim-later.wasm: the cluster check, the Deployment tab,
// the hardware panel's estimate). The first claim does not wait for it: it is fetched on the
// first use of what needs it, and adds fitclaim.deploy, fitclaim.hardware and the global
// fitclaimCluster. P.later() resolves once they are there; every caller awaits it.
"use strict";

(() => {
  const P = window.fitclaimPage || (window.fitclaimPage = {});

  let engine = null; // Promise, once first asked for

  // A tab opened before a deploy asks for its own version's engine, by its hashed name: the
  // service worker keeps the previous version's cache for it (sw.js), but a tab older than that,
  // or one without the cache, gets a 404 from a server that has moved on. Only a reload brings
  // the new version; the address keeps the workload and cluster.js the pasted text across it.
  const OUTDATED = "fitclaim was updated since this page was opened, and this page's version of the second engine " +
    "is no longer on the server: reload the page to continue (your workload is kept in the address)";
  P.outdated = false;

  function ready() {
    return window.fitclaim && typeof window.fitclaim.deploy === "function" && typeof window.fitclaim.hardware === "function" &&
      window.fitclaimCluster && typeof window.fitclaimCluster.check === "function";
  }

  P.later = function later() {
    if (engine) return engine;
    engine = (async () => {
      if (typeof Go !== "function") throw new Error("the Go runtime glue (wasm_exec.js) is not loaded");
      // The first engine's global must be there first: this one adds to it.
      for (let i = 0; i < 3000 && !(window.fitclaim && typeof window.fitclaim.render === "function"); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      const go = new Go();
      const resp = await fetch("fitclaim-later.wasm");
      if (resp.status === 404 || resp.status === 410) {
        P.outdated = true;
        throw new Error(OUTDATED);
      }
      if (!resp.ok) throw new Error("the second engine could not be fetched: HTTP " + resp.status);
      const type = resp.headers.get("Content-Type") || "";
      const { instance } = WebAssembly.instantiateStreaming && type.startsWith("application/wasm")
        ? await WebAssembly.instantiateStreaming(resp, go.importObject)
        : await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
      let exited = false;
      go.run(instance).then(() => { exited = true; }, () => { exited = true; });
      while (!ready()) {
        if (exited) throw new Error("the second engine stopped while starting");
        await new Promise((r) => setTimeout(r, 10));
      }
      // Built without the model catalog, as the first engine: the table boot.js gave that one.
      if (typeof window.fitclaimCluster.catalog === "function") {
        const boot = window.fitclaimBoot || {};
        if (!boot.catalogBytes && boot.catalog) await boot.catalog;
        if (!boot.catalogBytes) throw new Error("the model catalog has not loaded");
        const error = window.fitclaimCluster.catalog(boot.catalogBytes);
        if (error) throw new Error(error);
      }
    })();
    engine.catch(() => { engine = null; }); // a failed fetch may be retried
    return engine;
  };
})();
