// A workerd worker that times pieces of edge/entry.mjs's JS around the Go call, each alone in a
// loop inside one request (GET /?v=VARIANT&n=N), on a fake answer laid out as
// wasm/edge/direct.go lays it out (a claim's seven headers and a 2 KB body). workerd's clocks do
// not move inside a request, so run.sh times the loop from outside: workerd's CPU time.
const enc = new TextEncoder();
const dec = new TextDecoder();
const mem = new WebAssembly.Memory({ initial: 2 });
const headerList = [
  ["Access-Control-Allow-Origin", "*"],
  ["X-Content-Type-Options", "nosniff"],
  ["Etag", '"0123456789abcdef"'],
  ["Cache-Control", "public, max-age=3600"],
  ["Access-Control-Expose-Headers", "ETag"],
  ["Content-Type", "application/yaml; charset=utf-8"],
  ["Content-Length", "2000"],
];
const sharedHeaders = new Headers([headerList[0], headerList[1], headerList[3], headerList[4]]);
const headText = "200\nOK\n" + headerList.map(([k, v]) => k + "\n" + v).join("\n");
const headBytes = enc.encode(headText);
const outAt = 4096, outLen = 4 + headBytes.length + 2000;
{
  const u8 = new Uint8Array(mem.buffer);
  new DataView(mem.buffer).setUint32(outAt, headBytes.length, true);
  u8.set(headBytes, outAt + 4);
  u8.fill(97, outAt + 4 + headBytes.length, outAt + outLen);
}

function goParsable(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  url.pathname = url.pathname.replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
  return url.href;
}

function pack(request, href) {
  let packed = request.method + "\n" + href + "\n";
  for (const [name, value] of request.headers) {
    packed += name + "\n" + value + "\n";
  }
  const room = packed.length * 3;
  const { written } = enc.encodeInto(packed, new Uint8Array(mem.buffer, 0, room));
  return written;
}

function readHead() {
  const out = new Uint8Array(mem.buffer, outAt, outLen);
  const headEnd = 4 + (out[0] | (out[1] << 8) | (out[2] << 16) | (out[3] << 24));
  return [out, headEnd, dec.decode(out.subarray(4, headEnd)).split("\n")];
}

function respond(out, headEnd, head) {
  const status = Number(head[0]);
  const headers = new Headers();
  for (let i = 2; i + 1 < head.length; i += 2) {
    headers.append(head[i], head[i + 1]);
  }
  const body = status === 304 ? null : out.slice(headEnd);
  return new Response(body, { status, statusText: head[1], headers });
}

const variants = {
  nothing: () => 0,
  url: (r) => goParsable(r.url),
  pack: (r) => pack(r, r.url),
  headerget: (r) => r.headers.get("if-none-match"),
  readhead: () => readHead(),
  headers: () => {
    const h = new Headers();
    for (const [k, v] of headerList) h.append(k, v);
    return h;
  },
  slice: () => new Uint8Array(mem.buffer, outAt, outLen).slice(200),
  respond: () => {
    const [out, headEnd, head] = readHead();
    return respond(out, headEnd, head);
  },
  respPairs: () => new Response(new Uint8Array(mem.buffer, outAt, outLen).slice(200), { status: 200, headers: headerList }),
  respPairsNoText: () => new Response(new Uint8Array(mem.buffer, outAt, outLen).slice(200), { status: 200, statusText: "OK", headers: headerList }),
  respNoHeaders: () => new Response(new Uint8Array(mem.buffer, outAt, outLen).slice(200)),
  respString: () => new Response("ok\n"),
  floor: () => new Response("ok\n", { headers: { "Content-Type": "text/plain; charset=utf-8" } }),
  respHeadersObj: () => {
    const h = new Headers();
    for (const [k, v] of headerList) h.append(k, v);
    return new Response(new Uint8Array(mem.buffer, outAt, outLen).slice(200), { status: 200, headers: h });
  },
  respNoCL: () => new Response(new Uint8Array(mem.buffer, outAt, outLen).slice(200), { status: 200, headers: headerList.slice(0, 6) }),
  respOnlyCL: () => new Response(new Uint8Array(mem.buffer, outAt, outLen).slice(200), { status: 200, headers: [headerList[6]] }),
  respOnlyCT: () => new Response(new Uint8Array(mem.buffer, outAt, outLen).slice(200), { status: 200, headers: [headerList[5]] }),
  respOne: () => new Response(new Uint8Array(mem.buffer, outAt, outLen).slice(200), { status: 200, headers: [headerList[0]] }),
  respStringCL: () => new Response("ok\n", { headers: [["Content-Length", "3"]] }),
  respNull7: () => new Response(null, { status: 200, headers: headerList.slice(0, 6) }),
  respView: () => {
    const h = new Headers();
    for (const [k, v] of headerList) h.append(k, v);
    return new Response(new Uint8Array(mem.buffer, outAt + 200, outLen - 200), { status: 200, headers: h });
  },
  respObject: () => {
    const h = {};
    for (const [k, v] of headerList) h[k] = v;
    return new Response(new Uint8Array(mem.buffer, outAt + 200, outLen - 200), { status: 200, headers: h });
  },
  // A Headers made once with the four headers every successful answer shares, copied by the
  // Response (in C++), and the three that vary set on the copy.
  respTemplate: () => new Response(new Uint8Array(mem.buffer, outAt + 200, outLen - 200), { status: 200, headers: sharedHeaders }),
  respTemplateSet: () => {
    const res = new Response(new Uint8Array(mem.buffer, outAt + 200, outLen - 200), { status: 200, headers: sharedHeaders });
    res.headers.set("Etag", '"0123456789abcdef"');
    res.headers.set("Content-Type", "application/yaml; charset=utf-8");
    res.headers.set("Content-Length", "2000");
    return res;
  },
  respTemplateCopySet: () => {
    const h = new Headers(sharedHeaders);
    h.set("Etag", '"0123456789abcdef"');
    h.set("Content-Type", "application/yaml; charset=utf-8");
    h.set("Content-Length", "2000");
    return new Response(new Uint8Array(mem.buffer, outAt + 200, outLen - 200), { status: 200, headers: h });
  },
  respObjectNoCL: () => {
    const h = {};
    for (const [k, v] of headerList.slice(0, 6)) h[k] = v;
    return new Response(new Uint8Array(mem.buffer, outAt + 200, outLen - 200), { status: 200, headers: h });
  },
  whole: (r) => {
    pack(r, goParsable(r.url));
    const [out, headEnd, head] = readHead();
    return respond(out, headEnd, head);
  },
};

export default {
  async fetch(request) {
    const q = new URL(request.url).searchParams;
    const f = variants[q.get("v")];
    const n = Number(q.get("n") || 1);
    if (!f) return new Response("variants: " + Object.keys(variants).join(" ") + "\n", { status: 404 });
    let sink = 0;
    for (let i = 0; i < n; i++) {
      if (f(request) !== undefined) sink++;
    }
    return new Response(String(sink) + "\n");
  },
};
