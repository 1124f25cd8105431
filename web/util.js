// fitclaim page: small DOM and text helpers shared by the page's scripts (app.js, table.js,
// charts.js and the panels other files add). Every script hangs its part on window.fitclaimPage.
"use strict";

(() => {
  const P = window.fitclaimPage || (window.fitclaimPage = {});

  const $ = (id) => document.getElementById(id);

  function el(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  // setText writes only when the text changed: a re-render that changes nothing touches nothing.
  function setText(node, text) {
    const s = String(text);
    if (node.textContent !== s) node.textContent = s;
  }

  function errMessage(e) {
    if (e && typeof e.message === "string" && e.message) return e.message;
    try { return String(e); } catch (_) { return "unknown error"; }
  }

  // num formats a figure with thousands separators, without toLocaleString: its first call
  // loads the locale data (~50 ms), which a page that must show a claim at once cannot spend.
  function num(v, digits) {
    if (typeof v !== "number" || !isFinite(v)) return "—";
    return grouped(digits === undefined ? String(Number.isInteger(v) ? v : Math.round(v * 100) / 100) : v.toFixed(digits));
  }

  // shown formats a figure the engine has already rounded as it is printed everywhere (an
  // estimated speed or headroom: fit.RoundSpeed, fit.RoundHeadroom), with thousands separators
  // and no rounding of the page's own: "74", "7.4", "29.96".
  function shown(v) {
    if (typeof v !== "number" || !isFinite(v)) return "—";
    return grouped(String(v));
  }

  function grouped(s) {
    if (s.includes("e")) return s;
    const neg = s[0] === "-";
    if (neg) s = s.slice(1);
    const dot = s.indexOf(".");
    let int = dot < 0 ? s : s.slice(0, dot);
    const frac = dot < 0 ? "" : s.slice(dot);
    for (let i = int.length - 3; i > 0; i -= 3) int = int.slice(0, i) + "," + int.slice(i);
    return (neg ? "−" : "") + int + frac;
  }

  function plural(n, one, many) { return n === 1 ? one : many; }

  // linkPairs is the address's fragment as key → value, decoded as a query is (a pair that does
  // not decode is left out; the last of a repeated key wins): for the panels that read their own
  // keys from a link (hardware.js: the device; deploy.js: the engine and the image).
  function linkPairs() {
    const out = new Map();
    for (const pair of location.hash.replace(/^#/, "").split("&")) {
      const at = pair.indexOf("=");
      const key = at < 0 ? pair : pair.slice(0, at);
      try { out.set(key, decodeURIComponent((at < 0 ? "" : pair.slice(at + 1)).replace(/\+/g, " "))); } catch (_) { /* left out */ }
    }
    return out;
  }

  // afterPaint runs fn once the page has been drawn (the frame after this one), or after 200 ms
  // when no frame comes (a hidden tab draws none).
  function afterPaint(fn) {
    let done = false;
    const run = () => { if (!done) { done = true; fn(); } };
    requestAnimationFrame(() => setTimeout(run, 0));
    setTimeout(run, 200);
  }

  P.util = { $, el, clear, setText, errMessage, num, shown, plural, linkPairs, afterPaint };
})();
