// fitclaim page: the Deployment tab. The second engine (later.js: fitclaim.deploy, fetched on the
// tab's first showing) writes the claim template, a Deployment and a Service for the claim on
// screen, with the serving engine and image chosen in the tab; this file only moves values. It reads the shown claim's target from the claim's API
// link (app.js sets it with every claim), so it needs nothing else from app.js.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, clear, setText, errMessage, linkPairs } = P.util;
  const ENGINE_NAMES = { vllm: "vLLM", "llama.cpp": "llama.cpp server" };
  const st = { seq: 0, yaml: "", name: "deployment", api: "", options: false, defaultEngine: "" };

  // The query of the claim on screen, from its API link.
  function shownQuery() {
    const a = $("api-link");
    const href = (a && a.getAttribute("href")) || "";
    const i = href.indexOf("?");
    return i < 0 ? null : href.slice(i + 1);
  }

  function engineReady() {
    return window.fitclaim && typeof window.fitclaim.render === "function" && document.documentElement.dataset.state === "ready";
  }

  // The engine and image a link asked for (#…&engine=llama.cpp&image=…) start the tab's controls:
  // the raw pairs at once (fromLink), then the link as the engine repaired it (fromTarget, from
  // app.js), which drops an image the Deployment would refuse (600 characters, a space): the tab
  // kept the raw one, and the link's message said it was dropped while the tab still showed it.
  function fromLink(engineOnly) {
    const pairs = linkPairs();
    if (pairs.has("engine")) $("deploy-engine").value = pairs.get("engine");
    if (pairs.has("image") && !engineOnly) $("deploy-image").value = pairs.get("image");
  }

  function fromTarget(t) {
    if (!$("panel-deploy") || !linkPairs().has("image")) return; // a link that names no image keeps the tab's choice
    const image = typeof t.image === "string" ? t.image : "";
    if ($("deploy-image").value === image) return;
    $("deploy-image").value = image;
    update();
  }

  function fillEngines() {
    if (st.options) return;
    const sel = $("deploy-engine");
    const engines = (window.fitclaim.options && window.fitclaim.options.engines) || ["vllm", "llama.cpp"];
    const keep = sel.value;
    clear(sel);
    for (const e of engines) {
      const o = el("option", null, ENGINE_NAMES[e] || e);
      o.value = e;
      sel.appendChild(o);
    }
    sel.value = engines.includes(keep) ? keep : engines[0];
    st.defaultEngine = engines[0]; // the engine's own default: a link leaves it out
    st.options = true;
    fromLink(true); // the image: the repaired link's (fromTarget)
  }

  // The tab is written only while it is on show: a hidden tab waits (stale) until it is
  // selected, so a claim's first render, and every render after it, does not pay for a
  // Deployment nobody looks at.
  let stale = true;
  function shown() { return !$("panel-deploy").hidden; }

  async function update() {
    if (!engineReady()) return;
    if (!shown()) { stale = true; return; }
    stale = false;
    const q = shownQuery();
    if (q === null) return;
    const seq = ++st.seq;
    let res;
    try {
      if (!window.fitclaim.deploy) setText($("deploy-summary"), "Loading the Deployment engine…");
      res = await render(q);
    } catch (e) {
      if (seq === st.seq) showError(e);
      return;
    }
    if (seq === st.seq) show(res);
  }

  // render is the second engine's deploy answer for the claim whose query is q (the shown
  // claim's when q is absent), with the engine and image chosen in the tab: what the tab shows,
  // and what the cluster panel's "Use this claim's Deployment" puts in its workload box.
  async function render(q) {
    if (q === undefined) q = shownQuery();
    if (q === null) throw new Error("no claim is on show yet");
    await P.later(); // the second engine writes the Deployment (later.js)
    fillEngines();
    const target = await window.fitclaim.parsePermalink(q);
    const engine = $("deploy-engine").value;
    const image = $("deploy-image").value.trim();
    delete target.engine;
    delete target.image;
    if (engine && engine !== st.defaultEngine) target.engine = engine;
    if (image) target.image = image;
    return window.fitclaim.deploy(target);
  }

  function show(res) {
    $("deploy-error").hidden = true;
    $("deploy-output").hidden = false;
    st.yaml = String(res.yaml || "");
    st.name = res.name || "deployment";
    st.api = location.origin + "/api/v1/deploy.yaml?" + (res.apiQuery || "");
    setText($("deploy-yaml"), st.yaml);
    setText($("deploy-download-name"), st.name + ".yaml");
    const sum = $("deploy-summary");
    setText(sum, res.summary || "");
    sum.classList.toggle("bad", !res.starts);
    const list = $("deploy-problems");
    clear(list);
    for (const p of res.problems || []) list.appendChild(el("li", null, p));
    list.hidden = !list.firstChild;
    const link = $("deploy-api-link");
    link.href = st.api;
    setText(link, st.api);
    setText($("deploy-apply"), "kubectl apply -f '" + st.api.replace(/'/g, "'\\''") + "'");
  }

  function showError(e) {
    const box = $("deploy-error");
    box.textContent = errMessage(e);
    box.hidden = false;
    $("deploy-output").hidden = true;
  }

  // Copy and download as the claim's own buttons do (actions.js), with this tab's words.
  async function copy(text, what) {
    const ok = await P.actions.copyText(text);
    const note = $("copied");
    if (note) note.textContent = ok ? what + " copied" : "Copy failed: select the text and copy it";
  }

  function wire() {
    if (!$("panel-deploy")) return;
    fromLink(); // now: by the tab's first showing the address may hold a later edit
    $("deploy-engine").addEventListener("change", update);
    // The engine chosen is the link's (the address holds what is shown) and sizes the claim too.
    $("deploy-engine").addEventListener("change", () => { P.form.carry("engine", $("deploy-engine").value); P.rerender("commit"); });
    let typing = 0;
    $("deploy-image").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(update, 300); });
    $("deploy-copy").addEventListener("click", () => copy(st.yaml, "Deployment YAML"));
    $("deploy-copy-apply").addEventListener("click", () => copy($("deploy-apply").textContent, "kubectl command"));
    $("deploy-download").addEventListener("click", () => P.actions.download(st.name + ".yaml", st.yaml));
    // A new claim on screen (its API link changes) or the engine becoming ready: render again.
    new MutationObserver(update).observe($("api-link"), { attributes: true, attributeFilter: ["href"] });
    new MutationObserver(update).observe(document.documentElement, { attributes: true, attributeFilter: ["data-state"] });
    new MutationObserver(() => { if (stale && shown()) update(); }).observe($("panel-deploy"), { attributes: true, attributeFilter: ["hidden"] });
    // A link followed later (back, forward, an edited address) that names an engine or an image
    // brings them, as at the page's opening: the claim tab sizes for the link's engine, so the
    // tab runs it too. A link that names neither keeps the tab's choice. The image comes as the
    // engine repaired the link (fromTarget: app.js reads every followed link): read raw here, a
    // dropped one would come back after the repair, or be sent before it.
    const follow = () => { fromLink(true); update(); };
    window.addEventListener("hashchange", follow);
    window.addEventListener("popstate", follow);
    update();
  }

  P.deploy = { render };
  // keys: none (form.js does not carry the image: NOT_CARRIED); fromTarget: the repaired link.
  (P.panels || (P.panels = [])).push({ keys: [], fromTarget });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
