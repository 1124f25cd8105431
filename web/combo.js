// fitclaim page: the model field, a combobox over the engine's catalog search. Typing only
// searches; the claim follows a pick, Enter (the list's own answer) or leaving the field, so no
// error shows for a half-typed name; Escape closes the list and keeps the model.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, clear, num } = P.util;

  async function safeModels(q, limit) {
    try {
      if (P.whole) await P.whole(); // a search reads the whole catalog, not a link's shard (app.js)
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
    if (typeof m.paramsB === "number") {
      // Below 0.1 B (embedding models), millions: one decimal of billions would say "0.0 B".
      parts.push(m.paramsB < 0.1 ? num(m.paramsB * 1000, 0) + " M params" : num(m.paramsB, m.paramsB < 10 ? 1 : 0) + " B params");
    }
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
    announce(combo.items.length ? combo.items.length + (combo.items.length === 1 ? " model" : " models") +
      " in the list; arrow keys to move, Enter to pick." : "No catalog model matches.");
  }

  // announce: the list's size, said politely once typing pauses (a screen reader hears no list
  // open otherwise; every key would queue a sentence without the pause).
  let announceTimer = 0;
  function announce(text) {
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => { $("model-status").textContent = text; }, 400);
  }

  function comboShow(open) {
    combo.open = open;
    $("model-list").hidden = !open;
    const inp = $("model");
    inp.setAttribute("aria-expanded", open ? "true" : "false");
    if (!open) {
      inp.removeAttribute("aria-activedescendant");
      combo.active = -1;
      clearTimeout(announceTimer);
      $("model-status").textContent = "";
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
    P.rerender("commit");
  }

  // Enter without a highlighted option: the list's own answer (an exact name, else its first
  // match), so what the list offers and what Enter picks are one search.
  function comboCommit() {
    const typed = $("model").value.trim().toLowerCase();
    const exact = combo.items.findIndex((m) => m.name.toLowerCase() === typed);
    if (exact >= 0 || combo.items.length) comboPick(exact >= 0 ? exact : 0);
    else { comboShow(false); P.rerender("commit"); }
  }

  // Typing only searches; the claim follows a pick, Enter or leaving the field, so no error
  // shows for a name half typed.
  function wireCombo() {
    const inp = $("model");
    inp.addEventListener("input", () => comboRender(inp.value.trim()));
    inp.addEventListener("change", () => { if (inp.value.trim() !== P.state.renderedModel) P.rerender("commit"); });
    inp.addEventListener("keydown", async (ev) => {
      if (ev.key === "ArrowDown") {
        ev.preventDefault();
        if (!combo.open) { await comboRender(inp.value.trim()); if (!ev.altKey) comboMove(0); return; }
        comboMove(combo.active + 1);
      } else if (ev.key === "ArrowUp") {
        ev.preventDefault();
        if (combo.open && ev.altKey) { comboShow(false); return; } // the pattern's Alt+Up: close, keep the text
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

  P.combo = { wire: wireCombo };
})();
