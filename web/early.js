// fitclaim early: on a permalink load, shows the link's claim (its YAML and JSON) as soon as the
// engine is ready, instead of once the whole document is parsed and the deferred scripts have
// run (about 180 ms later). It runs right after the claim's output in index.html, not deferred.
// It reads the link exactly as app.js does (fitclaim.repairLink, then the same render call as
// app.js's renderTable), and only a link that needs no repair: any message or dropped pair is
// left to app.js. It keeps {hash, target, result} on window.fitclaimBoot.early, and app.js adopts
// that result when its own form reads the same hash and the same target, so there is one render
// and the bytes are app.js's.
"use strict";

(() => {
  const boot = window.fitclaimBoot;
  const hash = location.hash.startsWith("#") ? location.hash.slice(1) : location.hash;
  if (!boot || !hash) return;
  const show = async () => {
    const { error } = await boot.engine;
    if (error) return null;
    // Go's main installs the global while go.run starts; wait for it briefly, else leave it to app.js.
    for (let i = 0; !(window.fitclaim && typeof window.fitclaim.render === "function"); i++) {
      if (i > 200) return null;
      await new Promise((r) => setTimeout(r, 5));
    }
    const fc = window.fitclaim;
    const r = await fc.repairLink(hash);
    if (!r || r.message || (r.dropped && r.dropped.length) || !r.target) return null;
    const target = r.target;
    if (!("model" in target) && !("paramsB" in target)) return null;
    const result = await fc.render(target, { columns: true });
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
    boot.mark("early-shown");
    return { hash, target, result };
  };
  boot.early = show().catch(() => null);
})();
