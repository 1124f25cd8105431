// fitclaim page: the form, the permalink, the result. All sizing happens in the
// Go engine behind the global `fitclaim` (wasm); this file only moves values
// between the form and the engine and writes the answer with textContent.
// Every bridge function returns a Promise (rejected with an Error whose message,
// .field and .key name the field); every call here is awaited and caught.
"use strict";

(() => {
  const P = window.fitclaimPage;
  const { $, el, clear, setText, errMessage, num, afterPaint } = P.util;

  const mark = (window.fitclaimBoot && window.fitclaimBoot.mark) || (() => {});

  const state = {
    ready: false,
    lastGood: null,       // last successful render result
    typing: false,        // an edit in progress already has its own history entry
    activeTab: "yaml",
    texts: { yaml: "", json: "", heredoc: "", apply: "", api: "" },
    claimName: "claim",
    shownSeq: 0,          // showResult calls; a late part of an older one is dropped
    explained: null,      // the explanation's and the warnings' words on the page (showResult)
    warned: null,
  };
  // state.example: {fragment, target, result}, the claim a bare visit shows (index.html), read on
  // first use: a link's load never needs its 80 KB parsed.
  let example;
  Object.defineProperty(state, "example", { get() { if (example === undefined) example = readExample(); return example; } });

  const { FIELDS, BY_KEY, input, source, setSource, syncVisibility, readTarget, fillForm, resetFields,
    labelForm, fieldOf, clearFieldErrors, showFieldError } = P.form;
  const fieldActive = (key) => !input(key).closest("[hidden]"); // a field the form shows now

  // The input of a panel (data-target-field: hardware.js's device) an engine error names.
  function panelInput(e) {
    if (!e || typeof e.field !== "string" || BY_KEY.has(e.field)) return null;
    const node = document.querySelector('[data-target-field="' + CSS.escape(e.field) + '"]');
    return node && !node.closest("[hidden]") ? node : null;
  }

  // A panel's own field is wrong: the message goes beside it too; else a panel's earlier one goes.
  function panelProblem(e, msg) {
    for (const panel of P.panels || []) if (panel.problem) panel.problem(e && panel.keys.includes(e.field) ? msg : "");
  }

  function clearErrors() {
    clearFieldErrors();
    for (const node of document.querySelectorAll("[data-target-field][aria-invalid]")) {
      node.removeAttribute("aria-invalid");
      node.removeAttribute("aria-describedby");
    }
  }

  // ---------- rendering ----------
  let renderSeq = 0;

  // A bug of this page (not a bad input): say so in the page rather than in the console.
  function reportBug(e) {
    const box = $("result-error");
    box.textContent = "Something went wrong in this page: " + errMessage(e);
    box.hidden = false;
    announce(box.textContent);
  }

  // rerender after an edit: "typing" (each key of a text or number field) or "commit" (a
  // choice, a picked model, a button). An edit gets one history entry, so Back undoes it.
  function rerender(edit) {
    update(edit).catch(reportBug);
  }
  P.rerender = rerender; // for the panels and parts other files add
  P.state = state;

  // Re-render from the form. Calls overlap when the user types fast; only the newest one writes
  // to the page. Resolves with the engine's error, if any (link repair reads it).
  async function update(edit) {
    if (!state.ready) return null;
    const seq = ++renderSeq;
    const { target, problems } = readTarget();
    state.renderedModel = target.model || "";

    // A value the form refuses is left out of the target: the address keeps the last link
    // rather than one that silently drops it (shared, it would give another claim).
    if (edit && !problems.length) updateAddress(target, seq, edit);

    if (problems.length) {
      clearErrors();
      panelProblem(null, "");
      for (const p of problems) showFieldError(p.key, p.msg);
      showError(problems.map((p) => p.msg).join("; "), problems.map((p) => p.key));
      announce("Not updated: " + problems.map((p) => p.msg).join("; "), edit);
      return null;
    }
    if (!("model" in target) && !("paramsB" in target)) {
      clearErrors();
      showPrompt();
      return null;
    }
    let res, adopted = false;
    try {
      res = !edit && await adoptEarly(target);
      adopted = !!res;
      if (!res) {
        // Any other render may need entries a link's shard of the catalog does not hold.
        await whole();
        if (seq !== renderSeq) return null;
        res = await renderTable(target);
      }
    } catch (e) {
      if (seq !== renderSeq) return null;
      clearErrors();
      const key = fieldOf(e);
      const msg = errMessage(e);
      if (key) showFieldError(key, msg);
      panelProblem(e, msg);
      showError(msg, key ? [key] : [], panelInput(e));
      announce("Not updated: " + msg, edit);
      if (key === "model" && target.model) offerModels(target.model, seq);
      return e;
    }
    if (seq !== renderSeq) return null;
    if (!edit) mark("rendered");
    clearErrors();
    // A link's claim is shown before its rest, a frame apart (showResult's later). The claim
    // boot.js showed has had that frame once <html data-first> is gone (boot.js removes it in the
    // frame after): its rest is drawn at once.
    if (!adopted) letRoomGo();
    showResult(res, target, !edit && !(adopted && !("first" in document.documentElement.dataset)));
    if (edit || state.loaded) announce($("summary").textContent, edit);
    return null;
  }

  // announce: the polite live region (#announce) says a new claim, or why the form is not
  // updated, once the edit is done: at once for a choice, a button or Back, a second after the
  // last key when typing (each key renders; the summary, which was the live region, was read out
  // for every one). Not for the link's first claim: a screen reader reads the page then.
  // With the Deployment tab shown, its verdict ("vLLM starts: …", deploy.js) is said after the
  // claim's words, when either changes: that line was a live region of its own, read out on every
  // key too (deployWatch, installed once the first claim is on screen).
  let announceTimer = 0, claimWords = "";
  function announce(text, edit) {
    clearTimeout(announceTimer);
    claimWords = text;
    const say = () => {
      const d = $("deploy-summary");
      setText($("announce"), claimWords + (d.textContent && d.checkVisibility() ? " " + d.textContent : ""));
    };
    if (edit === "typing") announceTimer = setTimeout(say, 1000);
    else say();
  }
  function deployWatch() {
    new MutationObserver(() => { if (claimWords) announce(claimWords, state.typing ? "typing" : "commit"); })
      .observe($("deploy-summary"), { childList: true, characterData: true, subtree: true });
  }

  // renderTable is the page's render: the accelerator table comes as columns (a sixth of the
  // 129 match objects' JSON, to write in Go and parse here on every keystroke), joined here with
  // each accelerator's own facts, fetched once, into the match objects the table, the charts and
  // the panels read (res.matches, as fitclaim.render(target) spells them).
  async function renderTable(target) {
    const accs = await accelerators();
    const res = renderColumns(target);
    res.matches = joinMatches(res.table, accs);
    return res;
  }

  // renderText is fitclaim.render(target, options) without the Promise. Throws render's Error.
  // Through the engine's exports (render.js): no JavaScript value crosses to the Go side. Else
  // (an engine without them) fitclaim.renderInto writes the answer's JSON into one array kept from
  // render to render and it is parsed here, so the Go side never holds the answer. (What Go gets
  // hold of lives until its collector runs, every several hundred renders: the answers piled up in
  // V8's heap and its collections, which copy them, were the slow renders; wasm/bridge/js.go.)
  let bytes = new Uint8Array(1 << 17);
  const utf8 = new TextDecoder();
  let direct; // render.js's render for the engine boot.js started, once asked; null: none
  function directRender() {
    if (direct === undefined) {
      const boot = window.fitclaimBoot;
      direct = typeof fitclaimRenderer === "function" && boot ? fitclaimRenderer(boot.exports) : null;
    }
    return direct;
  }
  function renderText(target, options) {
    if (directRender()) return direct(target, options);
    const fc = window.fitclaim;
    let n = fc.renderInto(target, options, bytes);
    if (typeof n === "number" && n < 0) {
      bytes = new Uint8Array(2 * -n);
      n = fc.renderInto(target, options, bytes);
    }
    if (typeof n !== "number") throw n;
    return JSON.parse(utf8.decode(bytes.subarray(0, n)));
  }
  // permalinkOf is fitclaim.permalink(target), the same Promise and answer, through the engine's
  // exports too (render.js) when it has them: each edit asks for one, and through fitclaim.permalink
  // each left values the Go side held until its collector ran.
  function permalinkOf(target) {
    const d = directRender();
    if (d && d.permalink) return new Promise((resolve) => resolve(d.permalink(target)));
    return window.fitclaim.permalink(target);
  }
  // One options object for every call: a fresh one each time would be one more value the Go side
  // holds until its collector runs.
  const COLUMNS = Object.freeze({ columns: true });
  const renderColumns = (target) => renderText(target, COLUMNS);

  let accs = null;
  function accelerators() {
    if (!accs) accs = window.fitclaim.accelerators().catch((e) => { accs = null; throw e; });
    return accs;
  }

  // joinMatches: row i of the table's columns, on the accelerator it names (bits of flags:
  // fitsMemory 1, fitsBandwidth 2, selected 4, selectable 8; verdict indexes verdicts;
  // neededTps 0 = the row needs no more devices than asked).
  function joinMatches(t, accs) {
    const out = new Array(t.accelerator.length);
    for (let i = 0; i < out.length; i++) {
      const a = accs[t.accelerator[i]], f = t.flags[i];
      const m = {
        id: a.id, name: a.name, vendor: a.vendor, driver: a.driver, productName: a.productName,
        memoryGiB: a.memoryGiB, memoryExact: a.memoryExact, bandwidthGBs: a.bandwidthGBs,
        fitsMemory: (f & 1) !== 0, fitsBandwidth: (f & 2) !== 0, fits: (f & 3) === 3, selected: (f & 4) !== 0,
        estTps: t.estTps[i], headroomPct: t.headroomPct[i], devicesNeeded: t.devicesNeeded[i],
        verdict: t.verdicts[t.verdict[i]], selectable: (f & 8) !== 0, freeGi: t.freeGi[i], why: t.why[i],
      };
      if (t.neededTps[i] !== 0) { m.neededTps = t.neededTps[i]; m.neededMemoryGi = t.neededMemoryGi[i]; m.neededMemoryMi = t.neededMemoryMi[i]; }
      out[i] = m;
    }
    return out;
  }
  // adoptEarly: the claim boot.js already rendered for this link (the same render of the same
  // target), taken once, so a permalink load renders once; null if the hash or target differ.
  async function adoptEarly(target) {
    const boot = window.fitclaimBoot;
    const pending = boot && boot.early;
    if (!pending) return null;
    boot.early = null;
    const early = await pending;
    if (!early || early.hash !== state.currentFragment || canonical(early.target) !== canonical(target)) return null;
    // boot.js showed the claim's YAML and JSON; the rest of the same render's answer now.
    const result = early.rest();
    if (!result) return null;
    result.matches = joinMatches(result.table, await accelerators());
    mark("early-adopted");
    return result;
  }

  // whole resolves once the engine holds the whole model catalog (boot.js gives it, after a
  // permalink's first claim, which the link's shard of it may answer): everything but the
  // adoption of that claim waits for it (the type-ahead, a followed link, an edit, a name's
  // offers, the warm-up), as a shard answers only its own names exactly. Rejects with why not.
  // After a first claim made from the link's shard, boot.js gives the engine the whole table
  // only once asked (wantCatalog): app.js asks once the claim's rest is drawn, or when anything
  // else needs it first.
  let wholeIn = false;
  function whole() {
    const boot = window.fitclaimBoot;
    if (wholeIn || !boot || !boot.catalog) return Promise.resolve();
    if (boot.wantCatalog) boot.wantCatalog();
    return boot.catalog.then(() => { wholeIn = true; },
      (e) => { throw new Error("the model catalog could not load (" + errMessage(e) + ")"); });
  }
  P.whole = whole;

  // canonical: a target as JSON with its keys sorted, so two reads of one link compare equal.
  function canonical(t) {
    return JSON.stringify(Object.keys(t).sort().map((k) => [k, t[k]]));
  }
  P.renderTable = renderTable; // the page's render call, as tools/cmd/pagebench times it

  async function updateAddress(target, seq, edit) {
    let frag;
    try {
      frag = await permalinkOf(target);
    } catch (_) {
      return; // the form holds something a link cannot spell; keep the last address
    }
    if (seq !== renderSeq || typeof frag !== "string") return;
    if (frag === state.currentFragment) {
      if (edit === "commit") state.typing = false;
      return;
    }
    const url = location.pathname + location.search + (frag ? "#" + frag : "");
    try {
      if (edit === "commit" || !state.typing) history.pushState(null, "", url);
      else history.replaceState(null, "", url);
    } catch (_) { /* sandboxed */ }
    state.currentFragment = frag;
    state.typing = edit === "typing";
  }

  // letRoomGo: the summary's room kept for a link's first claim (style.css) goes with any other answer.
  function letRoomGo() { delete $("summary").dataset.room; }

  function showPrompt() {
    delete document.documentElement.dataset.drawing; // nothing more is coming for this result
    letRoomGo();
    const summary = $("summary");
    clear(summary);
    delete summary.dataset.said;
    summary.appendChild(el("p", null, "Pick a model from the catalog, or choose “Custom size” and enter a parameter count."));
    $("result-error").hidden = true;
    if (!state.lastGood) $("output").hidden = true;
    else markStale(true);
  }

  // showError: the message above the result, with a button to each field it names (the field
  // holds the same message, tied to it by aria-describedby, and aria-invalid).
  function showError(msg, keys, other) {
    delete document.documentElement.dataset.drawing; // nothing more is coming for this result
    const box = $("result-error");
    box.textContent = msg;
    if (other) {
      // A panel's field (the hardware device's): it has no message of its own, so this one is
      // its description while it is wrong.
      other.setAttribute("aria-invalid", "true");
      other.setAttribute("aria-describedby", "result-error");
      const btn = el("button", "btn link", "Go to the field");
      btn.type = "button";
      btn.addEventListener("click", () => other.focus());
      box.append(" ", btn);
    }
    for (const key of keys || []) {
      const f = BY_KEY.get(key);
      if (!f || !fieldActive(key)) continue;
      const btn = el("button", "btn link", "Go to " + f.label);
      btn.type = "button";
      btn.addEventListener("click", () => input(key).focus());
      box.append(" ", btn);
    }
    box.hidden = false;
    letRoomGo();
    const summary = $("summary");
    clear(summary);
    delete summary.dataset.said;
    if (state.lastGood) {
      summary.appendChild(el("p", null, "Not updated: the form has an error (below, and by its field). The claim shown is the last valid one."));
      markStale(true);
    } else {
      summary.appendChild(el("p", null, "No claim yet: the form has an error (below, and by its field)."));
      $("output").hidden = true;
    }
  }

  // offerModels: a model name the engine cannot take (it matches several, or none) gets the
  // type-ahead's first ten for it as buttons under the message, each picking that model. For an
  // ambiguous name they are the ten the message lists (catalog.Lookup lists the type-ahead's
  // order): issue 12, "an ambiguous link offers the top ten".
  async function offerModels(q, seq) {
    let list;
    try {
      await whole();
      list = await window.fitclaim.models(q, 10);
    } catch (_) {
      return;
    }
    if (seq !== renderSeq || !Array.isArray(list) || !list.length) return;
    const offer = el("p", "model-offer");
    offer.id = "model-offer";
    offer.append(list.length === 1 ? "The catalog's closest model: " : "The catalog's first " + list.length + ": ");
    list.forEach((m, i) => {
      const btn = el("button", "btn link", m.name);
      btn.type = "button";
      btn.addEventListener("click", () => {
        $("model").value = m.name;
        rerender("commit");
      });
      offer.append(i ? ", " : "", btn);
    });
    $("result-error").append(offer);
  }

  function markStale(stale) {
    $("stale").hidden = !stale;
    $("output").classList.toggle("is-stale", stale);
  }

  // The example is on show until the first claim of the user's own replaces it.
  function setExample(on) {
    $("output").toggleAttribute("data-example", on);
    $("example-note").hidden = !on;
  }

  function showResult(res, target, later) {
    state.lastGood = res;
    const b = res.bounds || {};
    $("result-error").hidden = true;
    markStale(false);
    setExample(!!example && res === example.result);
    $("output").hidden = false;

    const yaml = String(res.yaml || "");
    const json = String(res.json || "");
    const claimName = b.claimName || "claim";
    state.claimName = claimName;
    setText($("yaml"), yaml);
    setText($("json"), json);
    setText($("download-name"), claimName + ".yaml");

    const frag = typeof res.permalink === "string" ? res.permalink : "";
    const api = location.origin + "/api/v1/claim.yaml?" + frag;
    const heredoc = "kubectl apply -f - <<'EOF'\n" + yaml + (yaml.endsWith("\n") ? "" : "\n") + "EOF\n";
    const apply = "kubectl apply -f '" + api.replace(/'/g, "'\\''") + "'";
    state.texts = { yaml, json, heredoc, apply, api };
    setText($("apply"), apply);
    const link = $("api-link");
    link.href = api;
    setText(link, api);

    // The summary (the live region), the verdict and the explanation: the engine's words.
    const x = res.explain || {};
    const summary = $("summary");
    // The summary is the polite live region: rewritten only when its words change, so an edit
    // that changes nothing it says is not read out again.
    const said = [x.summary, x.verdict, x.split && x.split.text, x.split && x.split.count, res.driverNote, res.driverSwitch].join("\n");
    if (summary.dataset.said !== said) writeSummary(summary, said, x, res);
    // The explanation and the warnings: rebuilt only when their words change.
    const lines = (x.lines || []).map((l) => [String(l.label || ""), String(l.text)]);
    const explained = JSON.stringify(lines);
    if (state.explained !== explained) {
      state.explained = explained;
      const dl = el("dl");
      for (const [label, text] of lines) {
        dl.appendChild(el("dt", null, label));
        dl.appendChild(el("dd", null, text));
      }
      const box = $("explain");
      clear(box);
      box.appendChild(dl);
    }

    renderWarnings(res.warnings || []);
    // The table (up to 129 rows), the pictures and the panels below the claim: at once after an
    // edit, but after the first paint when a link is opened, so the link's claim is on screen
    // first (issue 10 §2). A newer claim shown meanwhile cancels the late part.
    // <html data-drawing> says the claim is on screen but the rest is not yet (cleared here, set
    // by boot.js too), so a test or tool can wait for the whole result, not just the YAML.
    const seq = ++state.shownSeq;
    document.documentElement.dataset.drawing = "";
    let settle;
    state.rest = new Promise((resolve) => { settle = resolve; }); // settles once drawn, or superseded
    const rest = () => {
      if (seq !== state.shownSeq) return settle();
      // The table's rows out of view (past the first dozen, hidden) are written after the frame
      // (table.js draw); <html data-drawing> stays until they are.
      let written;
      try {
        written = P.table.render(res.matches || [], b, x.matches);
        if (P.charts) P.charts.render(res);
        for (const panel of P.panels || []) panel.render && panel.render(res, target);
      } catch (e) {
        settle();
        throw e;
      }
      written.then(() => {
        settle();
        if (seq !== state.shownSeq) return;
        delete document.documentElement.dataset.drawing;
        if (!state.drawn) { state.drawn = true; mark("drawn"); } // the first claim's rest, once
      });
    };
    if (later) afterPaint(rest);
    else rest();
  }

  function writeSummary(summary, said, x, res) {
    clear(summary);
    summary.dataset.said = said;
    summary.appendChild(el("p", null, x.summary));
    summary.appendChild(el("p", "verdict-line", x.verdict));
    if (x.split) {
      summary.appendChild(choice(x.split.text, "Split over " + x.split.count + " devices", "use-split", () => { $("count").value = String(x.split.count); }, "count"));
    }
    if (res.driverNote) {
      summary.appendChild(choice(res.driverNote, "Use the " + res.driverSwitch + " driver", "use-driver", () => { $("driver").value = res.driverSwitch; }, "driver"));
    }
  }

  // choice: the engine's sentence and a button that makes the change it proposes.
  function choice(text, label, id, apply, focusId) {
    const p = el("p", "hint", text + " ");
    const btn = el("button", "btn link", label);
    btn.type = "button";
    btn.id = id;
    btn.addEventListener("click", () => { apply(); rerender("commit"); $(focusId).focus(); });
    p.appendChild(btn);
    return p;
  }

  function renderWarnings(list) {
    const said = JSON.stringify(list.map(String));
    if (state.warned === said) return;
    state.warned = said;
    const ul = $("warnings");
    clear(ul);
    for (const w of list) ul.appendChild(el("li", null, w));
    $("warnings-box").hidden = list.length === 0;
  }

  // ---------- permalink on load ----------
  function fragment() {
    const h = location.hash;
    return h.startsWith("#") ? h.slice(1) : h;
  }

  // Read a link into the form: the engine keeps its good pairs and says, in one message, what it
  // dropped and why; each dropped pair's message also sits by its field until the next edit.
  async function applyLink(frag) {
    const r = await window.fitclaim.repairLink(frag);
    fillFrom(r.target, r.dropped);
    const box = $("link-error");
    box.textContent = r.message;
    box.hidden = !r.message;
    for (const d of r.dropped) {
      if (BY_KEY.has(d.field) && !linkFieldErrors.has(d.field)) linkFieldErrors.set(d.field, d.message);
    }
  }

  const linkFieldErrors = new Map();

  // fillFrom: the form and the panels' own fields (hardware.js's device, deploy.js's tab) from a
  // target, a link's as the engine repaired it: a pair the engine dropped is not read back into
  // every render (which would refuse the whole link), and a link without a device clears the last
  // one. dropped: the pairs the repair dropped (a panel says its own by its field).
  function fillFrom(t, dropped) {
    fillForm(t);
    for (const panel of P.panels || []) if (panel.fromTarget) panel.fromTarget(t, dropped || []);
  }

  // ---------- form wiring ----------
  function wireForm() {
    const form = $("form");
    form.addEventListener("submit", (ev) => ev.preventDefault());
    for (const f of FIELDS) {
      if (f.key === "model") continue; // the combobox has its own handler
      const node = input(f.key);
      if (node.tagName === "SELECT") {
        node.addEventListener("change", () => {
          if (f.key === "sizing") syncVisibility();
          rerender("commit");
        });
      } else {
        node.addEventListener("input", () => rerender("typing"));
        node.addEventListener("change", () => { state.typing = false; P.form.settleZero(f.key); }); // the edit is done
      }
    }
    for (const r of document.querySelectorAll('input[name="source"]')) {
      r.addEventListener("change", () => { syncVisibility(); rerender("commit"); });
    }
    $("reset").addEventListener("click", () => {
      const model = $("model").value;
      const custom = source() === "custom";
      const params = $("paramsB").value;
      resetFields(false);
      if (custom) { setSource("custom"); $("paramsB").value = params; } else { $("model").value = model; }
      $("link-error").hidden = true;
      rerender("commit");
    });
    // A new link in the address bar, or Back and Forward through the edits.
    const follow = () => {
      const frag = fragment();
      if (frag === state.currentFragment) return;
      if (!frag.includes("=") && document.getElementById(frag)) return; // an in-page link (#result)
      loadFromLink().catch(reportBug);
    };
    window.addEventListener("hashchange", follow);
    window.addEventListener("popstate", follow);
  }

  async function loadFromLink() {
    linkFieldErrors.clear();
    const frag = fragment();
    state.currentFragment = frag;
    renderSeq++; // whatever was in flight is about the old form
    state.typing = false;
    $("link-error").hidden = true;
    if (!frag && state.example) {
      // A bare address: the example, as index.html already shows it; nothing to render.
      fillFrom(state.example.target);
      clearErrors();
      showResult(state.example.result, state.example.target);
      return;
    }
    if (frag) await applyLink(frag);
    else fillFrom({});
    mark("link-read");
    await update(null); // one render
    mark("shown");
    // Messages about the link's dropped parts sit by their fields until the next edit.
    for (const [key, msg] of linkFieldErrors) {
      if (input(key).getAttribute("aria-invalid") !== "true") showFieldError(key, msg);
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

  // loadEngine waits for the engine boot.js has been fetching, compiling and starting since the
  // head of the page.
  async function loadEngine() {
    const boot = window.fitclaimBoot;
    const { exited, error } = await boot.engine;
    if (error) throw error;
    // The engine is built without the model catalog: boot.js gives it the whole table (after a
    // permalink's first claim, which a shard of it may answer). A first claim boot.js showed is
    // adopted without it (its rest, the accelerators, the table, the pictures and the panels need
    // no other entry of the catalog: wasm/bridge TestFirstClaimFromShard); everything else waits
    // for it (whole).
    const early = boot.early ? await boot.early : null;
    if (!early) await whole();
    // Go's main installs the global before go.run returns to this script; on a slow or busy
    // machine that can take a while, so wait as long as the program is alive.
    const t0 = Date.now();
    let told = false;
    while (!(window.fitclaim && typeof window.fitclaim.render === "function")) {
      if (exited()) throw new Error("the engine stopped while starting");
      if (!told && Date.now() - t0 > 8000) {
        told = true;
        $("boot").textContent = "Still starting the sizing engine… (this machine seems busy)";
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  // The example claim of index.html (rendered by the engine when the site was built).
  function readExample() {
    const node = $("example");
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (_) { return null; }
  }

  async function main() {
    syncVisibility();
    P.combo.wire();
    P.actions.wire();
    wireForm();
    labelForm();
    P.table.wire();
    const bare = !fragment();
    if (bare && state.example) {
      // Shown at once, without the engine: the page's first claim is the example.
      fillForm(state.example.target);
      showResult(state.example.result, state.example.target);
      state.currentFragment = "";
    } else {
      setExample(false);
    }
    try {
      await loadEngine();
    } catch (e) {
      bootFail("The sizing engine could not start: " + errMessage(e) + ". Reload the page to try again.");
      document.documentElement.dataset.state = "error";
      return;
    }
    mark("engine-ready");
    state.ready = true;
    const fc = window.fitclaim;
    // In this page fitclaim.render answers through renderText too (the same Promise, answer and
    // Errors), so no caller's answers pile up behind the Go side either.
    if (typeof fc.renderInto === "function") fc.render = (target, options) => new Promise((resolve) => resolve(renderText(target, options)));
    const cat = fc.catalog || {};
    if (typeof cat.models === "number") $("catalog-size").textContent = "the catalog of " + num(cat.models) + " models";
    $("version").textContent = "fitclaim " + (fc.version || "") + (cat.date ? ", catalog of " + cat.date : "");
    $("boot").hidden = true;
    if (!(bare && state.example) || fragment()) await loadFromLink();
    // The page is ready once the engine holds the whole catalog (tests and tools read
    // <html data-state> as "every part of the page answers"), asked for once the link's claim
    // is drawn whole (its table's rows out of view included), or at once in a tab out of sight,
    // which draws no frame (afterPaint waits for a throttled timer there), and after 1 s at most.
    try {
      if (document.visibilityState === "visible") await Promise.race([state.rest, new Promise((r) => setTimeout(r, 1000))]);
      await whole();
    } catch (e) {
      bootFail("The sizing engine could not start: " + errMessage(e) + ". Reload the page to try again.");
      document.documentElement.dataset.state = "error";
      return;
    }
    state.loaded = true; // a link followed from now on (Back, Forward) has its claim said
    deployWatch();
    document.documentElement.dataset.state = "ready";
    whenIdle(registerSW);
    warmUp();
  }

  // ---------- warm-up ----------
  // V8 runs a fresh page's wasm lazily: each function is compiled (baseline tier) at its first
  // call, so an edit that took a path no render took before paid for compiling it on the page's
  // thread (1–36 ms of CPU, up to ~80 ms for a whole new path; issue 10 §3), and Go's first
  // collection compiled the collector (~50 ms, in the page's ~180th render). So once the claim is
  // on screen, the page has one target per path an edit can take (warmTargets) rendered, each
  // with its permalink (each edit asks for one), and Go's collector run once. At once, side by
  // side: a worker (firstclaim.js, given the module boot.js started: the compiled code is shared,
  // so the page's instance gets it without its thread doing the work) starts its own Go instance,
  // collects once (the collector's code) and renders every target but the bases; the page's
  // thread renders the bases (the paths most edits take) in slices of the idle time the browser
  // offers (an edit meanwhile waits for at most one warm-up render). The worker used to start only
  // once the bases were done here: a user's first edits (the page bench's first timed renders)
  // came before it had rendered anything. Without a worker or module, every target here. No longer
  // random renders until a budget ran out (300 renders, 1.4 s of rendering): a path is compiled at
  // its first call, so once is enough. Either way the page's own collector then runs once.
  // <html data-warm> (and the mark fitclaim:warm) says it is done; P.warm counts the renders so
  // far, their time, the targets, those refused and where (tools/cmd/pagebench prints them).
  const WARM_MS = 5000; // a bound on a very slow machine: the page only renders as it would anyway
  P.warm = { renders: 0, ms: 0, targets: 0, refused: 0, where: "" };
  const idle = window.requestIdleCallback ? (fn) => requestIdleCallback(fn)
    : (fn) => setTimeout(() => fn({ timeRemaining: () => 8 }), 50);
  async function warmUp() {
    const fc = window.fitclaim;
    // The worker starts its Go instance (and its first collection) while this thread asks its
    // own engine for the models and accelerators the targets are made from.
    const worker = startWorker();
    let targets, list;
    try {
      list = await accelerators();
      targets = warmTargets(P.form.table(), await fc.models("", 100), list);
    } catch (_) {
      if (worker) worker.stop();
      return; // not worth a word: the page works the same, only its first edits are slower
    }
    P.warm.targets = targets.length;
    // The bases (the paths most edits take) here, at once, in idle time: this thread would
    // compile them at its first edit anyway, and the page's Go instance builds its own one-time
    // tables on them (the worker's cannot do that for it); the rest in the worker at the same
    // time, on the other core, else here too. Then the page's own collector once, in idle time.
    const core = targets.slice(0, targets.core), rest = targets.slice(targets.core);
    const inWorker = worker ? worker.warm(rest) : Promise.resolve(false);
    const hereDone = new Promise((resolve) => warmHere(core, list, resolve));
    const workerOK = await inWorker;
    await hereDone;
    const done = () => idle(() => {
      if (typeof fc.collect === "function") fc.collect();
      document.documentElement.dataset.warm = "";
      mark("warm");
    });
    if (workerOK) done();
    else warmHere(rest, list, done);
  }

  // startWorker starts firstclaim.js on the page's module (null when there is no worker or
  // module): {warm(targets)} resolves true once it rendered them, false if it failed (the page
  // then warms on its own thread); {stop()} ends it.
  function startWorker() {
    const boot = window.fitclaimBoot;
    if (typeof Worker !== "function" || !boot || !boot.module) return null;
    const t0 = performance.now();
    let w, answer = null;
    const answered = new Promise((resolve) => { answer = resolve; });
    const end = (ok) => { try { w.terminate(); } catch (_) { /* gone */ } answer(ok); };
    try {
      w = new Worker("firstclaim.js");
      w.onmessage = ({ data }) => {
        if (data && data.collected) return; // its Go has started and collected once
        if (!data || typeof data.warmed !== "number") { end(false); return; }
        P.warm.renders += data.warmed;
        P.warm.refused += data.refused;
        P.warm.ms += performance.now() - t0;
        P.warm.where = P.warm.where ? P.warm.where + " and the worker" : "worker";
        end(true);
      };
      w.onerror = () => end(false);
      w.onmessageerror = () => end(false);
      w.postMessage({ module: boot.module, glue: new URL("wasm_exec.js", document.baseURI).href, catalog: boot.catalogBytes || null });
    } catch (_) {
      return null;
    }
    return {
      warm(targets) {
        try { w.postMessage({ warm: targets }); } catch (_) { end(false); }
        return answered;
      },
      stop: () => end(false),
    };
  }

  // warmHere renders the targets on the page's thread, in slices of idle time, then calls done.
  function warmHere(targets, list, done) {
    const fc = window.fitclaim;
    P.warm.where = P.warm.where ? P.warm.where + " and the page" : "page";
    let i = 0;
    const slice = (deadline) => {
      // The claim's table, pictures and panels are drawn first (<html data-drawing>).
      if ("drawing" in document.documentElement.dataset) { idle(slice); return; }
      while (i < targets.length && P.warm.ms < WARM_MS && deadline.timeRemaining() > 1) {
        const t = targets[i++];
        const t0 = performance.now();
        try {
          const res = renderColumns(t);
          joinMatches(res.table, list);
          permalinkOf(t).catch(() => {});
        } catch (_) {
          P.warm.refused++; // a value the engine refuses is a path too
        }
        P.warm.renders++;
        P.warm.ms += performance.now() - t0;
      }
      if (i < targets.length && P.warm.ms < WARM_MS) idle(slice);
      else done();
    };
    idle(slice);
  }

  // warmTargets: one target per path an edit can take, from the field table (index.html's copy of
  // fitclaim.fields(), so a new field is warmed with no change here): each choice of each field
  // that has choices, each number at a small value and at its largest (where nothing fits), each
  // switch on, each text set, and each field's refusal (a value out of its range); each on one of
  // the bases in turn (a dense and a mixture-of-experts catalog model and a custom size, in both
  // sizing modes); and a catalog model of each quantization the first models use. The bases come
  // first; out.core says how many.
  function warmTargets(table, models, accs) {
    const dense = models.find((m) => !m.moe), moe = models.find((m) => m.moe);
    const bases = [];
    for (const sizing of ["llmfit", "kv"]) {
      for (const b of [dense && { model: dense.name }, moe && { model: moe.name }, { paramsB: 7 }]) {
        if (b) bases.push(Object.assign({ sizing }, b));
      }
    }
    const out = bases.map((b) => Object.assign({}, b));
    out.core = bases.length;
    const quants = new Set();
    for (const m of models) {
      if (quants.has(m.quant)) continue;
      quants.add(m.quant);
      out.push({ model: m.name }, { model: m.name, sizing: "kv" });
    }
    let i = 0;
    const on = (name, v) => out.push(Object.assign({}, bases[i++ % bases.length], { [name]: v }));
    for (const f of table) {
      if (f.name === "model" || f.name === "paramsB" || f.name === "sizing") continue;
      if (f.kind === "boolean") { on(f.name, true); continue; }
      if (f.kind === "number" || f.kind === "integer") {
        const max = Number(f.max) || 1;
        on(f.name, max <= 1 ? max / 2 : Math.min(max, Math.max(Number(f.min) || 0, 2)));
        on(f.name, max);
        on(f.name, max * 2); // refused: out of range
        continue;
      }
      const choices = Array.isArray(f.choices) ? f.choices : [];
      for (const c of choices) on(f.name, c);
      if (!choices.length) on(f.name, f.name === "on" && accs.length ? accs[0].name : "warm-up");
      on(f.name, f.openChoices === false ? "warm-up" : "x".repeat((f.maxLength || 64) + 1)); // refused
    }
    return out;
  }

  // The service worker installs once the claim is on screen and the page is idle; it fills its
  // cache from the HTTP cache the page has just filled (sw.js), not from the network again.
  function whenIdle(fn) {
    if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 3000 });
    else setTimeout(fn, 500);
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
})();
