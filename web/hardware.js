// fitclaim page: the hardware mode, "I have this hardware". Pick a device of the catalog or give
// one by its numbers; the panel shows whether the workload fits on the workload's count of them,
// how fast one sequence decodes, the longest context and the most sequences that fit, and which
// popular catalog models fit. Every figure and word comes from the engine: fitclaim.hardware (the
// function behind `fitclaim estimate` and /api/v1/estimate.json) is the second engine's
// (later.js, fetched when a device is first given); the device list, fitclaim.devices, the
// first one's. The device is part of the target, so it is in the permalink: this panel hands
// app.js its fields (fields()) and app.js hands it every render (render()).
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, clear, setText, errMessage, num, shown, linkPairs } = P.util;

  const h = { on: "", memory: "", bandwidth: "", family: "", unified: false, listed: false, seq: 0 };

  // The device's pairs of a link, read at once so the first render already carries them.
  function fromLink() {
    const got = { on: "", memory: "", bandwidth: "", family: "", unified: false };
    for (const [k, v] of linkPairs()) {
      if (k === "unified") got.unified = v === "1" || v === "true";
      else if (k in got) got[k] = v;
    }
    Object.assign(h, got);
  }

  // fromTarget: the device of a link as the engine repaired it (app.js applyLink): fromLink
  // reads the raw pairs at once, so the first render carries them, but a pair the repair dropped
  // (memory=abc, bandwidth=-1, a device given twice) would be sent with every render and the
  // engine would refuse the whole link for it.
  function fromTarget(t) {
    const str = (v) => (v === undefined || v === null ? "" : String(v));
    Object.assign(h, { on: str(t.on), memory: str(t.memoryGiB), bandwidth: str(t.bandwidthGBs), family: str(t.family), unified: t.unified === true });
    $("hw-on").value = ""; // "custom" again only if the link gives the device by its numbers
    syncForm();
  }

  // The target's device fields, as the one table names them.
  function fields() {
    if (h.on) return { on: h.on };
    const f = {};
    // The bridge is strict: numbers cross as numbers (a typed non-number goes as typed, and the
    // engine names the field).
    const number = (s) => (Number.isFinite(Number(s)) ? Number(s) : s);
    if (h.memory !== "") f.memoryGiB = number(h.memory);
    if (h.bandwidth !== "") f.bandwidthGBs = number(h.bandwidth);
    if (h.family !== "") f.family = h.family;
    if (h.unified) f.unified = true;
    return f;
  }

  function custom() { return !h.on && (h.memory !== "" || h.bandwidth !== "" || h.family !== "" || h.unified || $("hw-on").value === "custom"); }

  function syncForm() {
    const sel = $("hw-on");
    if (h.on && !Array.from(sel.options).some((o) => o.value === h.on)) sel.appendChild(new Option(h.on, h.on));
    sel.value = h.on || (custom() ? "custom" : "");
    for (const n of document.querySelectorAll(".hw-custom")) n.hidden = sel.value !== "custom";
    $("hw-memory").value = h.memory;
    $("hw-bandwidth").value = h.bandwidth;
    const fam = $("hw-family");
    if (h.family && !Array.from(fam.options).some((o) => o.value === h.family)) fam.appendChild(new Option(h.family, h.family));
    fam.value = h.family;
    $("hw-unified").checked = h.unified;
    showFigures();
  }

  // showFigures: the chosen catalog device in words under the select (its description), wrapped.
  function showFigures() {
    const d = h.devices && h.devices.get($("hw-on").value);
    const p = $("hw-on-figures");
    setText(p, d ? d.name + ": " + num(d.memoryGiB) + " GiB, " + num(d.bandwidthGBs) + " GB/s per device" : "");
    p.hidden = !d;
  }

  function readForm() {
    const on = $("hw-on").value;
    h.on = on === "custom" ? "" : on;
    const byNumbers = on === "custom";
    h.memory = byNumbers ? $("hw-memory").value.trim() : "";
    h.bandwidth = byNumbers ? $("hw-bandwidth").value.trim() : "";
    h.family = byNumbers ? $("hw-family").value : "";
    h.unified = byNumbers && $("hw-unified").checked;
    for (const n of document.querySelectorAll(".hw-custom")) n.hidden = !byNumbers;
    showFigures();
  }

  async function listDevices() {
    if (h.listed) return;
    h.listed = true;
    let d;
    try { d = await window.fitclaim.devices(); } catch (_) { h.listed = false; return; }
    const sel = $("hw-on");
    const custom = sel.querySelector('option[value="custom"]');
    h.devices = new Map();
    for (const dev of d.devices || []) {
      // The name alone: with its figures ("NVIDIA H200 SXM (140.4 GiB, 4,800 GB/s)") the closed
      // select cut it at 390 px; the chosen device's figures are the line under it (showFigures).
      // A name over 32 characters shows the catalog's short label (shortName); the option keeps
      // the whole name in its title (its accessible description, and a pointer's tooltip: not an
      // aria-label, whose name would not contain the text shown, WCAG 2.5.3), and the line under
      // the select says it whole.
      h.devices.set(dev.id, dev);
      const had = Array.from(sel.options).find((o) => o.value === dev.id); // a link's device, listed early
      if (had) sel.removeChild(had);
      const o = new Option(dev.shortName || dev.name, dev.id);
      if (dev.shortName) o.title = dev.name;
      sel.insertBefore(o, custom);
    }
    const fam = $("hw-family");
    for (const f of d.families || []) {
      if (!Array.from(fam.options).some((o) => o.value === f)) fam.appendChild(new Option(f, f));
    }
    syncForm();
  }

  function showFitting(list) {
    const ol = $("hw-fitting");
    clear(ol);
    for (const m of list || []) {
      const li = el("li");
      const b = el("button", "btn link", m.name);
      b.type = "button";
      b.addEventListener("click", () => {
        $("source-catalog").click();
        $("model").value = m.name;
        P.rerender("commit");
        $("model").focus(); // this list is rebuilt by the render: the focus goes where the change is
      });
      li.appendChild(b);
      li.appendChild(document.createTextNode(" — " + m.quant + ", " + shown(m.tokensPerSecond) + " tok/s, needs " +
        num(m.needGiB, 2) + " GiB, up to " + num(m.maxContextTokens) + " tokens of context"));
      ol.appendChild(li);
    }
    $("hw-fitting-h").hidden = !(list && list.length);
  }

  async function render(res) {
    const seq = ++h.seq;
    await listDevices();
    const err = $("hw-error");
    const f = fields();
    if (Object.keys(f).length === 0) {
      err.hidden = true;
      setText($("hw-text"), "Pick a device to see whether this workload fits it and how fast it runs.");
      showFitting([]);
      return;
    }
    let out;
    try {
      await P.later(); // the second engine holds the estimate (later.js)
      if (seq !== h.seq) return;
      out = await window.fitclaim.hardware(typeof res.permalink === "string" ? res.permalink : "");
    } catch (e) {
      if (seq !== h.seq) return;
      setText(err, errMessage(e));
      err.hidden = false;
      if (h.announce) setText($("hw-status"), errMessage(e));
      h.announce = false;
      setText($("hw-text"), "");
      showFitting([]);
      return;
    }
    if (seq !== h.seq) return;
    err.hidden = true;
    setText($("hw-text"), out.text || "");
    showFitting(out.fitting);
    // After a change of this panel's own device, its first line (the verdict) is said politely;
    // the whole text is not a live region, so an edit of the workload is not read out twice.
    if (h.announce) setText($("hw-status"), String(out.text || "").split("\n")[0]);
    h.announce = false;
  }

  // problem: the engine refused the target for this panel's field (msg), or for another ("").
  function problem(msg) {
    const err = $("hw-error");
    setText(err, msg);
    err.hidden = !msg;
    if (!msg) return;
    h.seq++; // an estimate on its way is of the last good target
    setText($("hw-text"), "");
    showFitting([]);
  }

  function wire() {
    for (const id of ["hw-on", "hw-family", "hw-unified"]) {
      $(id).addEventListener("change", () => { readForm(); h.announce = true; P.rerender("commit"); });
    }
    for (const id of ["hw-memory", "hw-bandwidth"]) {
      $(id).addEventListener("input", () => { readForm(); h.announce = true; P.rerender("typing"); });
    }
    // A link followed later (back, forward, an edited address) brings its own device: app.js
    // hands it over as the engine repaired it (fromTarget), before the link's render.
  }

  // The device list once the page is ready (its first claim on screen) and idle: a hundred
  // options nobody needs before then. A link's device does not wait: render lists them first.
  function whenReady() {
    const list = () => (window.requestIdleCallback ? requestIdleCallback(() => listDevices(), { timeout: 1000 }) : setTimeout(listDevices, 200));
    const ready = () => document.documentElement.dataset.state === "ready";
    if (ready()) { list(); return; }
    const mo = new MutationObserver(() => { if (ready()) { mo.disconnect(); list(); } });
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ["data-state"] });
  }

  fromLink();
  whenReady();
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => { syncForm(); wire(); });
  } else {
    syncForm();
    wire();
  }
  // keys: the target fields this panel owns (form.js does not keep them from a link for itself).
  (P.panels || (P.panels = [])).push({ keys: ["on", "memoryGiB", "bandwidthGBs", "family", "unified"], fields, fromTarget, render, problem });
})();
