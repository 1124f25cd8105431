// fitclaim page: two pictures of the result, inline SVG drawn from the engine's figures (no
// chart library, no arithmetic beyond scaling to pixels): the memory one device holds under the
// claim (weights, KV cache, reserve, free) against the chosen device, and the estimated speed of
// the best accelerators as bars beside the target. Each has a title and a text equivalent; the
// colours are the theme's (style.css).
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, num, shown } = P.util;
  const NS = "http://www.w3.org/2000/svg";
  const W = 400; // viewBox width; the SVG scales to its column
  const BARS = 10;

  function svg(tag, attrs, text) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    return n;
  }

  // figure: <figure> with an <svg role="img"> named by its <title> and described by <desc>, and
  // the same text equivalent visible as the caption (left readable too: not every screen reader
  // speaks a description). draw adds the picture's shapes (shape()). Drawn once per id and then
  // updated: when the shapes are the same elements in the same order as the last drawing's (an
  // edit that moves the bars), only the attributes and texts that changed are written; else the
  // figure is drawn anew.
  const drawings = new Map(); // id -> {fig, s, title, desc, cap, shapes: [{tag, node, attrs, text}]}

  function figure(id, title, desc, height, draw) {
    const want = [];
    draw({ appendChild: (x) => want.push(x) });
    let d = drawings.get(id);
    if (!d || d.shapes.length !== want.length || d.shapes.some((x, i) => x.tag !== want[i].tag)) {
      const fig = el("figure", "chart");
      fig.id = id;
      // The title names the picture; the description states its numbers in words (a screen reader
      // reads the name, then the description: the same figures the bars draw).
      const s = svg("svg", { role: "img", "aria-labelledby": id + "-t", "aria-describedby": id + "-d" });
      const t = svg("title", { id: id + "-t" }), dn = svg("desc", { id: id + "-d" });
      s.append(t, dn);
      const shapes = want.map((x) => ({ tag: x.tag, node: s.appendChild(svg(x.tag)), attrs: {}, text: undefined }));
      const cap = el("figcaption");
      fig.append(s, cap);
      d = { fig, s, title: t, desc: dn, cap, shapes, said: {} };
      drawings.set(id, d);
    }
    const put = (key, node, text) => { if (d.said[key] !== text) { d.said[key] = text; node.textContent = text; } };
    const box = "0 0 " + W + " " + height;
    if (d.said.box !== box) { d.said.box = box; d.s.setAttribute("viewBox", box); }
    put("title", d.title, title);
    put("desc", d.desc, desc);
    put("cap", d.cap, title + ": " + desc);
    want.forEach((x, i) => {
      const have = d.shapes[i];
      for (const k of Object.keys(have.attrs)) if (!(k in x.attrs)) { have.node.removeAttribute(k); delete have.attrs[k]; }
      for (const [k, v] of Object.entries(x.attrs)) {
        const sv = String(v);
        if (have.attrs[k] !== sv) { have.attrs[k] = sv; have.node.setAttribute(k, sv); }
      }
      if (have.text !== x.text && x.text !== undefined) { have.text = x.text; have.node.textContent = x.text; }
    });
    return d.fig;
  }

  // shape: one element of a picture, as figure draws it.
  const shape = (tag, attrs, text) => ({ tag, attrs: attrs || {}, text });

  let last = null;

  // The device the memory picture shows: the one picked in the table, else the smallest the
  // claim selects (the tightest fit), else the best of all.
  function chosen(res) {
    const list = res.matches || [];
    const id = P.table.picked();
    if (id) return list.find((m) => m.id === id);
    const ok = list.filter((m) => m.fits && m.selected);
    return ok.length ? ok.reduce((a, m) => (m.memoryGiB < a.memoryGiB ? m : a)) : list[0];
  }

  function memoryChart(res) {
    const dev = chosen(res);
    const mem = res.memory;
    if (!dev || !mem) return null;
    const parts = mem.parts.filter((p) => p.gi > 0);
    const used = dev.memoryGiB - dev.freeGi;
    const scale = (W - 20) / Math.max(dev.memoryGiB, used);
    const words = parts.map((p) => p.label + " " + num(p.gi, 1) + " GiB");
    words.push(dev.freeGi >= 0 ? "free " + num(dev.freeGi, 1) + " GiB" : "short by " + num(-dev.freeGi, 1) + " GiB");
    const title = "Memory on one " + dev.name + " (" + num(Math.floor(dev.memoryGiB * 10) / 10, 1) + " GiB)"; // tenths down, as the table
    return figure("chart-memory", title, words.join(", "), 70, (s) => {
      let x = 10;
      for (const p of parts) {
        const w = p.gi * scale;
        s.appendChild(shape("rect", { x, y: 10, width: Math.max(w, 1), height: 24, class: p.key }));
        x += w;
      }
      if (dev.freeGi > 0) s.appendChild(shape("rect", { x, y: 10, width: dev.freeGi * scale, height: 24, class: "free" }));
      const cap = 10 + dev.memoryGiB * scale;
      // what does not fit, under the bar past the device's end: the legend's "short"
      if (dev.freeGi < 0) s.appendChild(shape("rect", { x: cap, y: 36, width: -dev.freeGi * scale, height: 6, class: "over" }));
      s.appendChild(shape("line", { x1: cap, x2: cap, y1: 4, y2: 40, class: dev.freeGi < 0 ? "floor" : "axis" }));
      const legend = parts.map((p) => [p.key, p.label]).concat([dev.freeGi >= 0 ? ["free", "free"] : ["over", "short"]]);
      let lx = 10;
      for (const [key, label] of legend) {
        s.appendChild(shape("rect", { x: lx, y: 50, width: 10, height: 10, class: key }));
        s.appendChild(shape("text", { x: lx + 14, y: 59 }, label));
        lx += 14 + 6 * label.length + 12;
      }
    });
  }

  // lines: a device's name in lines of at most max user units of the pictures' 11 px text
  // (measured as style.css draws it), broken between words: the names were cut at 21 characters.
  let ctx = null;
  function lines(name, max) {
    if (!ctx) {
      ctx = document.createElement("canvas").getContext("2d");
      if (ctx) ctx.font = "11px " + getComputedStyle($("charts")).fontFamily;
    }
    const width = (t) => (ctx ? ctx.measureText(t).width : 6.5 * t.length);
    const out = [];
    for (const word of name.split(" ")) {
      const l = out.length && out[out.length - 1] + " " + word;
      if (l && width(l) <= max) out[out.length - 1] = l;
      else out.push(word);
    }
    return out.map((t) => [t, width(t)]);
  }

  function speedChart(res) {
    const list = (res.matches || []).slice(0, BARS);
    const b = res.bounds || {};
    if (!list.length) return null;
    const more = (m) => typeof m.neededTps === "number" && !m.fits; // its speed on the devices it needs
    const tps = (m) => (more(m) ? m.neededTps : m.estTps);
    const top = Math.max(b.minTps || 0, ...list.map(tps));
    const left = 150, right = W - 50, row = 18, line = 12;
    const scale = (right - left) / top;
    const names = list.map((m) => lines(m.name, left - 8));
    const tall = names.reduce((h, n) => h + row + (n.length - 1) * line, 0); // the bars' rows
    // the speeds come rounded as every surface prints them (fit.RoundSpeed): the bars' figures and the words alike
    const desc = list.map((m) => m.name + " " + shown(tps(m)) + " tok/s" + (more(m) ? " on " + m.devicesNeeded : "")).join("; ") +
      "; the target is " + num(b.minTps) + " tok/s";
    const height = tall + 42;
    return figure("chart-speed", "Estimated speed per accelerator, tokens/s per sequence", desc, height, (s) => {
      let y = 4;
      list.forEach((m, i) => {
        const n = names[i], h = row + (n.length - 1) * line, mid = y + h / 2; // the name whole, a line a row
        n.forEach(([t, w], k) => {
          const a = { x: left - 6, y: mid + 3 + (k - (n.length - 1) / 2) * line, "text-anchor": "end", class: "name" };
          if (w > left - 8) Object.assign(a, { textLength: left - 8, lengthAdjust: "spacingAndGlyphs" }); // one word too long
          s.appendChild(shape("text", a, t));
        });
        s.appendChild(shape("rect", { x: left, y: mid - 7, width: Math.max(tps(m) * scale, 1), height: row - 6, class: "bar" + (m.fits && m.selected ? "" : " no") }));
        s.appendChild(shape("text", { x: left + tps(m) * scale + 4, y: mid + 3 }, shown(tps(m))));
        y += h;
      });
      const x = left + (b.minTps || 0) * scale;
      s.appendChild(shape("line", { x1: x, x2: x, y1: 0, y2: tall + 6, class: "floor" }));
      s.appendChild(shape("text", { x, y: tall + 20, "text-anchor": "middle" }, "target " + num(b.minTps)));
      // what the bars' two colours mean
      [["bar", "this claim can take it", 10], ["bar no", "it cannot", 160]].forEach(([cls, label, lx]) => {
        s.appendChild(shape("rect", { x: lx, y: tall + 28, width: 10, height: 10, class: cls }));
        s.appendChild(shape("text", { x: lx + 14, y: tall + 37 }, label));
      });
    });
  }

  function draw() {
    const box = $("charts");
    const figs = last ? [memoryChart(last), speedChart(last)].filter(Boolean) : [];
    figs.forEach((fig, i) => { if (box.children[i] !== fig) box.insertBefore(fig, box.children[i] || null); });
    while (box.children.length > figs.length) box.lastElementChild.remove();
  }

  function render(res) {
    last = res;
    draw();
  }

  P.table.onPick = draw; // a device picked in the table: the memory picture follows
  P.charts = { render };
})();
