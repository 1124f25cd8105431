// fitclaim page: the form. Its fields, labels, units, ranges, help and choices come from the
// engine's one field table (fitclaim.fields(), written into index.html when the site is built,
// so the form is labelled before the engine loads); this file reads the form into a target,
// fills it from one, and puts the engine's messages by their fields.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $ } = P.util;

  // The form's fields come from the engine's one field table (fitclaim.fields(), written into
  // index.html at build time so the form is labelled before the engine is there): each field
  // the form has an input for, as {key: its JSON name, pk: its link key, kind, label, default}.
  // Which are sent follows the form: a field in a hidden group (custom size, kv) is not.
  function readTable() {
    try { return JSON.parse($("fields").textContent); } catch (_) { return []; /* no table: no form */ }
  }
  function readFields() {
    return readTable().filter((f) => $(f.name)).map((f) => {
      const node = $(f.name);
      const kind = f.kind === "boolean" ? "bool" : f.kind === "number" || f.kind === "integer" ? "number"
        : node.tagName === "SELECT" ? "select" : "text";
      return { key: f.name, pk: f.key, kind, label: f.label, def: f };
    });
  }
  const FIELDS = readFields();
  const BY_KEY = new Map(FIELDS.map((f) => [f.key, f]));

  // A link's fields the form has no input for (the serving engine and vLLM's flags, the kv
  // mode's architecture overrides; a catalog model's L, kvh, hd, whose inputs are hidden) are kept as the link gave them and sent with every render:
  // the claim on screen is then the link's claim, the one the API and the command line write
  // for it (dropped, a link with engine=vllm showed a claim sized for llama.cpp). A new link
  // replaces them; Reset to defaults drops them. The Deployment tab's fields (its image,
  // trust-remote-code and requests) are kept too, so the address holds them (deploy.js carries
  // them once the Deployment took them). Not kept: what a panel reads from the link itself (the device).
  const NOT_CARRIED = new Set();
  let carried = {};
  // The fields whose default is the model's own (the table's "derived": "the model's…": its
  // architecture) describe the link's model: kept only while that catalog model is chosen.
  const MODEL_OWN = new Set(readTable().filter((f) => /^the model's/.test(f.derived || "")).map((f) => f.name));
  let carriedModel = "";
  function carriedFields() { return Object.assign({}, carried); }
  function carry(key, value) { if (value) carried[key] = value; else delete carried[key]; } // deploy.js's engine and fields
  function isPanelField(key) {
    return (P.panels || []).some((panel) => Array.isArray(panel.keys) && panel.keys.includes(key));
  }

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
        node.placeholder = d.default ? String(d.default) : shortDerived(f);
      } else if (f.kind === "text" && f.key !== "model") {
        node.placeholder = d.derived || "";
        if (d.maxLength) node.maxLength = d.maxLength;
      } else if (f.kind === "select") {
        addChoices(f, d.choices);
      }
      const hint = $(f.key + "-hint");
      // Not a select's range: the link's spelling ("1 or 0") of what it words ("yes: …").
      const range = d.range && (f.kind === "number" || f.kind === "text") ? "; " + d.range : "";
      const help = /^llmfit\b/.test(d.help) ? d.help : d.help.charAt(0).toUpperCase() + d.help.slice(1);
      const empty = f.kind === "number" && d.derived && /[;,]/.test(d.derived) ? (d.zeroMeansDerived ? " Empty or 0: " : " Empty: ") + d.derived + "." : "";
      if (hint && f.key !== "model") hint.textContent = help + range + "." + empty;
    }
  }

  // An empty number field's placeholder, short enough for its box (the hint has the whole):
  // "A; kv: B" by the sizing mode, "X, else Y" as Y in the custom group, else up to a comma;
  // past 24 characters, its last two words ("calibrated efficiency").
  function shortDerived(f) {
    const d = f.def.derived || "", kv = d.split("; kv: "), other = d.split(", else ");
    const s = kv[1] ? (sizingKV() ? kv[1] : kv[0]) : other[1] && input(f.key).closest("#custom-fields") ? other[1] : d.split(", ")[0];
    return s.length > 24 ? s.split(" ").slice(-2).join(" ") : s;
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
    for (const f of FIELDS) if (/; kv: /.test(f.def.derived)) input(f.key).placeholder = shortDerived(f);
  }

  function fieldActive(f) { return !input(f.key).closest("[hidden]"); }

  // refusal: the form's own message for a number it cannot send, worded as the engine words
  // its refusals (target/errors.go): the label, the JSON name and link key, the allowed range.
  function refusal(f, raw) {
    const d = f.def;
    const got = raw ? " (got " + JSON.stringify(raw.length > 40 ? raw.slice(0, 40) + "…" : raw) + ")" : "";
    return d.label + " (" + f.key + ", " + f.pk + "): must be " + (d.allowed || "a number") + got;
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
      if (f.kind === "number") {
        if (node.validity && node.validity.badInput) {
          problems.push({ key: f.key, msg: refusal(f, "") });
          continue;
        }
        // The bridge is strict: a number field takes a JS number (the engine checks its range).
        const raw = node.value.trim();
        if (raw === "") continue;
        const n = Number(raw);
        // One rule for a 0, the table's: where a link's, a flag's and the API's 0 means the field
        // left out ("absent or 0: the model's"), a typed 0 is the empty field (and is emptied when
        // the edit is done, settleZero); elsewhere no range holds it (tps, seq, eff) and it is refused.
        if (n === 0 && zeroIsEmpty(f)) continue;
        if (n === 0 && !/from 0\b/.test(f.def.allowed || "")) problems.push({ key: f.key, msg: refusal(f, raw) });
        else if (Number.isFinite(n)) target[f.key] = n;
        else problems.push({ key: f.key, msg: refusal(f, raw) });
        continue;
      }
      const raw = f.kind === "text" ? node.value.trim() : node.value;
      if (raw !== "") target[f.key] = raw;
    }
    for (const [key, value] of Object.entries(carried)) {
      const f = BY_KEY.get(key);
      if (f && fieldActive(f)) continue; // shown: the form's value (or its absence) rules
      if (MODEL_OWN.has(key) && (target.model || "") !== carriedModel) continue; // another model's
      if (!(key in target)) target[key] = value;
    }
    for (const panel of P.panels || []) if (panel.fields) Object.assign(target, panel.fields()); // hardware.js's device
    return { target, problems };
  }

  // Fill the form from a target (from a permalink). Unknown keys are ignored.
  function fillForm(target) {
    resetFields();
    if (!target || typeof target !== "object") return;
    carriedModel = typeof target.model === "string" ? target.model : "";
    const hasParams = typeof target.paramsB === "number" && target.paramsB > 0;
    setSource(hasParams && !target.model ? "custom" : "catalog");
    for (const [key, value] of Object.entries(target)) {
      const f = BY_KEY.get(key);
      if (value === null || value === undefined) continue;
      if (!f) {
        if (!NOT_CARRIED.has(key) && !isPanelField(key)) carried[key] = value;
        continue;
      }
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
    // A catalog model's architecture overrides (L, kvh, hd: kv mode) have their inputs in the
    // hidden custom-size group: kept like the fields the form has no input for.
    if (source() === "catalog") {
      for (const key of ["layers", "kvHeads", "headDim"]) {
        if (BY_KEY.has(key) && typeof target[key] === "number" && target[key] > 0) carried[key] = target[key];
      }
    }
  }

  // settleZero: a finished edit that left a 0 where 0 is the empty field empties the field, so
  // the form shows what is sized (its placeholder: the model's, all of them) and what a link of
  // it reopens, and says so beside it until the field holds something else.
  const zeroed = new Set();
  // A custom size's 0 (derived "none": no model at all) stays refused by its field, as the link
  // p=0 without a model is refused: the custom size must be given.
  function zeroIsEmpty(f) { return f.def.zeroMeansDerived === true && f.def.derived !== "none"; }
  function settleZero(key) {
    const f = BY_KEY.get(key), node = input(key);
    if (!f || f.kind !== "number" || !zeroIsEmpty(f) || node.value.trim() === "" || Number(node.value) !== 0) return;
    node.value = "";
    zeroed.add(key);
    if (node.getAttribute("aria-invalid") !== "true") showZeroNote(f); // the engine's word on the empty field comes first
  }
  function showZeroNote(f) {
    const err = $(f.key + "-err");
    if (!err) return;
    err.textContent = "0 is the empty field here, as " + f.pk + "=0 is in a link: " + f.def.derived + ".";
    err.classList.add("note");
    err.hidden = false;
  }

  function resetFields(keepModel) {
    carried = {};
    zeroed.clear();
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
      if (node.hasAttribute("aria-invalid")) node.removeAttribute("aria-invalid");
      if (zeroed.has(f.key) && node.value === "") { showZeroNote(f); continue; }
      zeroed.delete(f.key);
      const err = $(f.key + "-err");
      if (err && (!err.hidden || err.firstChild)) { err.hidden = true; err.textContent = ""; err.classList.remove("note"); }
    }
  }

  function showFieldError(key, msg) {
    const node = input(key);
    const err = $(key + "-err");
    if (!node || !err) return;
    node.setAttribute("aria-invalid", "true");
    err.classList.remove("note");
    err.textContent = msg;
    err.hidden = false;
  }

  P.form = { FIELDS, BY_KEY, input, source, setSource, syncVisibility, readTarget, fillForm, resetFields, carriedFields, carry,
    labelForm, fieldOf, clearFieldErrors, showFieldError, settleZero, table: readTable };
})();
