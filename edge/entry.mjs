// Entry module of the fitclaim edge worker: it owns the Go instance's lifecycle. The Go program
// (app.wasm, wasm/edge) is instantiated once per isolate, on the first request, and every
// request is then dispatched into that running instance through the handleRequest binding
// that syumai/workers' Go side registers; its own glue (worker.mjs) would start a new instance
// for every request. The program registers the handler, calls workers.Ready() and stays
// alive. If it ends (an unrecovered panic outside a handler, say), the requests it held answer
// 500 and the next request starts a fresh instance. A panic inside a handler is answered 500
// by the Go side, and the instance carries on.
//
// One transport fix happens first: syumai/workers reads request.url with Go's url.Parse,
// which fails -- and the worker would answer 500 -- on a raw control character or a '%' not
// followed by two hex digits in the path, both of which workerd passes through from the
// request line. The WHATWG URL parser percent-encodes the former, and a stray '%' in the path
// becomes "%25"; the Go handler then answers as usual (404 for such a path, 400 with the field
// named for a bad query). No API logic lives here.
import "./wasm_exec.js"; // syumai/workers' copy of Go's wasm_exec.js: globalThis.Go
import { createRuntimeContext } from "./runtime.mjs";
import mod from "./app.wasm"; // the compiled module: workerd compiles it once per isolate

// syumai/workers' Go side calls globalThis.tryCatch (jsutil.TryCatch); its worker.mjs, which
// this module replaces, defines it.
globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (e) {
    return { error: e };
  }
};

// The running instance ({ go, binding, dead, waiters }), or undefined before the first request
// and after an instance has ended.
let current;

// start instantiates the Go program, which registers binding.handleRequest and calls
// workers.Ready() before its main parks; all of that happens inside go.run's first call into
// the instance, so the instance is ready (or dead) when start returns. The runtime context
// (env, ctx) is the first request's: syumai/workers reads it once at start-up, and the API uses
// neither (it has no bindings and does no background work).
//
// The end of the program is noticed through go.exit, which wasm_exec.js calls synchronously
// when it ends, in whichever request's context that happens. It wakes the requests waiting on
// the instance through resolvers each of them made in its own context: a promise made in the
// first request's context (go.run's own) cannot wake a later request, as workerd cancels a
// promise's continuations once the request that made it has finished.
function start(env, ctx) {
  const go = new Go();
  const binding = {};
  const inst = { go, binding, exports: undefined, stateAt: 0, inAt: 0, inRoom: 0, dead: false, ready: false, waiters: new Set() };
  go.exit = (code) => {
    console.error(`fitclaim edge: the Go instance ended (exit code ${code}); the next request starts a new one`);
    retire(inst);
  };
  const instance = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: {
      ready: () => {
        inst.ready = true;
      },
    },
  });
  go.run(instance, createRuntimeContext({ env, ctx, binding }));
  if (!inst.ready || inst.dead) {
    throw new Error("the Go program ended before it was ready");
  }
  inst.exports = instance.exports;
  inst.stateAt = instance.exports.fitclaimState();
  return inst;
}

// retire marks an instance as ended (the next request starts a new one) and wakes the requests
// waiting on it, which answer 500.
function retire(inst) {
  inst.dead = true;
  if (current === inst) {
    current = undefined;
  }
  for (const wake of inst.waiters) {
    wake();
  }
}

// instance returns the running instance, starting one (synchronously) when there is none.
function instance(env, ctx) {
  if (current === undefined || current.dead) {
    current = start(env, ctx);
  }
  return current;
}

// dispatch hands the request to the instance's handleRequest (syumai/workers' binding, which
// answers with a promise of a Response). If the program ends meanwhile, that promise never
// settles (or handleRequest throws, or returns nothing): the waiter settles the race then.
async function dispatch(inst, request) {
  let wake;
  const ended = new Promise((resolve) => {
    wake = resolve;
  });
  inst.waiters.add(wake);
  try {
    if (inst.dead) {
      return undefined;
    }
    return await Promise.race([inst.binding.handleRequest(request), ended]);
  } finally {
    inst.waiters.delete(wake);
  }
}

