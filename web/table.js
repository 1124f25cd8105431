// fitclaim page: the accelerator table. Rows are kept by accelerator and only their changed
// text is rewritten, so a re-render does not rebuild the table (that rebuild was the slow tail
// of the page's renders). Every column sorts (click its header; again to reverse), a vendor
// filter and a "selectable" filter narrow it; all figures and words come from the engine.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, setText, num, shown, afterPaint } = P.util;

  const SHOWN = 12; // rows before "Show all"
  const CAPTION = "Every accelerator of the catalog against this claim; the column headers sort";
  const VENDORS = { nvidia: "NVIDIA", amd: "AMD", intel: "Intel", google: "Google", apple: "Apple", aws: "AWS" };
  const vendorName = (v) => (v ? VENDORS[String(v).toLowerCase()] || String(v) : "");

  const t = {
    rows: new Map(), // accelerator id -> {tr, cells}
    list: [],        // the engine's matches, best first
    bounds: {},
    sortKey: "",     // "" = the engine's order
    sortDir: 1,
    all: false,
    onPick: null,    // called with a match when its row is chosen (the memory chart follows it)
    picked: "",
    unwritten: new Set(), // rows whose text is still to be written (hidden ones, after the frame)
    written: null,        // resolved once they are
  };

  function row(m) {
    let r = t.rows.get(m.id);
    if (r) return r;
    // Roles spelled out: the narrow screen's cards (style.css) display the table as blocks and
    // grids, and WebKit then drops the table's implicit roles (Chromium and Firefox keep them).
    const tr = el("tr");
    tr.setAttribute("role", "row");
    const th = el("th");
    th.setAttribute("role", "rowheader");
    th.scope = "row";
    const name = el("button", "acc linkish");
    name.type = "button";
    name.title = "Show this device in the memory picture";
    name.addEventListener("click", () => pick(m.id));
    const vendor = el("span", "vendor");
    th.append(name, vendor);
    const vtd = el("td", "vcell");
    vtd.setAttribute("role", "cell");
    const verdict = el("span", "verdict");
    const why = el("span", "why");
    vtd.append(verdict, why);
    tr.append(th, vtd);
    const cells = {};
    for (const [key, label] of [["estTps", "Est. tok/s"], ["headroom", "Headroom"], ["devices", "Devices needed"],
      ["memory", "Memory, GiB"], ["bandwidth", "Bandwidth, GB/s"]]) {
      const td = el("td", "num");
      td.setAttribute("role", "cell");
      td.setAttribute("data-label", label); // the cell's caption on narrow screens
      tr.appendChild(td);
      cells[key] = td;
    }
    // Memory: the figure, and under it (a card: after it) what a split needs of each device.
    const each = el("span", "each");
    cells.memory.append(document.createTextNode(""), each);
    r = { tr, name, vendor, verdict, why, cells, each, m, said: {} };
    t.rows.set(m.id, r);
    return r;
  }

  // put writes a cell's text when it differs from what this table last wrote there (kept in the
  // row, r.said): a re-render reads no text back from the page (a DOM read per cell, ~1,100 an
  // edit, was most of the table's time) and rewrites only the cells that changed, in the cell's
  // own text node when it has one (no node removed and made anew).
  function put(r, key, node, text) {
    if (r.said[key] === text) return;
    r.said[key] = text;
    const c = node.firstChild;
    if (c && c.nodeType === Node.TEXT_NODE && !c.nextSibling && text) c.data = text;
    else node.textContent = text;
  }

  function fill(r, m, count) {
    r.m = m;
    put(r, "name", r.name, String(m.name || m.id));
    put(r, "vendor", r.vendor, [vendorName(m.vendor), m.productName && m.productName !== m.name ? "driver name “" + m.productName + "”" : ""]
      .filter(Boolean).join(" · "));
    const multi = !m.fits && m.devicesNeeded > count;
    const cls = "verdict " + (m.fits && m.selected !== false ? "ok" : m.fits ? "unsel" : multi ? "multi" : "no");
    if (r.said.verdictClass !== cls) r.verdict.className = r.said.verdictClass = cls;
    // A verdict breaks only before its "and" (style.css: each part on one line).
    const v = String(m.verdict || (m.fits ? "fits" : "does not fit"));
    if (r.said.verdict !== v) {
      r.said.verdict = v;
      r.verdict.replaceChildren(...v.split(/ (?=and )/).flatMap((part, i) => (i ? [" ", el("span", null, part)] : [el("span", null, part)])));
    }
    put(r, "why", r.why, String(m.why || ""));
    // the green edge only where the verdict is green
    const trCls = (m.fits && m.selected !== false ? "fits" : "") + (m.selectable === false ? " unselectable" : "") + (m.id === t.picked ? " picked" : "");
    if (r.said.trClass !== trCls) r.tr.className = r.said.trClass = trCls;
    const pressed = m.id === t.picked ? "true" : "false"; // the device the memory picture shows
    if (r.said.pressed !== pressed) { r.said.pressed = pressed; r.name.setAttribute("aria-pressed", pressed); }
    const h = m.headroomPct;
    // the speeds and the headroom come rounded as every surface prints them (fit.RoundSpeed): shown as they come
    const tps = multi && typeof m.neededTps === "number" ? shown(m.neededTps) + " on " + m.devicesNeeded : shown(m.estTps);
    put(r, "estTps", r.cells.estTps, tps);
    put(r, "headroom", r.cells.headroom, typeof h === "number" && isFinite(h) ? (h > 0 ? "+" : h < 0 ? "−" : "") + shown(Math.abs(h)) + "%" : "—");
    put(r, "devices", r.cells.devices, m.devicesNeeded > 0 ? String(m.devicesNeeded) : "none of 1–8"); // 0: no count up to 8 meets both floors; with llama.cpp's layer split, more devices never decode faster
    // tenths rounded down, as the row's why and the cluster check write a device's memory: rounded,
    // an RTX 4090's 23.99 GiB read "24.0" beside "too little memory" and "needs 24 Gi, has 23.9"
    // the floor at that count as every surface writes it (fit.MemoryFloorText): whole Gi as Gi, else to the MiB
    const mi = m.neededMemoryMi;
    const floor = typeof mi === "number" && mi % 1024 !== 0 ? num(mi) + " Mi" : num(m.neededMemoryGi);
    put(r, "memory", r.each.previousSibling, num(Math.floor(m.memoryGiB * 10) / 10, 1));
    put(r, "each", r.each, multi && typeof m.neededMemoryGi === "number" ? " (needs " + floor + " each)" : "");
    put(r, "bandwidth", r.cells.bandwidth, num(m.bandwidthGBs));
  }

  function sorted() {
    const vendor = $("filter-vendor").value;
    const onlySel = $("filter-selectable").checked;
    let list = t.list.filter((m) => (!vendor || m.vendor === vendor) && (!onlySel || m.selectable !== false));
    if (t.sortKey) {
      const k = t.sortKey;
      // devicesNeeded 0 is "none of 1–8": after 8 when the fewest come first, not before 1
      const val = (m) => (k === "name" ? String(m.name || m.id).toLowerCase() : k === "verdict" ? String(m.verdict) :
        k === "devicesNeeded" && !(m[k] > 0) ? Infinity : m[k]);
      list = list.slice().sort((a, b) => {
        const x = val(a), y = val(b);
        return (x < y ? -1 : x > y ? 1 : 0) * t.sortDir;
      });
    }
    return list;
  }

  // render shows the engine's matches; called on every render with the new list. Resolves once
  // every row is written (draw).
  function render(list, bounds, note) {
    t.list = list;
    t.bounds = bounds || {};
    t.note = note || "";
    if (!list.some((m) => m.id === t.picked)) t.picked = "";
    fillVendors(list);
    return draw();
  }

  // draw puts the rows in order and writes the ones in view at once; the hidden ones (past the
  // first SHOWN, ~117 of 129 rows, most of the table's time) are written after the frame, so an
  // edit's claim is drawn first. It returns a Promise resolved once every row is written.
  function draw() {
    const body = $("matches");
    const count = t.bounds.count > 1 ? t.bounds.count : 1;
    const list = sorted();
    const keep = new Set();
    list.forEach((m, i) => {
      const r = row(m);
      const hide = i >= SHOWN && !t.all;
      r.m = m;
      r.count = count;
      if (hide) t.unwritten.add(r);
      else { t.unwritten.delete(r); fill(r, m, count); }
      if (r.tr.hidden !== hide) r.tr.hidden = hide;
      keep.add(r.tr);
      if (body.children[i] !== r.tr) body.insertBefore(r.tr, body.children[i] || null);
    });
    for (const r of t.unwritten) if (!keep.has(r.tr)) t.unwritten.delete(r);
    for (const tr of Array.from(body.children)) if (!keep.has(tr)) tr.remove();
    const more = $("matches-more");
    more.hidden = list.length <= SHOWN;
    setText(more, t.all ? "Show the first " + SHOWN + " only" : "Show all " + list.length + " accelerators");
    more.setAttribute("aria-expanded", t.all ? "true" : "false");
    setText($("matches-note"), t.note);
    if (!t.unwritten.size) return Promise.resolve();
    if (!t.written) {
      t.written = new Promise((resolve) => afterPaint(() => {
        for (const r of t.unwritten) fill(r, r.m, r.count);
        t.unwritten.clear();
        t.written = null;
        resolve();
      }));
    }
    return t.written;
  }

  function fillVendors(list) {
    const sel = $("filter-vendor");
    const have = Array.from(sel.options).map((o) => o.value).slice(1).join();
    const vendors = [...new Set(list.map((m) => m.vendor).filter(Boolean))].sort();
    if (have === vendors.join()) return;
    const cur = sel.value;
    while (sel.options.length > 1) sel.remove(1);
    for (const v of vendors) sel.appendChild(new Option(vendorName(v), v));
    sel.value = vendors.includes(cur) ? cur : "";
  }

  function sortBy(key) {
    if (t.sortKey === key) t.sortDir = -t.sortDir;
    else { t.sortKey = key; t.sortDir = key === "name" || key === "devicesNeeded" ? 1 : -1; }
    // aria-sort on the sorted column only (ARIA: one header at a time); the caption says it too.
    let by = "";
    for (const th of document.querySelectorAll("th[data-sort]")) {
      if (th.dataset.sort !== t.sortKey) { th.removeAttribute("aria-sort"); continue; }
      th.setAttribute("aria-sort", t.sortDir > 0 ? "ascending" : "descending");
      by = th.textContent.trim();
    }
    setText($("matches-caption"), CAPTION + "; sorted by " + by + ", " + (t.sortDir > 0 ? "ascending" : "descending"));
    draw();
  }

  function pick(id) {
    t.picked = id;
    draw();
    const m = t.list.find((x) => x.id === id);
    if (m && t.onPick) t.onPick(m);
  }

  function wire() {
    for (const th of document.querySelectorAll("th[data-sort]")) {
      th.querySelector("button").addEventListener("click", () => sortBy(th.dataset.sort));
    }
    $("filter-vendor").addEventListener("change", draw);
    $("filter-selectable").addEventListener("change", draw);
    $("matches-more").addEventListener("click", () => { t.all = !t.all; draw(); });
  }

  P.table = { wire, render, sortBy, picked: () => t.picked, set onPick(f) { t.onPick = f; } };
})();
