// fitclaim page: the Deployment tab. The second engine (later.js: fitclaim.deploy, fetched on the
// tab's first showing) writes the claim template, a Deployment and a Service for the claim on
// screen, with the serving engine and image chosen in the tab; this file only moves values. It reads the shown claim's target from the claim's API
// link (app.js sets it with every claim), so it needs nothing else from app.js.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, clear, setText, errMessage, linkPairs } = P.util;
  const ENGINE_NAMES = { vllm: "vLLM", "llama.cpp": "llama.cpp server" };
  const st = { seq: 0, yaml: "", name: "deployment", api: "", options: false, defaultEngine: "", typing: false, errField: null };

  // The tab's own fields besides the engine, each a row of the engine's field table (its name, as
  // the bridge and the link's repaired target spell it): the container image, vLLM's
  // --trust-remote-code and the container's CPU and memory requests. They are the link's too
  // (form.js carries them into every render, as it does the engine), but only once the
  // Deployment has taken them: a value it refuses (an image with a space, 64GB) is said here, by
  // its field, and the claim and the address keep the last one it took.
  const CONTROLS = [
    { name: "image", id: "deploy-image" },
    { name: "trustRemoteCode", id: "deploy-trust", bool: true },
    { name: "cpuRequest", id: "deploy-cpu" },
    { name: "memoryRequest", id: "deploy-memory" },
  ];
  const valueOf = (c) => (c.bool ? $(c.id).checked : $(c.id).value.trim());
  function setControl(c, v) {
    if (c.bool) $(c.id).checked = v === true;
    else $(c.id).value = typeof v === "string" ? v : "";
  }
  const empty = (v) => v === "" || v === false || v === undefined || v === null;

  // A followed link's value of the tab that the engine's link repair dropped (an image that is no
  // reference, a request that is no quantity): the field keeps what the claim is made with (the
  // default), the link's message at the top says it, and so does the tab, by its field
  // (#deploy-link-error: aria-invalid, aria-describedby), until the field is edited, the form
  // reset or another link followed. name -> the repair's message.
  const linkRefused = new Map();

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

  // A link's tab fields are the link's, as its form fields are: what it does not name is the
  // default (a link that kept the tab's image would get it written back into the address, and Back
  // would lead forward again).
  function fromTarget(t, dropped) {
    if (!$("panel-deploy")) return;
    linkRefused.clear();
    for (const d of dropped || []) {
      if (d && CONTROLS.some((c) => c.name === d.field)) linkRefused.set(d.field, String(d.message || ""));
    }
    sayLinkRefused();
    let changed = false;
    for (const c of CONTROLS) {
      const v = t ? t[c.name] : undefined;
      if (valueOf(c) === (c.bool ? v === true : typeof v === "string" ? v : "")) continue;
      setControl(c, v);
      changed = true;
    }
    st.errField = null;
    markInvalid();
    if (changed) update();
  }

  // sayLinkRefused writes the link's dropped values of the tab by their fields (linkRefused).
  function sayLinkRefused() {
    const box = $("deploy-link-error");
    if (!box) return;
    const said = Array.from(linkRefused.values());
    box.textContent = said.length ? "Not taken from the link: " + said.join("; ") : "";
    box.hidden = !said.length;
    markInvalid();
  }

  // The Deployment took the tab's values: they go into the link (form.js carries them into the
  // claim's target, so the address and the claim's API link hold them). A typed text replaces
  // its history entry while typing goes on, as the form's fields do.
  function carryTaken() {
    const carried = P.form.carriedFields();
    let changed = false;
    for (const c of CONTROLS) {
      const v = valueOf(c), had = carried[c.name];
      if (empty(v) ? empty(had) : v === had) continue;
      P.form.carry(c.name, empty(v) ? "" : v);
      changed = true;
    }
    if (changed) P.rerender(st.typing ? "typing" : "commit");
  }

  // markInvalid ties the tab's messages to the fields they name: the Deployment's refusal
  // (#deploy-error, the field its .field names: st.errField) and a followed link's dropped values
  // (#deploy-link-error, linkRefused); a field neither names is valid, described by its hint.
  function markInvalid() {
    for (const c of CONTROLS) {
      const node = $(c.id), hint = $(c.id + "-hint") ? c.id + "-hint" : "";
      const said = [c.name === st.errField ? "deploy-error" : "", linkRefused.has(c.name) ? "deploy-link-error" : ""].filter(Boolean);
      if (said.length) {
        node.setAttribute("aria-invalid", "true");
        node.setAttribute("aria-describedby", said.concat(hint ? [hint] : []).join(" "));
      } else if (node.hasAttribute("aria-invalid")) {
        node.removeAttribute("aria-invalid");
        if (hint) node.setAttribute("aria-describedby", hint);
        else node.removeAttribute("aria-describedby");
      }
    }
  }

  // The labels and hints of the tab's fields are the table's (index.html's copy of fitclaim.fields()).
  function labelControls() {
    const rows = new Map(P.form.table().map((f) => [f.name, f]));
    for (const c of CONTROLS) {
      const f = rows.get(c.name);
      if (!f) continue;
      const label = document.querySelector('label[for="' + c.id + '"]');
      if (label) label.textContent = f.label;
      const hint = $(c.id + "-hint");
      const help = String(f.help || "").replace(/^deploy(, vllm)?: /, ""); // the tab is the Deployment's
      if (hint && help) hint.textContent = help.charAt(0).toUpperCase() + help.slice(1) + ".";
      if (!c.bool && f.maxLength) $(c.id).maxLength = f.maxLength;
    }
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
    if (seq === st.seq) {
      show(res);
      carryTaken();
    }
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
    delete target.engine;
    if (engine && engine !== st.defaultEngine) target.engine = engine;
    for (const c of CONTROLS) {
      delete target[c.name];
      const v = valueOf(c);
      if (!empty(v)) target[c.name] = v;
    }
    return window.fitclaim.deploy(target);
  }

  function show(res) {
    $("deploy-error").hidden = true;
    st.errField = null;
    markInvalid();
    $("deploy-output").hidden = false;
    st.yaml = String(res.yaml || "");
    st.name = res.name || "deployment";
    st.api = location.origin + "/api/v1/deploy.yaml?" + (res.apiQuery || "");
    setText($("deploy-yaml"), st.yaml);
    setText($("deploy-download-name"), fileName());
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
    st.errField = e && e.field;
    markInvalid();
  }

  // The Deployment's file is not the claim's (<claim name>.yaml, actions.js): both were saved
  // under the same name, and the browser numbered the second.
  const fileName = () => st.name + "-deployment.yaml";

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
    labelControls();
    let typing = 0;
    for (const c of CONTROLS) {
      const node = $(c.id);
      // An edit of a field the link's value of was dropped: the link's message is no longer its.
      const edited = () => { if (linkRefused.delete(c.name)) sayLinkRefused(); };
      if (c.bool) {
        node.addEventListener("change", () => { edited(); st.typing = false; update(); });
        continue;
      }
      node.addEventListener("input", edited);
      node.addEventListener("input", () => { st.typing = true; clearTimeout(typing); typing = setTimeout(update, 300); });
      // the edit is done: the next one gets its own history entry (app.js reads P.state.typing)
      node.addEventListener("change", () => { st.typing = false; if (P.state) P.state.typing = false; });
    }
    // Reset to defaults empties what the tab carries into the link: its fields go back too.
    const reset = $("reset");
    if (reset) {
      reset.addEventListener("click", () => {
        for (const c of CONTROLS) setControl(c, c.bool ? false : "");
        st.errField = null;
        linkRefused.clear();
        sayLinkRefused();
      });
    }
    $("deploy-copy").addEventListener("click", () => copy(st.yaml, "Deployment YAML"));
    $("deploy-copy-apply").addEventListener("click", () => copy($("deploy-apply").textContent, "kubectl command"));
    $("deploy-download").addEventListener("click", () => P.actions.download(fileName(), st.yaml));
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
  // keys: none (form.js carries the tab's fields, as carryTaken gives them); fromTarget: the
  // repaired link and the pairs it dropped.
  (P.panels || (P.panels = [])).push({ keys: [], fromTarget });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
