// fitclaim page: the form, the permalink, the result. All sizing happens in the
// Go engine behind the global `fitclaim` (wasm); this file only moves values
// between the form and the engine and writes the answer with textContent.
// Every bridge function returns a Promise (rejected with an Error whose message,
// .field and .key name the field); every call here is awaited and caught.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

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
    lastTarget: null,
    activeTab: "yaml",
    texts: { yaml: "", json: "", heredoc: "", apply: "", api: "" },
    claimName: "claim",
  };

  // ---------- small helpers ----------
  function el(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }
  function errMessage(e) {
    if (e && typeof e.message === "string" && e.message) return e.message;
    try { return String(e); } catch (_) { return "unknown error"; }
  }
  function num(v, digits) {
    if (typeof v !== "number" || !isFinite(v)) return "—";
    if (digits === undefined) {
      return Number.isInteger(v) ? v.toLocaleString("en-US") : v.toLocaleString("en-US", { maximumFractionDigits: 2 });
    }
    return v.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }
  function plural(n, one, many) { return n === 1 ? one : many; }

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
        // The typed text goes to the engine as is: it parses it like a link value,
        // so the page, links and the API share one set of rules and messages.
        const raw = node.value.trim();
        if (raw !== "") target[f.key] = raw;
        continue;
      }
      const raw = f.kind === "text" ? node.value.trim() : node.value;
      if (raw !== "") target[f.key] = raw;
    }
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

  function kebabToCamel(s) { return s.replace(/-([a-z])/g, (_, c) => c.toUpperCase()); }

  function resolveName(token) {
    if (!token) return null;
    if (BY_KEY.has(token)) return token;
    const camel = kebabToCamel(token);
    if (BY_KEY.has(camel)) return camel;
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

  function rerender(fromEdit) {
    update(fromEdit).catch(reportBug);
  }

  // Re-render from the form. Calls overlap when the user types fast; only the
  // newest one writes to the page.
  async function update(fromEdit) {
    if (!state.ready) return;
    const seq = ++renderSeq;
    const { target, problems } = readTarget();
    state.lastTarget = target;

    if (fromEdit) updateAddress(target, seq);

    if (problems.length) {
      clearFieldErrors();
      for (const p of problems) showFieldError(p.key, p.msg);
      showError(problems.map((p) => p.msg).join("; "));
      return;
    }
    if (!("model" in target) && !("paramsB" in target)) {
      clearFieldErrors();
      await showPrompt(seq);
      return;
    }
    let res;
    try {
      res = await window.fitclaim.render(target);
    } catch (e) {
      if (seq !== renderSeq) return;
      clearFieldErrors();
      const key = fieldOf(e);
      const msg = errMessage(e);
      if (key) showFieldError(key, msg);
      showError(msg);
      return;
    }
    if (seq !== renderSeq) return;
    clearFieldErrors();
    showResult(res, target);
  }

  async function updateAddress(target, seq) {
    let frag;
    try {
      frag = await window.fitclaim.permalink(target);
    } catch (_) {
      return; // the form holds something a link cannot spell; keep the last address
    }
    if (seq !== renderSeq || typeof frag !== "string") return;
    const url = location.pathname + location.search + (frag ? "#" + frag : "");
    try { history.replaceState(null, "", url); } catch (_) { /* sandboxed */ }
    state.currentFragment = frag;
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
        b.addEventListener("click", () => { $("model").value = m.name; rerender(true); $("model").focus(); });
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

  function showResult(res, target) {
    state.lastGood = res;
    const b = res.bounds || {};
    $("result-error").hidden = true;
    markStale(false);
    $("output").hidden = false;

    const yaml = String(res.yaml || "");
    const json = String(res.json || "");
    const claimName = b.claimName || "claim";
    state.claimName = claimName;
    $("yaml").textContent = yaml;
    $("json").textContent = json;
    $("download-name").textContent = claimName + ".yaml";

    const frag = typeof res.permalink === "string" ? res.permalink : "";
    const api = location.origin + "/api/v1/claim.yaml?" + frag;
    const heredoc = "kubectl apply -f - <<'EOF'\n" + yaml + (yaml.endsWith("\n") ? "" : "\n") + "EOF\n";
    const apply = "kubectl apply -f '" + api.replace(/'/g, "'\\''") + "'";
    state.texts = { yaml, json, heredoc, apply, api };
    $("heredoc").textContent = heredoc;
    $("apply").textContent = apply;
    const link = $("api-link");
    link.href = api;
    link.textContent = api;

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
      btn.addEventListener("click", () => { $("count").value = String(n); rerender(true); $("count").focus(); });
      p2.appendChild(btn);
      summary.appendChild(p2);
    }

    renderExplain(b);
    renderWarnings(res.warnings || []);
    renderMatches(res.matches || [], b);
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
        rerender(true);
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

  const MATCHES_SHOWN = 12;
  const VENDORS = { nvidia: "NVIDIA", amd: "AMD", intel: "Intel", google: "Google", apple: "Apple", aws: "AWS" };

  function vendorName(v) {
    if (!v) return "";
    return VENDORS[String(v).toLowerCase()] || String(v);
  }

  function renderMatches(list, b) {
    const body = $("matches");
    clear(body);
    list.forEach((m, i) => {
      const tr = el("tr", m.fits ? "fits" : "");
      if (i >= MATCHES_SHOWN && !state.allMatches) tr.hidden = true;
      const name = el("th");
      name.scope = "row";
      name.appendChild(el("span", "acc", m.name || m.id));
      const sub = [vendorName(m.vendor),
        m.productName && m.productName !== m.name ? "driver name “" + m.productName + "”" : ""].filter(Boolean).join(" · ");
      if (sub) name.appendChild(el("span", "vendor", sub));
      tr.appendChild(name);

      const vtd = el("td", "vcell");
      const multi = !m.fits && m.devicesNeeded > 1;
      const cls = m.fits ? "ok" : multi ? "multi" : "no";
      vtd.appendChild(el("span", "verdict " + cls, m.verdict || (m.fits ? "fits" : "does not fit")));
      if (m.fits && m.selected === false) {
        vtd.appendChild(el("span", "unselected", "not selected by this claim's driver"));
      }
      tr.appendChild(vtd);

      const cell = (label, text) => {
        const td = el("td", "num", text);
        td.setAttribute("data-label", label); // shown as the cell's caption on narrow screens
        tr.appendChild(td);
      };
      const h = m.headroomPct;
      cell("Est. tok/s", num(m.estTps, 1));
      cell("Headroom", typeof h === "number" && isFinite(h) ? (h > 0 ? "+" : h < 0 ? "−" : "") + num(Math.abs(h), 0) + "%" : "—");
      cell("Devices needed", m.devicesNeeded > 0 ? String(m.devicesNeeded) : "over 8");
      cell("Memory, GiB", num(m.memoryGiB, 1));
      cell("Bandwidth, GB/s", num(m.bandwidthGBs));
      body.appendChild(tr);
    });
    const more = $("matches-more");
    more.hidden = list.length <= MATCHES_SHOWN;
    more.textContent = state.allMatches ? "Show the first " + MATCHES_SHOWN + " only" : "Show all " + list.length + " accelerators";
    more.setAttribute("aria-expanded", state.allMatches ? "true" : "false");
    $("matches-note").textContent = "Every accelerator of the catalog, best first. Estimated tok/s = bandwidth × " +
      num(b.efficiencyPct) + "% ÷ bytes read per token" + (b.count > 1 ? " on " + b.count + " devices" : "") +
      "; headroom is how far that estimate is above your " + num(b.minTps) + " tok/s; devices needed is the fewest of that product (up to 8) that meet both floors.";
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

  // Read the link: all of it if it parses; otherwise keep the pairs that parse
  // (the engine hands them back on the Error as .target) and say which did not.
  async function applyLink(frag) {
    const box = $("link-error");
    box.hidden = true;
    box.textContent = "";
    if (!frag) { fillForm({}); return; }
    const dropped = []; // {pair, error}
    const whole = await safeParse(frag);
    if (!whole.error) {
      fillForm(whole.target);
    } else if (whole.error && whole.error.target && typeof whole.error.target === "object") {
      fillForm(whole.error.target);
      const list = Array.isArray(whole.error.errors) && whole.error.errors.length ? whole.error.errors : [whole.error];
      for (const e of list) {
        const key = fieldOf(e);
        dropped.push({ pair: key ? pairFor(frag, key) : "", error: e });
      }
    } else {
      // A bridge without .target: find the good pairs ourselves.
      const pairs = frag.split("&").filter((p) => p !== "");
      let kept = [];
      let pending = pairs.slice();
      let progress = true;
      while (progress && pending.length) {
        progress = false;
        const still = [];
        for (const p of pending) {
          if (!(await safeParse(kept.concat([p]).join("&"))).error) { kept.push(p); progress = true; } else still.push(p);
        }
        pending = still;
      }
      kept = pairs.filter((p) => kept.includes(p));
      const keptParse = await safeParse(kept.join("&"));
      fillForm(keptParse.error ? {} : keptParse.target);
      for (const p of pending) dropped.push({ pair: p, error: (await safeParse(p)).error || whole.error });
      if (!pending.length) dropped.push({ pair: "", error: whole.error });
    }

    // A pair can be well-formed and still out of range (eff=500): the engine says which
    // field; leave that one out too, so the rest of the link still gives a claim.
    for (let i = 0; i < FIELDS.length; i++) {
      const { target, problems } = readTarget();
      if (problems.length || (!("model" in target) && !("paramsB" in target))) break;
      let err = null;
      try { await window.fitclaim.render(target); } catch (e) { err = e; }
      if (!err) break;
      const key = fieldOf(err);
      if (!key || !(key in target) || key === "model" || key === "paramsB") break;
      const f = BY_KEY.get(key);
      dropped.push({ pair: pairFor(frag, key) || (f.pk + "=" + String(target[key])), error: err });
      input(key).value = "";
      if (key === "sizing") syncVisibility();
    }

    if (!dropped.length) return;
    const lines = ["This link has " + (dropped.length === 1 ? "a part" : dropped.length + " parts") +
      " that could not be used; the rest of it was kept."];
    for (const d of dropped) {
      const msg = errMessage(d.error);
      lines.push("• " + (d.pair ? "“" + describePair(d.pair) + "”: " : "") + msg);
      const key = fieldOf(d.error) || (BY_PK.get((d.pair || "").split("=")[0]) || {}).key;
      if (key && BY_KEY.has(key) && !linkFieldErrors.has(key)) showLinkFieldError(key, msg);
    }
    box.textContent = lines.join("\n");
    box.hidden = false;
  }

  const linkFieldErrors = new Map();
  function showLinkFieldError(key, msg) { linkFieldErrors.set(key, msg); }

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
    rerender(true);
  }

  function wireCombo() {
    const inp = $("model");
    inp.addEventListener("input", () => {
      comboRender(inp.value.trim());
      rerender(true);
    });
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
        if (combo.open && combo.active >= 0) { ev.preventDefault(); comboPick(combo.active); }
        else if (combo.open) { ev.preventDefault(); comboShow(false); }
      } else if (ev.key === "Escape") {
        if (combo.open) { ev.preventDefault(); comboShow(false); }
        else if (inp.value) { ev.preventDefault(); inp.value = ""; rerender(true); }
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
  function selectTab(name, focus) {
    state.activeTab = name;
    for (const t of ["yaml", "json"]) {
      const tab = $("tab-" + t);
      const on = t === name;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
      $("panel-" + t).hidden = !on;
      if (on && focus) tab.focus();
    }
  }
  function wireTabs() {
    const order = ["yaml", "json"];
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
    $("matches-more").addEventListener("click", () => {
      state.allMatches = !state.allMatches;
      if (state.lastGood) renderMatches(state.lastGood.matches || [], state.lastGood.bounds || {});
    });
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
      node.addEventListener(node.tagName === "SELECT" ? "change" : "input", () => {
        if (f.key === "sizing") syncVisibility();
        rerender(true);
      });
    }
    for (const r of document.querySelectorAll('input[name="source"]')) {
      r.addEventListener("change", () => { syncVisibility(); rerender(true); });
    }
    $("reset").addEventListener("click", () => {
      const model = $("model").value;
      const custom = source() === "custom";
      const params = $("paramsB").value;
      resetFields(false);
      if (custom) { setSource("custom"); $("paramsB").value = params; } else { $("model").value = model; }
      $("link-error").hidden = true;
      rerender(true);
    });
    window.addEventListener("hashchange", () => {
      if (fragment() === state.currentFragment) return;
      loadFromLink().catch(reportBug);
    });
  }

  async function loadFromLink() {
    linkFieldErrors.clear();
    const frag = fragment();
    state.currentFragment = frag;
    renderSeq++; // whatever was in flight is about the old form
    await applyLink(frag);
    await update(false);
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

  async function loadEngine() {
    if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
    if (typeof Go !== "function") throw new Error("the Go runtime script did not load");
    const go = new Go();
    const resp = await fetch("fitclaim.wasm");
    if (!resp.ok) throw new Error("the engine could not be fetched: HTTP " + resp.status);
    let inst;
    const type = resp.headers.get("Content-Type") || "";
    if (WebAssembly.instantiateStreaming && type.startsWith("application/wasm")) {
      inst = await WebAssembly.instantiateStreaming(resp, go.importObject);
    } else {
      inst = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
    }
    let exited = false;
    go.run(inst.instance).then(() => { exited = true; }, () => { exited = true; });
    // The global appears as soon as the Go program's main runs; on a slow or busy
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

  async function main() {
    syncVisibility();
    wireCombo();
    wireTabs();
    wireActions();
    wireForm();
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
    await loadFromLink();
    document.documentElement.dataset.state = "ready";
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
  if (document.readyState === "complete") registerSW();
  else window.addEventListener("load", registerSW);
})();
