// fitclaim page: the form, the permalink, the result. All sizing happens in the
// Go engine behind the global `fitclaim` (wasm); this file only moves values
// between the form and the engine and writes the answer with textContent.
// Every bridge function returns a Promise (rejected with an Error whose message,
// .field and .key name the field); every call here is awaited and caught.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, clear, setText, errMessage, num } = P.util;

  // The form's fields come from the engine's one field table (fitclaim.fields(), written into
  // index.html at build time so the form is labelled before the engine is there): each field
  // the form has an input for, as {key: its JSON name, pk: its link key, kind, label, default}.
  // Which are sent follows the form: a field in a hidden group (custom size, kv) is not.
  function readFields() {
    let table = [];
    try { table = JSON.parse($("fields").textContent); } catch (_) { /* no table: no form */ }
    return table.filter((f) => $(f.name)).map((f) => {
      const node = $(f.name);
      const kind = f.kind === "boolean" ? "bool" : f.kind === "number" || f.kind === "integer" ? "number"
        : node.tagName === "SELECT" ? "select" : "text";
      return { key: f.name, pk: f.key, kind, label: f.label, def: f };
    });
  }
  const FIELDS = readFields();
  const BY_KEY = new Map(FIELDS.map((f) => [f.key, f]));

  // Labels, units, ranges, placeholders and help from the table.
  function labelForm() {
    for (const f of FIELDS) {
      const d = f.def;
      const label = document.querySelector('label[for="' + f.key + '"]');
      const unit = d.unit && f.kind === "number" && d.unit !== d.label.toLowerCase() ? " (" + d.unit + ")" : "";
      if (label) label.textContent = d.label + unit;
      const node = input(f.key);
      if (f.kind === "number") {
        if (d.max) node.max = String(d.max);
        if (d.min) node.min = String(d.min);
        node.placeholder = d.default ? String(d.default) : d.derived || "";
      } else if (f.kind === "text" && f.key !== "model") {
        node.placeholder = d.derived || "";
        if (d.maxLength) node.maxLength = d.maxLength;
      } else if (f.kind === "select") {
        addChoices(f, d.choices);
      }
      const hint = $(f.key + "-hint");
      if (hint && f.key !== "model") hint.textContent = d.help.charAt(0).toUpperCase() + d.help.slice(1) + (d.range ? "; " + d.range : "") + ".";
    }
  }

  // A select keeps the page's wording of the choices it names and gains the engine's others;
  // the field's default is the empty value.
  function addChoices(f, list) {
    if (!Array.isArray(list)) return;
    const node = input(f.key);
    const have = new Set(Array.from(node.options).map((o) => o.value));
    for (const v of list) {
      const value = String(v);
      if (value === String(f.def.default) || have.has(value)) continue;
      node.appendChild(new Option(value, value));
      have.add(value);
    }
  }

  const state = {
    ready: false,
    lastGood: null,       // last successful render result
    example: null,        // {fragment, target, result}: the claim a bare visit shows (index.html)
    typing: false,        // an edit in progress already has its own history entry
    activeTab: "yaml",
    texts: { yaml: "", json: "", heredoc: "", apply: "", api: "" },
    claimName: "claim",
  };

  // ---------- field access ----------
  function input(key) { return $(key); }
  function source() { return $("source-custom").checked ? "custom" : "catalog"; }
  function setSource(s) {
    $("source-custom").checked = s === "custom";
    $("source-catalog").checked = s !== "custom";
    syncVisibility();
  }
  function sizingKV() { return $("sizing").value === "kv"; }

  function syncVisibility() {
    const custom = source() === "custom";
    $("custom-fields").hidden = !custom;
    $("catalog-fields").hidden = custom;
    for (const n of document.querySelectorAll(".kv-only")) n.hidden = !sizingKV();
  }

  function fieldActive(f) { return !input(f.key).closest("[hidden]"); }

  // The target: only the keys the user set.
  function readTarget() {
    const target = {};
    const problems = [];
    for (const f of FIELDS) {
      if (!fieldActive(f)) continue;
      const node = input(f.key);
      if (f.kind === "bool") {
        if (node.value === "1") target[f.key] = true;
        continue;
      }
      if (f.kind === "number") {
        if (node.validity && node.validity.badInput) {
          problems.push({ key: f.key, msg: f.label + ": must be a number" });
          continue;
        }
        // The bridge is strict: a number field takes a JS number (the engine checks its range).
        const raw = node.value.trim();
        if (raw === "") continue;
        const n = Number(raw);
        if (Number.isFinite(n)) target[f.key] = n;
        else problems.push({ key: f.key, msg: f.label + ": must be a number" });
        continue;
      }
      const raw = f.kind === "text" ? node.value.trim() : node.value;
      if (raw !== "") target[f.key] = raw;
    }
    for (const panel of P.panels || []) if (panel.fields) Object.assign(target, panel.fields()); // hardware.js's device
    return { target, problems };
  }

  // Fill the form from a target (from a permalink). Unknown keys are ignored.
  function fillForm(target) {
    resetFields();
    if (!target || typeof target !== "object") return;
    const hasParams = typeof target.paramsB === "number" && target.paramsB > 0;
    setSource(hasParams && !target.model ? "custom" : "catalog");
    for (const [key, value] of Object.entries(target)) {
      const f = BY_KEY.get(key);
      if (!f || value === null || value === undefined) continue;
      const node = input(key);
      if (f.kind === "bool") {
        node.value = value === true || value === "true" || value === 1 ? "1" : "";
      } else if (f.kind === "number") {
        if (typeof value === "number" && value !== 0 && isFinite(value)) node.value = String(value);
      } else if (f.kind === "select") {
        let v = String(value);
        if (String(f.def.default) === v) v = "";
        if (v !== "" && !Array.from(node.options).some((o) => o.value === v)) {
          node.appendChild(new Option(v, v)); // textContent-safe
        }
        node.value = v;
      } else {
        node.value = String(value);
      }
    }
    if (hasParams && target.model) {
      // A named custom model is not something the form can express; keep the size.
      setSource("custom");
    }
    syncVisibility();
  }

  function resetFields(keepModel) {
    for (const f of FIELDS) {
      if (keepModel && (f.key === "model")) continue;
      const node = input(f.key);
      node.value = "";
    }
    if (!keepModel) setSource("catalog");
    syncVisibility();
    clearFieldErrors();
  }

  // ---------- errors ----------
  // Which form field an engine error is about: the engine says so (.field, the JSON name).
  function fieldOf(e) {
    return e && typeof e.field === "string" && BY_KEY.has(e.field) ? e.field : null;
  }

  function clearFieldErrors() {
    for (const f of FIELDS) {
      const node = input(f.key);
      node.removeAttribute("aria-invalid");
      const err = $(f.key + "-err");
      if (err) { err.hidden = true; err.textContent = ""; }
    }
  }

  function showFieldError(key, msg) {
    const node = input(key);
    const err = $(key + "-err");
    if (!node || !err) return;
    node.setAttribute("aria-invalid", "true");
    err.textContent = msg;
    err.hidden = false;
  }

  // ---------- rendering ----------
  let renderSeq = 0;

  // A bug of this page (not a bad input): say so in the page rather than in the console.
  function reportBug(e) {
    const box = $("result-error");
    box.textContent = "Something went wrong in this page: " + errMessage(e);
    box.hidden = false;
  }

  // rerender after an edit: "typing" (each key of a text or number field) or "commit" (a
  // choice, a picked model, a button). An edit gets one history entry, so Back undoes it.
  function rerender(edit) {
    update(edit).catch(reportBug);
  }
  P.rerender = rerender; // for the panels other files add

  // Re-render from the form. Calls overlap when the user types fast; only the newest one writes
  // to the page. Resolves with the engine's error, if any (link repair reads it).
  async function update(edit) {
    if (!state.ready) return null;
    const seq = ++renderSeq;
    const { target, problems } = readTarget();
    state.renderedModel = target.model || "";

    if (edit) updateAddress(target, seq, edit);

    if (problems.length) {
      clearFieldErrors();
      for (const p of problems) showFieldError(p.key, p.msg);
      showError(problems.map((p) => p.msg).join("; "));
      return null;
    }
    if (!("model" in target) && !("paramsB" in target)) {
      clearFieldErrors();
      showPrompt();
      return null;
    }
    let res;
    try {
      res = await window.fitclaim.render(target);
    } catch (e) {
      if (seq !== renderSeq) return null;
      clearFieldErrors();
      const key = fieldOf(e);
      const msg = errMessage(e);
      if (key) showFieldError(key, msg);
      showError(msg);
      return e;
    }
    if (seq !== renderSeq) return null;
    clearFieldErrors();
    showResult(res, target);
    return null;
  }

  async function updateAddress(target, seq, edit) {
    let frag;
    try {
      frag = await window.fitclaim.permalink(target);
    } catch (_) {
      return; // the form holds something a link cannot spell; keep the last address
    }
    if (seq !== renderSeq || typeof frag !== "string") return;
    if (frag === state.currentFragment) {
      if (edit === "commit") state.typing = false;
      return;
    }
    const url = location.pathname + location.search + (frag ? "#" + frag : "");
    try {
      if (edit === "commit" || !state.typing) history.pushState(null, "", url);
      else history.replaceState(null, "", url);
    } catch (_) { /* sandboxed */ }
    state.currentFragment = frag;
    state.typing = edit === "typing";
  }

  function showPrompt() {
    const summary = $("summary");
    clear(summary);
    summary.appendChild(el("p", null, "Pick a model from the catalog, or choose “Custom size” and enter a parameter count."));
    $("result-error").hidden = true;
    if (!state.lastGood) $("output").hidden = true;
    else markStale(true);
  }

  function showError(msg) {
    const box = $("result-error");
    box.textContent = msg;
    box.hidden = false;
    const summary = $("summary");
    clear(summary);
    if (state.lastGood) {
      summary.appendChild(el("p", null, "Not updated: the form has an error (below, and by its field). The claim shown is the last valid one."));
      markStale(true);
    } else {
      summary.appendChild(el("p", null, "No claim yet: the form has an error (below, and by its field)."));
      $("output").hidden = true;
    }
  }

  function markStale(stale) {
    $("stale").hidden = !stale;
    $("output").classList.toggle("is-stale", stale);
  }

  // The example is on show until the first claim of the user's own replaces it.
  function setExample(on) {
    $("output").toggleAttribute("data-example", on);
    $("example-note").hidden = !on;
  }

  function showResult(res, target) {
    state.lastGood = res;
    const b = res.bounds || {};
    $("result-error").hidden = true;
    markStale(false);
    setExample(res === (state.example && state.example.result));
    $("output").hidden = false;

    const yaml = String(res.yaml || "");
    const json = String(res.json || "");
    const claimName = b.claimName || "claim";
    state.claimName = claimName;
    setText($("yaml"), yaml);
    setText($("json"), json);
    setText($("download-name"), claimName + ".yaml");

    const frag = typeof res.permalink === "string" ? res.permalink : "";
    const api = location.origin + "/api/v1/claim.yaml?" + frag;
    const heredoc = "kubectl apply -f - <<'EOF'\n" + yaml + (yaml.endsWith("\n") ? "" : "\n") + "EOF\n";
    const apply = "kubectl apply -f '" + api.replace(/'/g, "'\\''") + "'";
    state.texts = { yaml, json, heredoc, apply, api };
    setText($("apply"), apply);
    const link = $("api-link");
    link.href = api;
    setText(link, api);

    // The summary (the live region), the verdict and the explanation: the engine's words.
    const x = res.explain || {};
    const summary = $("summary");
    clear(summary);
    summary.appendChild(el("p", null, x.summary));
    summary.appendChild(el("p", "verdict-line", x.verdict));
    if (x.split) {
      summary.appendChild(choice(x.split.text, "Split over " + x.split.count + " devices", "use-split", () => { $("count").value = String(x.split.count); }, "count"));
    }
    if (res.driverNote) {
      summary.appendChild(choice(res.driverNote, "Use the " + res.driverSwitch + " driver", "use-driver", () => { $("driver").value = res.driverSwitch; }, "driver"));
    }
    const dl = el("dl");
    for (const l of x.lines || []) {
      dl.appendChild(el("dt", null, l.label || ""));
      dl.appendChild(el("dd", null, l.text));
    }
    const box = $("explain");
    clear(box);
    box.appendChild(dl);

    renderWarnings(res.warnings || []);
    P.table.render(res.matches || [], b, x.matches);
    if (P.charts) P.charts.render(res);
    for (const panel of P.panels || []) panel.render && panel.render(res, target);
  }

  // choice: the engine's sentence and a button that makes the change it proposes.
  function choice(text, label, id, apply, focusId) {
    const p = el("p", "hint", text + " ");
    const btn = el("button", "btn link", label);
    btn.type = "button";
    btn.id = id;
    btn.addEventListener("click", () => { apply(); rerender("commit"); $(focusId).focus(); });
    p.appendChild(btn);
    return p;
  }

  function renderWarnings(list) {
    const ul = $("warnings");
    clear(ul);
    for (const w of list) ul.appendChild(el("li", null, w));
    $("warnings-box").hidden = list.length === 0;
  }

  // ---------- permalink on load ----------
  function fragment() {
    const h = location.hash;
    return h.startsWith("#") ? h.slice(1) : h;
  }

  // Read a link into the form: the engine keeps its good pairs and says, in one message, what it
  // dropped and why; each dropped pair's message also sits by its field until the next edit.
  async function applyLink(frag) {
    const r = await window.fitclaim.repairLink(frag);
    fillForm(r.target);
    const box = $("link-error");
    box.textContent = r.message;
    box.hidden = !r.message;
    for (const d of r.dropped) {
      if (BY_KEY.has(d.field) && !linkFieldErrors.has(d.field)) linkFieldErrors.set(d.field, d.message);
    }
  }

  const linkFieldErrors = new Map();

  // ---------- model combobox ----------
  async function safeModels(q, limit) {
    try {
      const r = await window.fitclaim.models(q, limit);
      return Array.isArray(r) ? r : [];
    } catch (_) {
      return [];
    }
  }

  const combo = {
    open: false,
    items: [],
    active: -1,
    seq: 0,
  };

  function describeModel(m) {
    const parts = [];
    if (typeof m.paramsB === "number") parts.push(num(m.paramsB, m.paramsB < 10 ? 1 : 0) + " B params");
    if (m.quant) parts.push(m.quant);
    if (m.contextLength) parts.push(num(m.contextLength) + " context");
    if (m.moe) parts.push("mixture-of-experts");
    return parts.join(" · ");
  }

  // Fill the listbox for a query; resolves once it is shown (or superseded).
  async function comboRender(q) {
    const seq = ++combo.seq;
    const items = await safeModels(q, 20);
    if (seq !== combo.seq) return;
    const list = $("model-list");
    clear(list);
    combo.items = items;
    combo.active = -1;
    if (!combo.items.length) {
      const li = el("li", "empty", q ? "No catalog model matches “" + q + "”." : "The catalog is empty.");
      li.setAttribute("role", "option");
      li.setAttribute("aria-disabled", "true");
      li.id = "model-opt-none";
      list.appendChild(li);
    }
    combo.items.forEach((m, i) => {
      const li = el("li");
      li.id = "model-opt-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.appendChild(el("span", "opt-name", m.name));
      li.appendChild(el("span", "opt-meta", describeModel(m)));
      li.addEventListener("mousedown", (ev) => ev.preventDefault()); // keep focus in the input
      li.addEventListener("click", () => comboPick(i));
      list.appendChild(li);
    });
    comboShow(true);
  }

  function comboShow(open) {
    combo.open = open;
    $("model-list").hidden = !open;
    const inp = $("model");
    inp.setAttribute("aria-expanded", open ? "true" : "false");
    if (!open) {
      inp.removeAttribute("aria-activedescendant");
      combo.active = -1;
    }
  }

  function comboMove(i) {
    const list = $("model-list");
    if (!combo.items.length) return;
    const n = combo.items.length;
    combo.active = ((i % n) + n) % n;
    for (const li of list.children) li.setAttribute("aria-selected", li.id === "model-opt-" + combo.active ? "true" : "false");
    const cur = $("model-opt-" + combo.active);
    $("model").setAttribute("aria-activedescendant", cur.id);
    cur.scrollIntoView({ block: "nearest" });
  }

  function comboPick(i) {
    const m = combo.items[i];
    if (!m) return;
    $("model").value = m.name;
    comboShow(false);
    rerender("commit");
  }

  // Enter without a highlighted option: the list's own answer (an exact name, else its first
  // match), so what the list offers and what Enter picks are one search.
  function comboCommit() {
    const typed = $("model").value.trim().toLowerCase();
    const exact = combo.items.findIndex((m) => m.name.toLowerCase() === typed);
    if (exact >= 0 || combo.items.length) comboPick(exact >= 0 ? exact : 0);
    else { comboShow(false); rerender("commit"); }
  }

  // Typing only searches; the claim follows a pick, Enter or leaving the field, so no error
  // shows for a name half typed.
  function wireCombo() {
    const inp = $("model");
    inp.addEventListener("input", () => comboRender(inp.value.trim()));
    inp.addEventListener("change", () => { if (inp.value.trim() !== state.renderedModel) rerender("commit"); });
    inp.addEventListener("keydown", async (ev) => {
      if (ev.key === "ArrowDown") {
        ev.preventDefault();
        if (!combo.open) { await comboRender(inp.value.trim()); if (!ev.altKey) comboMove(0); return; }
        comboMove(combo.active + 1);
      } else if (ev.key === "ArrowUp") {
        ev.preventDefault();
        if (!combo.open) { await comboRender(inp.value.trim()); comboMove(combo.items.length - 1); return; }
        comboMove(combo.active - 1);
      } else if (ev.key === "Enter") {
        ev.preventDefault();
        if (combo.open && combo.active >= 0) comboPick(combo.active);
        else comboCommit();
      } else if (ev.key === "Escape") {
        if (combo.open) { ev.preventDefault(); comboShow(false); }
      } else if (ev.key === "Tab") {
        comboShow(false);
      } else if ((ev.key === "Home" || ev.key === "End") && combo.open && combo.active >= 0) {
        ev.preventDefault();
        comboMove(ev.key === "Home" ? 0 : combo.items.length - 1);
      }
    });
    inp.addEventListener("blur", () => setTimeout(() => { combo.seq++; comboShow(false); }, 0));
  }

  // ---------- tabs ----------
  const TABS = ["yaml", "json", "deploy"]; // deploy: the Deployment tab (deploy.js fills it)
  function selectTab(name, focus) {
    state.activeTab = name;
    for (const t of TABS) {
      const tab = $("tab-" + t);
      const on = t === name;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
      $("panel-" + t).hidden = !on;
      if (on && focus) tab.focus();
    }
  }
  function wireTabs() {
    const order = TABS;
    for (const t of order) {
      const tab = $("tab-" + t);
      tab.addEventListener("click", () => selectTab(t, false));
      tab.addEventListener("keydown", (ev) => {
        const i = order.indexOf(state.activeTab);
        let next = null;
        if (ev.key === "ArrowRight") next = order[(i + 1) % order.length];
        else if (ev.key === "ArrowLeft") next = order[(i - 1 + order.length) % order.length];
        else if (ev.key === "Home") next = order[0];
        else if (ev.key === "End") next = order[order.length - 1];
        if (next) { ev.preventDefault(); selectTab(next, true); }
      });
    }
  }

  // ---------- copy / download ----------
  async function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      try { await navigator.clipboard.writeText(text); return true; } catch (_) { /* fall back */ }
    }
    const ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.className = "sr-only";
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (_) { ok = false; }
    ta.remove();
    return ok;
  }

  function wireActions() {
    for (const btn of document.querySelectorAll("[data-copy]")) {
      const label = btn.textContent;
      btn.addEventListener("click", async () => {
        const what = btn.getAttribute("data-copy");
        const ok = await copyText(state.texts[what] || "");
        btn.textContent = ok ? "Copied" : "Copy failed";
        $("copied").textContent = ok ? "Copied to the clipboard." : "Could not copy; select the text and copy it by hand.";
        setTimeout(() => { btn.textContent = label; }, 1500);
      });
    }
    $("download-yaml").addEventListener("click", () => {
      const blob = new Blob([state.texts.yaml], { type: "application/yaml" });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = state.claimName + ".yaml";
      a.hidden = true;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    });
  }

  // ---------- form wiring ----------
  function wireForm() {
    const form = $("form");
    form.addEventListener("submit", (ev) => ev.preventDefault());
    for (const f of FIELDS) {
      if (f.key === "model") continue; // the combobox has its own handler
      const node = input(f.key);
      if (node.tagName === "SELECT") {
        node.addEventListener("change", () => {
          if (f.key === "sizing") syncVisibility();
          rerender("commit");
        });
      } else {
        node.addEventListener("input", () => rerender("typing"));
        node.addEventListener("change", () => { state.typing = false; }); // the edit is done
      }
    }
    for (const r of document.querySelectorAll('input[name="source"]')) {
      r.addEventListener("change", () => { syncVisibility(); rerender("commit"); });
    }
    $("reset").addEventListener("click", () => {
      const model = $("model").value;
      const custom = source() === "custom";
      const params = $("paramsB").value;
      resetFields(false);
      if (custom) { setSource("custom"); $("paramsB").value = params; } else { $("model").value = model; }
      $("link-error").hidden = true;
      rerender("commit");
    });
    // A new link in the address bar, or Back and Forward through the edits.
    const follow = () => {
      const frag = fragment();
      if (frag === state.currentFragment) return;
      if (!frag.includes("=") && document.getElementById(frag)) return; // an in-page link (#result)
      loadFromLink().catch(reportBug);
    };
    window.addEventListener("hashchange", follow);
    window.addEventListener("popstate", follow);
  }

  async function loadFromLink() {
    linkFieldErrors.clear();
    const frag = fragment();
    state.currentFragment = frag;
    renderSeq++; // whatever was in flight is about the old form
    state.typing = false;
    $("link-error").hidden = true;
    if (!frag && state.example) {
      // A bare address: the example, as index.html already shows it; nothing to render.
      fillForm(state.example.target);
      clearFieldErrors();
      showResult(state.example.result, state.example.target);
      return;
    }
    if (frag) await applyLink(frag);
    else fillForm({});
    await update(null); // one render
    // Messages about the link's dropped parts sit by their fields until the next edit.
    for (const [key, msg] of linkFieldErrors) {
      if (input(key).getAttribute("aria-invalid") !== "true") showFieldError(key, msg);
    }
  }

  // ---------- boot ----------
  function bootFail(msg) {
    const boot = $("boot");
    boot.textContent = msg;
    boot.classList.add("boot-error");
    boot.setAttribute("role", "alert");
    boot.hidden = false;
  }

  // loadEngine instantiates the module boot.js has been compiling since the head of the page.
  async function loadEngine() {
    const { module, error } = await window.fitclaimBoot.engine;
    if (error) throw error;
    if (typeof Go !== "function") throw new Error("the Go runtime script did not load");
    const go = new Go();
    const inst = await WebAssembly.instantiate(module, go.importObject);
    let exited = false;
    go.run(inst).then(() => { exited = true; }, () => { exited = true; });
    // Go's main installs the global before go.run returns to this script; on a slow or busy
    // machine that can take a while, so wait as long as the program is alive.
    const t0 = Date.now();
    let told = false;
    while (!(window.fitclaim && typeof window.fitclaim.render === "function")) {
      if (exited) throw new Error("the engine stopped while starting");
      if (!told && Date.now() - t0 > 8000) {
        told = true;
        $("boot").textContent = "Still starting the sizing engine… (this machine seems busy)";
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  // The example claim of index.html (rendered by the engine when the site was built).
  function readExample() {
    const node = $("example");
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (_) { return null; }
  }

  async function main() {
    syncVisibility();
    wireCombo();
    wireTabs();
    wireActions();
    wireForm();
    labelForm();
    P.table.wire();
    state.example = readExample();
    const bare = !fragment();
    if (bare && state.example) {
      // Shown at once, without the engine: the page's first claim is the example.
      fillForm(state.example.target);
      showResult(state.example.result, state.example.target);
      state.currentFragment = "";
    } else {
      setExample(false);
    }
    try {
      await loadEngine();
    } catch (e) {
      bootFail("The sizing engine could not start: " + errMessage(e) + ". Reload the page to try again.");
      document.documentElement.dataset.state = "error";
      return;
    }
    state.ready = true;
    const fc = window.fitclaim;
    const cat = fc.catalog || {};
    if (typeof cat.models === "number") $("catalog-size").textContent = "the catalog of " + num(cat.models) + " models";
    $("version").textContent = "fitclaim " + (fc.version || "") + (cat.date ? ", catalog of " + cat.date : "");
    $("boot").hidden = true;
    if (!(bare && state.example) || fragment()) await loadFromLink();
    document.documentElement.dataset.state = "ready";
    whenIdle(registerSW);
  }

  // The service worker installs once the claim is on screen and the page is idle; it fills its
  // cache from the HTTP cache the page has just filled (sw.js), not from the network again.
  function whenIdle(fn) {
    if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 3000 });
    else setTimeout(fn, 500);
  }

  function registerSW() {
    if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
    navigator.serviceWorker.register("/sw.js").catch(() => { /* offline support is optional */ });
  }

  window.addEventListener("error", (ev) => {
    // Last resort: say so in the page rather than failing silently.
    if (!state.ready) bootFail("fitclaim hit an error while starting: " + (ev.message || "unknown error"));
  });

  main().catch((e) => bootFail("fitclaim could not start: " + errMessage(e)));
})();
