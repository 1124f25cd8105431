// fitclaim page: two pictures of the result, inline SVG drawn from the engine's figures (no
// chart library, no arithmetic beyond scaling to pixels): the memory one device holds under the
// claim (weights, KV cache, reserve, free) against the chosen device, and the estimated speed of
// the best accelerators as bars beside the target. Each has a title and a text equivalent; the
// colours are the theme's (style.css).
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, clear, num } = P.util;
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
  // speaks a description).
  function figure(id, title, desc, height, draw) {
    const fig = el("figure", "chart");
    fig.id = id;
    // The title names the picture; the description states its numbers in words (a screen reader
    // reads the name, then the description: the same figures the bars draw).
    const s = svg("svg", { viewBox: "0 0 " + W + " " + height, role: "img", "aria-labelledby": id + "-t", "aria-describedby": id + "-d" });
    s.append(svg("title", { id: id + "-t" }, title), svg("desc", { id: id + "-d" }, desc));
    draw(s);
    fig.append(s, el("figcaption", null, title + ": " + desc));
    return fig;
  }

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
    const title = "Memory on one " + dev.name + " (" + num(dev.memoryGiB, 1) + " GiB)";
    return figure("chart-memory", title, words.join(", "), 70, (s) => {
      let x = 10;
      for (const p of parts) {
        const w = p.gi * scale;
        s.appendChild(svg("rect", { x, y: 10, width: Math.max(w, 1), height: 24, class: p.key }));
        x += w;
      }
      if (dev.freeGi > 0) s.appendChild(svg("rect", { x, y: 10, width: dev.freeGi * scale, height: 24, class: "free" }));
      const cap = 10 + dev.memoryGiB * scale;
      s.appendChild(svg("line", { x1: cap, x2: cap, y1: 4, y2: 40, class: dev.freeGi < 0 ? "floor" : "axis" }));
      const legend = parts.map((p) => [p.key, p.label]).concat([dev.freeGi >= 0 ? ["free", "free"] : ["over", "short"]]);
      let lx = 10;
      for (const [key, label] of legend) {
        s.appendChild(svg("rect", { x: lx, y: 50, width: 10, height: 10, class: key }));
        s.appendChild(svg("text", { x: lx + 14, y: 59 }, label));
        lx += 14 + 6 * label.length + 12;
      }
    });
  }

  function speedChart(res) {
    const list = (res.matches || []).slice(0, BARS);
    const b = res.bounds || {};
    if (!list.length) return null;
    const tps = (m) => (typeof m.neededTps === "number" && !m.fits ? m.neededTps : m.estTps);
    const top = Math.max(b.minTps || 0, ...list.map(tps));
    const left = 150, right = W - 50, row = 18;
    const scale = (right - left) / top;
    const desc = list.map((m) => m.name + " " + num(tps(m), 1) + " tok/s" + (tps(m) !== m.estTps ? " on " + m.devicesNeeded : "")).join("; ") +
      "; the target is " + num(b.minTps) + " tok/s";
    const height = list.length * row + 24;
    return figure("chart-speed", "Estimated speed per accelerator, tokens/s per sequence", desc, height, (s) => {
      list.forEach((m, i) => {
        const y = 4 + i * row;
        const name = m.name.length > 21 ? m.name.slice(0, 20) + "…" : m.name;
        s.appendChild(svg("text", { x: left - 6, y: y + 12, "text-anchor": "end" }, name));
        s.appendChild(svg("rect", { x: left, y: y + 2, width: Math.max(tps(m) * scale, 1), height: row - 6, class: "bar" + (m.fits && m.selected ? "" : " no") }));
        s.appendChild(svg("text", { x: left + tps(m) * scale + 4, y: y + 12 }, num(tps(m), 0)));
      });
      const x = left + (b.minTps || 0) * scale;
      s.appendChild(svg("line", { x1: x, x2: x, y1: 0, y2: list.length * row + 6, class: "floor" }));
      s.appendChild(svg("text", { x, y: list.length * row + 20, "text-anchor": "middle" }, "target " + num(b.minTps)));
    });
  }

  function draw() {
    const box = $("charts");
    clear(box);
    if (!last) return;
    for (const fig of [memoryChart(last), speedChart(last)]) if (fig) box.appendChild(fig);
  }

  function render(res) {
    last = res;
    draw();
  }

  P.table.onPick = draw; // a device picked in the table: the memory picture follows
  P.charts = { render };
})();
