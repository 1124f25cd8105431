// fitclaim page: the output's controls: the YAML / JSON / Deployment tabs (ARIA tabs that
// follow the arrow keys), copy buttons and the download.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $ } = P.util;

  const TABS = ["yaml", "json", "deploy"]; // deploy: the Deployment tab (deploy.js fills it)
  function selectTab(name, focus) {
    P.state.activeTab = name;
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
        const i = order.indexOf(P.state.activeTab);
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

  // Saves text as the file name through the browser's download.
  function download(name, text) {
    const url = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function wireActions() {
    for (const btn of document.querySelectorAll("[data-copy]")) {
      const label = btn.textContent;
      btn.addEventListener("click", async () => {
        const what = btn.getAttribute("data-copy");
        const ok = await copyText(P.state.texts[what] || "");
        btn.textContent = ok ? "Copied" : "Copy failed";
        $("copied").textContent = ok ? "Copied to the clipboard." : "Could not copy; select the text and copy it by hand.";
        setTimeout(() => { btn.textContent = label; }, 1500);
      });
    }
    $("download-yaml").addEventListener("click", () => download(P.state.claimName + ".yaml", P.state.texts.yaml));
  }

  // copyText and download serve the Deployment tab's buttons too (deploy.js).
  P.actions = { wire() { wireTabs(); wireActions(); }, copyText, download };
})();