// A request body reaches Go through syumai/workers' stream reader, one JS/Go round trip per
// chunk, and workerd cuts bodies into 4 KiB chunks: a 300 KiB body cost ~75 round trips (about
// twice the CPU time of reading it in one piece, measured by edge/test.sh's echo route).
// wholeChunks hands the body on in chunks of up to bodyChunk bytes instead, so a body of that
// size is one round trip, and memory stays bounded for a larger one; the Go handler still
// decides how much it reads (a cancel reaches the original stream).
const bodyChunk = 1 << 20;

function wholeChunks(body) {
  const reader = body.getReader();
  return new ReadableStream({
    async pull(controller) {
      const parts = [];
      let size = 0;
      while (size < bodyChunk) {
        const { done, value } = await reader.read();
        if (done) {
          if (size > 0) {
            controller.enqueue(concat(parts, size));
          }
          controller.close();
          return;
        }
        parts.push(value);
        size += value.byteLength;
      }
      controller.enqueue(concat(parts, size));
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function concat(parts, size) {
  if (parts.length === 1) {
    return parts[0];
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

// internalError is the answer when the instance could not answer; the same bytes and headers
// as edge/api's answer to a panic (api.InternalError).
function internalError() {
  const body = "internal error\n";
  return new Response(body, {
    status: 500,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "X-Content-Type-Options": "nosniff",
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": String(body.length),
      "Cache-Control": "no-store",
    },
  });
}

// The Go side (wasm/edge/packheader.go) hands the handler's response headers over packed into
// one, as name, value, name, value … joined by "\x1f": syumai/workers would otherwise make
// each in a round trip of its own between Go and JS. They are unpacked here into the
// Response's own headers (mutable: it was made by a constructor, not by fetch).
const packedHeader = "X-Fitclaim-Packed-Headers";

function unpackHeaders(answer) {
  const packed = answer.headers.get(packedHeader);
  if (packed === null) {
    return answer;
  }
  answer.headers.delete(packedHeader);
  const parts = packed.split("\x1f");
  for (let i = 0; i + 1 < parts.length; i += 2) {
    answer.headers.append(parts[i], parts[i + 1]);
  }
  return answer;
}

// A request without a body (GET and HEAD: what kubectl and the page send) takes one call into
// the instance instead of syumai/workers' handleRequest: method, URL and headers are written
// into the instance's memory as one string, fitclaimServe (exported by the Go program) runs
// the handler, and the answer (status, status text, headers, body) is read back from its
// memory; wasm/edge/direct.go says why and lays both out. If the call ends without an answer
// (the program ended, or the handler blocked), there is none: 500.
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

function serveDirect(inst, request, href) {
  let packed = request.method + "\n" + href + "\n";
  for (const [name, value] of request.headers) {
    packed += name + "\n" + value + "\n";
  }
  const exports = inst.exports;
  const room = packed.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
  if (room > inst.inRoom) {
    // The Go side's input buffer is kept from request to request; a larger one only when a
    // request does not fit (16 KiB at least: every request of the API fits).
    inst.inRoom = Math.max(room, 1 << 14);
    inst.inAt = exports.fitclaimInput(inst.inRoom);
  }
  const { written } = utf8Encoder.encodeInto(packed, new Uint8Array(exports.mem.buffer, inst.inAt, room));
  new Uint32Array(exports.mem.buffer, inst.stateAt, 1)[0] = 0;
  exports.fitclaimServe(written);
  if (inst.dead) {
    return undefined;
  }
  // The memory may have grown during the call: views are made afresh.
  const buffer = exports.mem.buffer;
  const [done, bodyAt, bodyLen, headAt, headLen] = new Uint32Array(buffer, inst.stateAt, 5);
  if (done !== 1) {
    return undefined;
  }
  const head = utf8Decoder.decode(new Uint8Array(buffer, headAt, headLen)).split("\n");
  const status = Number(head[0]);
  // As syumai/workers' newJSResponse: these statuses have no body. The Response takes a copy of
  // the body's bytes (Fetch's "extract a body" copies a BufferSource), so a view into the
  // instance's memory, which the next request reuses, is enough: no copy of our own.
  const body = status === 101 || status === 204 || status === 205 || status === 304 ? null : new Uint8Array(buffer, bodyAt, bodyLen);
  return new Response(body, { status, statusText: head[1], headers: responseHeaders(head) });
}

// responseHeaders makes the answer's headers (head[2], head[3] … as name, value) into a plain
// object, which workerd's Response takes in ~2 µs less than a Headers filled by append (a loop
// in workerd, edge/bench/jsglue); a name that repeats, or that an object already has (from its
// prototype, "__proto__"), makes it a Headers instead.
function responseHeaders(head) {
  const headers = {};
  for (let i = 2; i + 1 < head.length; i += 2) {
    if (head[i] in headers || head[i] === "__proto__") {
      return headersOf(head);
    }
    headers[head[i]] = head[i + 1];
  }
  return headers;
}

function headersOf(head) {
  const headers = new Headers();
  for (let i = 2; i + 1 < head.length; i += 2) {
    headers.append(head[i], head[i + 1]);
  }
  return headers;
}

// plainURL matches the URLs goParsable would hand back unchanged, for which it is skipped (it
// parsed and reserialised every request's URL, ~3 % of a request's time in workerd): http(s),
// a lower-case host name (no punycode label, the last label not a number) or a dotted IPv4
// address in its usual form, a port, a path of unreserved characters and '/' without a "." or
// ".." segment, and a query of characters the WHATWG parser leaves as they are (no space, '"',
// '#', '<', '>', '\'', '%' only before two hex digits). A default port (":80") is left to the
// slow path by the check below. edge/plainurl_test.mjs holds it to goParsable's slow path.
const plainURL =
  /^https?:\/\/(?:(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])|(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z][a-z0-9-]*)(?::[1-9][0-9]*)?(?:\/(?!\.\.?(?:[/?]|$))[A-Za-z0-9_~.-]*)+(?:\?(?:[A-Za-z0-9_~.!$&()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$/;

const defaultPort = /^(?:http:\/\/[^/]*:80|https:\/\/[^/]*:443)\//;

function goParsable(raw) {
  if (plainURL.test(raw) && !defaultPort.test(raw)) {
    return raw;
  }
  let url;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  url.pathname = url.pathname.replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
  return url.href;
}

export default {
  async fetch(request, env, ctx) {
    const href = goParsable(request.url);
    if (request.body === null) {
      let inst;
      try {
        inst = instance(env, ctx);
        const answer = serveDirect(inst, request, href);
        if (answer !== undefined) {
          return answer;
        }
        console.error(`fitclaim edge: no answer for ${request.method} ${request.url}`);
      } catch (e) {
        console.error(`fitclaim edge: ${request.method} ${request.url}: ${e && e.stack ? e.stack : e}`);
        if (e instanceof WebAssembly.RuntimeError && inst !== undefined) {
          retire(inst); // a trap inside the Go program: its state cannot be trusted
        }
      }
      return internalError();
    }
    if (request.body !== null) {
      request = new Request(href, { method: request.method, headers: request.headers, body: wholeChunks(request.body) });
    } else if (href !== request.url) {
      request = new Request(href, request);
    }
    try {
      const answer = await dispatch(instance(env, ctx), request);
      if (answer instanceof Response) {
        return unpackHeaders(answer);
      }
      console.error(`fitclaim edge: no answer for ${request.method} ${request.url}`);
    } catch (e) {
      console.error(`fitclaim edge: ${request.method} ${request.url}: ${e && e.stack ? e.stack : e}`);
    }
    return internalError();
  },
};
