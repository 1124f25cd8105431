// fitclaim page: the form, the permalink, the result. All sizing happens in the
// Go engine behind the global `fitclaim` (wasm); this file only moves values
// between the form and the engine and writes the answer with textContent.
// Every bridge function returns a Promise (rejected with an Error whose message,
// .field and .key name the field); every call here is awaited and caught.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, clear, setText, errMessage, num, plural } = P.util;

  // Form fields: camelCase target key, permalink key, kind, and when it is sent.
  // group: "catalog" fields only in catalog mode, "custom" only in custom mode,
  // "kv" only with sizing=kv.
  const FIELDS = [
    { key: "model", pk: "m", kind: "text", group: "catalog" },
    { key: "paramsB", pk: "p", kind: "number", group: "custom" },
    { key: "activeParamsB", pk: "ap", kind: "number", group: "custom" },
    { key: "layers", pk: "L", kind: "int", group: "custom" },
    { key: "kvHeads", pk: "kvh", kind: "int", group: "custom" },
    { key: "headDim", pk: "hd", kind: "int", group: "custom" },
    { key: "quant", pk: "q", kind: "select" },
    { key: "minTps", pk: "tps", kind: "number" },
    { key: "efficiencyPct", pk: "eff", kind: "int" },
    { key: "sizing", pk: "s", kind: "select" },
    { key: "context", pk: "ctx", kind: "int", group: "kv" },
    { key: "sequences", pk: "seq", kind: "int", group: "kv" },
    { key: "kvCache", pk: "kv", kind: "select", group: "kv" },
    { key: "driver", pk: "drv", kind: "select" },
    { key: "count", pk: "n", kind: "int" },
    { key: "template", pk: "tpl", kind: "bool" },
    { key: "name", pk: "name", kind: "text" },
    { key: "deviceClass", pk: "dc", kind: "text" },
  ];
  const BY_KEY = new Map(FIELDS.map((f) => [f.key, f]));
  const BY_PK = new Map(FIELDS.map((f) => [f.pk, f]));
  // Select values that mean "the default", whichever way a target spells them.
  const DEFAULT_SELECT = { sizing: "llmfit", driver: "llmfit", kvCache: "fp16" };

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

  function fieldActive(f) {
    if (f.group === "catalog") return source() === "catalog";
    if (f.group === "custom") return source() === "custom";
    if (f.group === "kv") return sizingKV();
    return true;
  }

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
      if (f.kind === "number" || f.kind === "int") {
        if (node.validity && node.validity.badInput) {
          problems.push({ key: f.key, msg: f.key + " (" + f.pk + "): must be a number" });
          continue;
        }
        // The bridge is strict: a number field takes a JS number (the engine checks its range).
        const raw = node.value.trim();
        if (raw === "") continue;
        const n = Number(raw);
        if (Number.isFinite(n)) target[f.key] = n;
        else problems.push({ key: f.key, msg: f.key + " (" + f.pk + "): must be a number" });
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
      } else if (f.kind === "number" || f.kind === "int") {
        if (typeof value === "number" && value !== 0 && isFinite(value)) node.value = String(value);
      } else if (f.kind === "select") {
        let v = String(value);
        if (DEFAULT_SELECT[key] === v) v = "";
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
  const ALL_NAMES = FIELDS.map((f) => f.key).sort((a, b) => b.length - a.length);

  function resolveName(token) {
    if (!token) return null;
    if (BY_KEY.has(token)) return token;
    const lower = ALL_NAMES.find((k) => k.toLowerCase() === token.toLowerCase());
    if (lower) return lower;
    if (BY_PK.has(token)) return BY_PK.get(token).key;
    return null;
  }

  // Which form field an engine error is about: an explicit property, the
  // message's leading "field:", or the first field name the message mentions.
  function fieldOf(e) {
    if (e && typeof e === "object") {
      for (const p of ["field", "key"]) {
        if (typeof e[p] === "string") {
          const r = resolveName(e[p]);
          if (r) return r;
        }
      }
    }
    const msg = errMessage(e);
    const lead = /^\s*(?:[a-z ]*link[^:]*:\s*)?([A-Za-z][A-Za-z-]*)\s*(?::|=|\s)/.exec(msg);
    if (lead) {
      const r = resolveName(lead[1]);
      if (r) return r;
    }
    let best = null;
    let bestAt = Infinity;
    for (const name of ALL_NAMES) {
      const re = new RegExp("(^|[^A-Za-z0-9_])" + name + "(?![A-Za-z0-9_])");
      const m = re.exec(msg);
      if (m && m.index < bestAt) { best = name; bestAt = m.index; }
    }
    return best;
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
      await showPrompt(seq);
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

  async function showPrompt(seq) {
    const models = await safeModels("", 4);
    if (seq !== renderSeq) return;
    const summary = $("summary");
    clear(summary);
    summary.appendChild(el("p", null, "Pick a model from the catalog, or choose “Custom size” and enter a parameter count: the claim appears here as you type."));
    if (models.length) {
      const p = el("p", "examples", "Try: ");
      models.forEach((m, i) => {
        const b = el("button", "btn link", m.name);
        b.type = "button";
        b.addEventListener("click", () => { $("model").value = m.name; rerender("commit"); $("model").focus(); });
        p.appendChild(b);
        if (i < models.length - 1) p.appendChild(document.createTextNode(" "));
      });
      summary.appendChild(p);
    }
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

    // Summary (the live region): one sentence.
    const summary = $("summary");
    clear(summary);
    const p = el("p");
    const kind = (b.template !== undefined ? b.template : target.template) ? "ResourceClaimTemplate" : "ResourceClaim";
    p.appendChild(document.createTextNode(kind + " "));
    p.appendChild(el("strong", null, claimName));
    const countTxt = b.count > 1 ? b.count + " devices, each with " : "a device with ";
    p.appendChild(document.createTextNode(
      ": " + countTxt + "≥ " + num(b.memoryGi) + " Gi of memory and ≥ " + num(b.minBandwidthGBs) +
      " GB/s of bandwidth, from device class " + (b.deviceClass || "—") + "."));
    summary.appendChild(p);
    const matches = res.matches || [];
    const fitting = matches.filter((m) => m.fits).length;
    const selected = matches.filter((m) => m.fits && m.selected !== false).length;
    summary.appendChild(el("p", "hint", fitting + " of " + matches.length +
      " catalog accelerators meet both floors" + (b.count > 1 ? " with " + b.count + " devices" : "") +
      (selected !== fitting ? "; " + selected + " of them are ones this claim's driver can select." : ".")));
    // No device holds it: offer the smallest split the matching found.
    const splits = matches.filter((m) => m.devicesNeeded > (b.count || 1)).map((m) => m.devicesNeeded);
    if (fitting === 0 && splits.length) {
      const n = Math.min(...splits);
      const best = matches.find((m) => m.devicesNeeded === n);
      const p2 = el("p", "hint");
      p2.appendChild(document.createTextNode("No single device meets both floors; " + n + " × " + (best ? best.name : "one product") + " would. "));
      const btn = el("button", "btn link", "Split over " + n + " devices");
      btn.type = "button";
      btn.id = "use-split";
      btn.addEventListener("click", () => { $("count").value = String(n); rerender("commit"); $("count").focus(); });
      p2.appendChild(btn);
      summary.appendChild(p2);
    }

    renderExplain(b);
    renderWarnings(res.warnings || []);
    P.table.render(res.matches || [], b);
    if (P.charts) P.charts.render(res);
    for (const panel of P.panels || []) panel.render && panel.render(res, target);
  }

  function renderExplain(b) {
    const box = $("explain");
    clear(box);
    const kv = b.sizing === "kv";
    const moe = typeof b.activeParamsB === "number" && b.activeParamsB > 0 && b.activeParamsB < b.paramsB;
    const count = b.count > 1 ? b.count : 1;
    const eff = num(b.efficiencyPct);

    const dl = el("dl");
    const row = (k, v) => { dl.appendChild(el("dt", null, k)); dl.appendChild(el("dd", null, v)); };
    row("Model", (b.model || "custom model") + ": " + num(b.paramsB, 1) + " B parameters" +
      (moe ? ", of which " + num(b.activeParamsB, 1) + " B are active per token (mixture-of-experts)" : ""));
    row("Weights", num(b.paramsB, 1) + " B × " + (typeof b.bytesPerParam === "number" ? num(b.bytesPerParam) + " bytes" : "the bytes") +
      " per parameter at " + (b.quant || "the model's quantization") + " ≈ " + num(b.weightsGb, 1) + " GB" +
      (b.quantOverride ? " (not the model's own quantization)" : ""));
    if (kv) {
      row("KV cache", "≈ " + num(b.kvCacheGi, 2) + " GiB for " + num(b.contextTokens) + " tokens × " +
        num(b.sequences) + " " + plural(b.sequences, "sequence", "sequences") + " at " + (b.kvCache || "fp16") +
        (b.kvEstimated ? " — estimated: the model's layers and heads are unknown" : ""));
      row("Memory floor", "≥ " + num(b.memoryGi) + " Gi" + (count > 1 ? " per device" : "") + " = weights" +
        (count > 1 ? " and KV cache split " + count + " ways" : " + KV cache") + " + " + num(b.overheadGi, 1) +
        " GiB runtime overhead, rounded up");
    } else {
      const how = b.quantOverride
        ? "the weights × 1.2 headroom (llmfit's rule for a quantization other than the model's own)"
        : "the larger of the catalog's own memory figure for this model and its weights (llmfit's rule)";
      row("Memory floor", "≥ " + num(b.memoryGi) + " Gi" + (count > 1 ? " per device (split " + count + " ways)" : "") +
        ": " + how + ", " + num(b.memoryGb, 2) + " rounded up");
    }
    row("Bandwidth floor", "≥ " + num(b.minBandwidthGBs) + " GB/s" + (count > 1 ? " per device" : "") + " for ≥ " +
      num(b.minTps) + " tok/s" + (kv ? " per sequence" : "") + " at " + eff + "% efficiency");
    row("Device class", (b.deviceClass || "—") + (b.driver ? " (driver " + b.driver + ")" : "") +
      (count > 1 ? ", " + count + " devices" : ""));
    if (Array.isArray(b.productNames) && b.productNames.length) {
      row("Allowed products", b.productNames.join(", "));
    }
    box.appendChild(dl);

    const what = kv ? (moe ? "the active weights and the whole KV cache" : "the weights and the whole KV cache") : "the weights";
    box.appendChild(el("p", null,
      "Decoding a token reads " + what + " from memory once, so a device's speed is about its bandwidth × the efficiency ÷ the bytes read per token" +
      (count > 1 ? "; " + count + " devices together give " + count + " × 0.9 of one device's bandwidth." : ".")));
    const read = typeof b.readGbPerToken === "number" ? b.readGbPerToken : b.weightsGb;
    const readTxt = num(read, read < 10 ? 2 : 1) + " GB";
    const total = count > 1 ? "(" + count + " × 0.9 × bandwidth)" : "bandwidth";
    box.appendChild(el("p", "formula",
      "tok/s ≈ " + total + " × " + eff + "% ÷ " + readTxt + " per token\n" +
      "⇒ bandwidth ≥ " + num(b.minTps) + " tok/s × " + readTxt + " ÷ " + eff + "%" +
      (count > 1 ? " ÷ (" + count + " × 0.9)" : "") + " = " + num(b.minBandwidthGBs) + " GB/s (rounded up)"));

    if (!kv && typeof b.kvTokensRoom === "number") {
      const p = el("p");
      const room = Math.max(0, Math.floor(b.kvTokensRoom));
      p.appendChild(document.createTextNode(
        "llmfit's sizing counts no KV cache: the memory floor leaves " +
        (room > 0 ? "room for about " + num(room) + " tokens of fp16 KV cache beside the weights. "
                  : "no room for a KV cache beside the weights and 0.5 GiB of runtime overhead. ")));
      const btn = el("button", "btn link", "Size with the KV cache instead");
      btn.type = "button";
      btn.id = "switch-kv";
      btn.addEventListener("click", () => {
        $("sizing").value = "kv";
        syncVisibility();
        rerender("commit");
        $("sizing").focus();
      });
      p.appendChild(btn);
      box.appendChild(p);
    }
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

  async function safeParse(frag) {
    try { return { target: await window.fitclaim.parsePermalink(frag) }; } catch (e) { return { error: e }; }
  }

  function describePair(pair) {
    let shown = pair;
    try { shown = decodeURIComponent(pair.replace(/\+/g, " ")); } catch (_) { /* keep raw */ }
    if (shown.length > 80) shown = shown.slice(0, 77) + "…";
    return shown;
  }

  // The pair of the link that spells a field (by its short key), for messages.
  function pairFor(frag, key) {
    const f = BY_KEY.get(key);
    if (!f) return "";
    return frag.split("&").find((p) => p.split("=")[0] === f.pk) || "";
  }

  // Read the link into the form: all of it if it parses; otherwise the pairs that parse (the
  // engine hands them back on the Error as .target). Returns the dropped parts, {pair, error}.
  async function applyLink(frag) {
    const dropped = [];
    const whole = await safeParse(frag);
    if (!whole.error) {
      fillForm(whole.target);
      return dropped;
    }
    const e = whole.error;
    fillForm(e.target && typeof e.target === "object" ? e.target : {});
    const list = Array.isArray(e.errors) && e.errors.length ? e.errors : [e];
    for (const x of list) {
      const key = fieldOf(x);
      dropped.push({ pair: key ? pairFor(frag, key) : "", error: x });
    }
    return dropped;
  }

  function showDropped(dropped) {
    const box = $("link-error");
    box.hidden = dropped.length === 0;
    box.textContent = "";
    if (!dropped.length) return;
    const lines = ["This link has " + (dropped.length === 1 ? "a part" : dropped.length + " parts") +
      " that could not be used; the rest of it was kept."];
    for (const d of dropped) {
      const msg = errMessage(d.error);
      lines.push("• " + (d.pair ? "“" + describePair(d.pair) + "”: " : "") + msg);
      const key = fieldOf(d.error) || (BY_PK.get((d.pair || "").split("=")[0]) || {}).key;
      if (key && BY_KEY.has(key) && !linkFieldErrors.has(key)) linkFieldErrors.set(key, msg);
    }
    box.textContent = lines.join("\n");
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
    if (!frag && state.example) {
      // A bare address: the example, as index.html already shows it; nothing to render.
      fillForm(state.example.target);
      showDropped([]);
      clearFieldErrors();
      showResult(state.example.result, state.example.target);
      return;
    }
    const dropped = frag ? await applyLink(frag) : (fillForm({}), []);
    // One render; only when it fails on a value the parser let through (eff=500) is that field
    // left out and the rest rendered again, so a link with a bad part still gives a claim.
    for (let i = 0; i < FIELDS.length; i++) {
      const err = await update(null);
      if (!err) break;
      const key = fieldOf(err);
      const { target } = readTarget();
      if (!key || !(key in target) || key === "model" || key === "paramsB") break;
      const f = BY_KEY.get(key);
      dropped.push({ pair: pairFor(frag, key) || (f.pk + "=" + String(target[key])), error: err });
      input(key).value = "";
      if (key === "sizing") syncVisibility();
    }
    showDropped(dropped);
    // Messages about the link's dropped parts sit by their fields until the next edit.
    for (const [key, msg] of linkFieldErrors) {
      if (input(key).getAttribute("aria-invalid") !== "true") showFieldError(key, msg);
    }
  }

  // The engine's own lists of choices: the quantizations, KV cache types and drivers
  // it knows. The page's labels stay; a choice the page lacks is added.
  function applyOptions(options) {
    if (!options || typeof options !== "object") return;
    const lists = { quant: options.quants, kvCache: options.kvCaches, driver: options.drivers };
    for (const [key, list] of Object.entries(lists)) {
      if (!Array.isArray(list)) continue;
      const node = input(key);
      const have = new Set(Array.from(node.options).map((o) => o.value));
      for (const v of list) {
        const value = String(v);
        if (value === DEFAULT_SELECT[key] || have.has(value)) continue;
        node.appendChild(new Option(value, value));
        have.add(value);
      }
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
    applyOptions(fc.options);
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
