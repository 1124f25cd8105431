// fitclaim page: the "Check against my cluster" panel. The user pastes, drops or opens the
// output of `kubectl get resourceslices -o yaml` (or -o json), and optionally of
// `kubectl get resourceclaims -A -o yaml` (devices those claims hold are busy) and of
// `kubectl get nodes -o yaml` (the claim is placed per real node) and the workload (a
// Deployment: the claim is placed only where its pod can be scheduled); the second Go engine
// (later.js: fitclaim-later.wasm, with sigs.k8s.io/yaml and package cluster), fetched on the
// panel's first use so the first load does not pay for it, reads it and judges every device against the claim
// on show (its JSON, as the Claim panel's JSON tab holds it). Slices, claims, nodes and the workload never leave the browser.
// Every word of a verdict comes from Go; this file only moves text.
"use strict";

(() => {
  const P = window.fitclaimPage || (window.fitclaimPage = {});
  const { $, el, clear, setText, errMessage } = P.util;

  let lastClaim = "";
  let lastText = "";
  let lastClaims = "";
  let lastNodes = "";
  let lastPod = "";
  let timer = 0;

  async function loadEngine() {
    await P.later();
    return window.fitclaimCluster;
  }

  // An optional box's text: "" means not given.
  function optionalText(id) {
    const node = $(id);
    return node && node.value.trim() ? node.value : "";
  }

  // The cluster's claims, if given: "" means none (every device free).
  function claimsText() { return optionalText("claims"); }

  // The cluster's nodes, if given: "" means none (each node selector is a group of its own).
  function nodesText() { return optionalText("nodes"); }

  // The workload, if given: "" means none (the pod's nodeSelector and tolerations not weighed).
  function podText() { return optionalText("pod"); }

  // The claim on show: the JSON tab's text (the main engine's claim JSON).
  function claimJSON() {
    const node = $("json");
    return node ? node.textContent : "";
  }

  function status(msg) { setText($("cluster-status"), msg); }

  // showError: the message under the boxes, and on the box it is about (the engine names it
  // first: "slices: …", "claims: …", "nodes: …", "pod: …") aria-invalid, described by it.
  function showError(msg) {
    const box = $("cluster-error");
    setText(box, msg);
    box.hidden = false;
    $("cluster-result").hidden = true;
    markBox((/^(slices|claims|nodes|pod): /.exec(msg) || [])[1] || "");
  }
  function markBox(id) {
    for (const b of ["slices", "claims", "nodes", "pod"]) {
      const n = $(b), by = (n.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== "cluster-error");
      if (b === id) { n.setAttribute("aria-invalid", "true"); by.push("cluster-error"); } else n.removeAttribute("aria-invalid");
      n.setAttribute("aria-describedby", by.join(" "));
    }
  }

  function showReport(rep) {
    $("cluster-error").hidden = true;
    markBox("");
    const verdict = $("cluster-verdict");
    setText(verdict, rep.placement);
    verdict.className = "cluster-verdict " + (rep.allocatable ? "ok" : "bad");
    const body = $("cluster-devices");
    clear(body);
    for (const d of rep.devices || []) {
      // Roles spelled out: the narrow screen's cards display the table as blocks (table.js says why).
      // data-label: the column's name, which a phone's card shows before the figure (style.css)
      const cell = (text, label, cls) => { const td = el("td", cls || "", text); td.setAttribute("role", "cell"); td.dataset.label = label; return td; };
      const tr = el("tr", d.matches ? "match" : "nomatch");
      tr.setAttribute("role", "row");
      // A node-selector device placed on the nodes given: the nodes it is on.
      tr.appendChild(cell(d.nodes && d.nodes.length ? d.node + ": " + d.nodes.join(", ") : d.node, "Node"));
      tr.appendChild(cell(d.driver, "Driver"));
      tr.appendChild(cell(d.pool, "Pool"));
      const dev = el("th", "", d.device);
      dev.setAttribute("role", "rowheader");
      dev.scope = "row";
      tr.appendChild(dev);
      tr.appendChild(cell(d.matches ? "yes" : "no", "Matches", "verdict-cell"));
      tr.appendChild(cell(d.matches ? d.request + (d.share ? "; " + d.share : "") : (d.reasons || []).join("; "), d.matches ? "Request" : "Why not"));
      body.appendChild(tr);
    }
    const busy = (rep.devices || []).filter((d) => d.allocatedTo).length;
    setText($("cluster-count"), (rep.devices || []).length + " devices, " +
      (rep.devices || []).filter((d) => d.matches).length + " matching" +
      (busy ? ", " + busy + " allocated to other claims" : ""));
    const notes = $("cluster-notes");
    clear(notes);
    for (const n of rep.notes || []) notes.appendChild(el("li", "", n));
    $("cluster-result").hidden = false;
  }

  async function check() {
    const text = $("slices").value;
    const claims = claimsText();
    const nodes = nodesText();
    const pod = podText();
    const claim = claimJSON();
    if (!text.trim()) {
      $("cluster-error").hidden = true;
      markBox("");
      $("cluster-result").hidden = true;
      status("");
      return;
    }
    if (!claim.trim()) {
      showError("No claim on show yet: choose a model first.");
      return;
    }
    if (text === lastText && claim === lastClaim && claims === lastClaims && nodes === lastNodes && pod === lastPod) return;
    lastText = text;
    lastClaim = claim;
    lastClaims = claims;
    lastNodes = nodes;
    lastPod = pod;
    status(window.fitclaimCluster ? "Checking…" : "Loading the cluster engine…");
    try {
      const fc = await loadEngine();
      const out = fc.check(claim, text, claims, nodes, pod);
      if (text !== $("slices").value || claim !== claimJSON() || claims !== claimsText() || nodes !== nodesText() || pod !== podText()) return; // superseded meanwhile
      if (out.error) showError(out.error);
      else showReport(JSON.parse(out.report));
      status("");
    } catch (e) {
      lastText = "";
      showError(errMessage(e));
      status("");
    }
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  }

  function readFile(file, into = "slices") {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => { $(into).value = String(reader.result || ""); check(); };
    reader.onerror = () => showError("Could not read " + file.name + ".");
    reader.readAsText(file);
  }

  // The optional boxes beside the slices.
  const OPTIONAL = ["claims", "nodes", "pod"];

  // The boxes' text is in no address: when the second engine is gone with an old deploy
  // (later.js: P.outdated, "reload the page"), it is kept in this tab's sessionStorage across
  // that reload, put back into the boxes, and dropped from the storage at once.
  const KEPT = "fitclaim-cluster-boxes";
  function keepAcrossReload() {
    if (!P.outdated) return;
    const boxes = {};
    for (const id of ["slices"].concat(OPTIONAL)) if ($(id) && $(id).value) boxes[id] = $(id).value;
    try { sessionStorage.setItem(KEPT, JSON.stringify(boxes)); } catch (_) { /* storage off or full: nothing kept */ }
  }
  function putBack() {
    let boxes = null;
    try {
      boxes = JSON.parse(sessionStorage.getItem(KEPT) || "null");
      sessionStorage.removeItem(KEPT);
    } catch (_) { /* storage off: nothing kept */ }
    for (const [id, text] of Object.entries(boxes || {})) {
      if ($(id) && !$(id).value && typeof text === "string") $(id).value = text;
    }
  }

  // checkOnceReady checks the boxes put back once the page shows its first claim (polled: a
  // bare visit's example claim is in the page already, and its JSON does not change).
  function checkOnceReady(tries) {
    if (document.documentElement.dataset.state === "ready" && claimJSON().trim()) later();
    else if (tries > 0) setTimeout(() => checkOnceReady(tries - 1), 100);
  }

  function wire() {
    const area = $("slices");
    if (!area) return;
    putBack();
    if (area.value.trim()) checkOnceReady(600);
    window.addEventListener("pagehide", keepAcrossReload);
    // Start fetching the engine as soon as the user turns to the panel.
    area.addEventListener("focus", () => { loadEngine().catch(() => {}); }, { once: true });
    area.addEventListener("input", later);
    $("slices-check").addEventListener("click", () => { lastText = ""; check(); });
    $("slices-file").addEventListener("change", (e) => readFile(e.target.files && e.target.files[0]));
    for (const id of OPTIONAL) {
      const box = $(id);
      if (!box) continue;
      box.addEventListener("input", later);
      $(id + "-file").addEventListener("change", (e) => readFile(e.target.files && e.target.files[0], id));
    }
    // The workload box from the Deployment tab's own answer for the claim on show (its engine
    // and image as chosen there), so the check weighs the pod fitclaim writes without a paste.
    const fromDeploy = $("pod-from-deploy");
    if (fromDeploy) fromDeploy.addEventListener("click", async () => {
      try {
        const res = await P.deploy.render();
        $("pod").value = String(res.yaml || "");
        check();
      } catch (e) {
        showError(errMessage(e));
      }
    });
    const zone = $("cluster");
    zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("dragging"); });
    zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("dragging");
      const dt = e.dataTransfer;
      const into = e.target && OPTIONAL.includes(e.target.id) ? e.target.id : "slices"; // dropped on an optional box
      if (dt && dt.files && dt.files.length) readFile(dt.files[0], into);
      else if (dt) { $(into).value = dt.getData("text"); check(); }
    });
    // A new claim on show (the JSON tab changes): check the same slices against it.
    const json = $("json");
    if (json && window.MutationObserver) {
      new MutationObserver(() => { if (area.value.trim()) later(); })
        .observe(json, { childList: true, characterData: true, subtree: true });
    }
  }

  P.cluster = { check, loadEngine };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
