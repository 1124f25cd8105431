// Entry module of the fitclaim edge worker. It hands every request to syumai/workers' glue
// (worker.mjs, which runs the Go program in app.wasm), after one transport fix: syumai/workers
// reads request.url with Go's url.Parse, which fails -- and the worker would answer 500 -- on
// a raw control character or a '%' not followed by two hex digits in the path, both of which
// workerd passes through from the request line. The WHATWG URL parser percent-encodes the
// former, and a stray '%' in the path becomes "%25"; the Go handler then answers as usual
// (404 for such a path, 400 with the field named for a bad query). No API logic lives here.
import worker from "./worker.mjs";

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

export default {
  async fetch(request, env, ctx) {
    const href = goParsable(request.url);
    if (href !== request.url) {
      request = new Request(href, request);
    }
    return worker.fetch(request, env, ctx);
  },
};
