// fitclaim's render call through the page engine's exports (wasm/page/export.go): the same
// answer and Errors as fitclaim.render(target, options), returned at once (no Promise), with no
// JavaScript value crossing to the Go side. The arguments are written into the engine's memory as
// bytes (wasm/bridge/call.go: every check and message stays Go's), the answer is JSON text read out
// of it and parsed here. (Through fitclaim.renderInto each render left values the Go side held until
// its collector ran, whose finalizers then called back into JavaScript: issue 10 §3.)
//
// fitclaimRenderer(exports) is that render for an instance's exports, or null when the engine
// has none (then the page keeps fitclaim.renderInto). Its permalink(target) is
// fitclaim.permalink(target) the same way (the engine's fitclaim_permalink), returned at once;
// absent when the engine has no such export (then the page keeps fitclaim.permalink).
"use strict";

function fitclaimRenderer(exports) {
  if (!exports || typeof exports.fitclaim_render !== "function" || !(exports.mem instanceof WebAssembly.Memory)) return null;
  const utf8 = new TextEncoder(), text = new TextDecoder();
  // The most bytes a string takes in UTF-8: 3 for each UTF-16 unit (a surrogate pair, two units, takes 4).
  const most = (s) => 4 + 3 * s.length;
  const isObject = (v) => typeof v === "object" && v !== null;
  // The one-byte types of wasm/bridge/call.go; undefined and null are absent.
  const typeByte = (v) => {
    switch (typeof v) {
      case "string": return 0x73; // s
      case "number": return 0x6e; // n
      case "boolean": return 0x62; // b
      case "function": return 0x66; // f
      case "symbol": return 0x79; // y
      case "bigint": return 0x67; // g
      case "undefined": return 0x75; // u
    }
    return v === null ? 0x75 : 0x6f; // u, o
  };
  // entries lists an object's own enumerable keys with their values, as Go's objectValues reads them.
  const entries = (obj) => {
    const out = [];
    for (const k of Object.keys(obj)) {
      const v = obj[k];
      if (v !== undefined && v !== null) out.push(k, v);
    }
    return out;
  };
  const size = (arg, list) => {
    if (!isObject(arg)) return 1;
    let n = 5;
    for (let i = 0; i < list.length; i += 2) {
      const v = list[i + 1];
      n += 1 + most(list[i]) + (typeof v === "string" ? most(v) : 8);
    }
    return n;
  };
  // call writes the target and options into the engine's memory, has fn answer, and returns the
  // answer's text; an error's text (a negative length) is thrown as render's Error.
  const call = (fn, target, options) => {
    const t = isObject(target) ? entries(target) : null, o = isObject(options) ? entries(options) : null;
    const cap = size(target, t) + size(options, o);
    const at = exports.fitclaim_call_buffer(cap); // may grow the memory: the views come after
    const bytes = new Uint8Array(exports.mem.buffer, at, cap), view = new DataView(bytes.buffer, at, cap);
    let p = 0;
    const str = (s) => {
      const n = utf8.encodeInto(s, bytes.subarray(p + 4)).written;
      view.setUint32(p, n, true);
      p += 4 + n;
    };
    const arg = (a, list) => {
      if (!isObject(a)) { bytes[p++] = typeByte(a); return; }
      bytes[p++] = 0x6f;
      view.setUint32(p, list.length / 2, true);
      p += 4;
      for (let i = 0; i < list.length; i += 2) {
        const v = list[i + 1], type = isObject(v) ? 0x6f : typeByte(v);
        bytes[p++] = type;
        str(list[i]);
        if (type === 0x73) str(v);
        else if (type === 0x6e) { view.setFloat64(p, v === 0 ? 0 : v, true); p += 8; } // -0 crosses syscall/js as 0
        else if (type === 0x62) bytes[p++] = v ? 1 : 0;
      }
    };
    arg(target, t);
    arg(options, o);
    const n = fn(p);
    const answer = text.decode(new Uint8Array(exports.mem.buffer, exports.fitclaim_answer(), Math.abs(n)));
    if (n >= 0) return answer;
    const err = JSON.parse(answer), e = new Error(err.message);
    if ("field" in err) { e.field = err.field; e.key = err.key; e.label = err.label; }
    throw e;
  };
  const render = (target, options) => JSON.parse(call(exports.fitclaim_render, target, options));
  if (typeof exports.fitclaim_permalink === "function") render.permalink = (target) => call(exports.fitclaim_permalink, target, undefined);
  return render;
}
