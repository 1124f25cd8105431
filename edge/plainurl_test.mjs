// Holds entry.mjs's fast path for plain URLs (plainURL, defaultPort) to goParsable's slow path
// (WHATWG's new URL, then a stray '%' in the path escaped): every URL the fast path takes must
// come out of the slow path unchanged. Node's URL is the WHATWG parser workerd has too (ada).
// Checks a corpus, the bench's kind of URL, and 300,000 random URLs made from the characters
// that matter. Run by edge/test.sh: node edge/plainurl_test.mjs
import { readFileSync } from "node:fs";

const src = readFileSync(new URL("./entry.mjs", import.meta.url), "utf8");
const pick = (re) => {
  const m = src.match(re);
  if (!m) throw new Error(`entry.mjs no longer has ${re}`);
  return m[0];
};
const code = [pick(/^const plainURL =[\s\S]*?;$/m), pick(/^const defaultPort = .*;$/m), pick(/^function goParsable\(raw\) \{[\s\S]*?^\}$/m)].join("\n");
const { goParsable, fast } = new Function(`${code}\nreturn { goParsable, fast: (raw) => plainURL.test(raw) && !defaultPort.test(raw) };`)();
const slow = (raw) => {
  let url;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  url.pathname = url.pathname.replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
  return url.href;
};

let failures = 0;
const check = (raw) => {
  if (fast(raw) && slow(raw) !== raw) {
    if (failures++ < 20) console.error(`plainurl: the fast path keeps ${JSON.stringify(raw)}, new URL gives ${JSON.stringify(slow(raw))}`);
  }
  if (goParsable(raw) !== slow(raw)) {
    if (failures++ < 20) console.error(`plainurl: goParsable(${JSON.stringify(raw)}) = ${JSON.stringify(goParsable(raw))}, new URL gives ${JSON.stringify(slow(raw))}`);
  }
};

const mustBeFast = [
  "http://127.0.0.1:8787/api/v1/claim.yaml?m=Qwen%2FQwen2.5-7B-Instruct&tps=40",
  "https://fitclaim-api.workers.dev/api/v1/version",
  "http://localhost:8787/api/v1/models?q=qwen+7b&limit=5",
];
for (const raw of mustBeFast) {
  if (!fast(raw)) {
    failures++;
    console.error(`plainurl: ${raw} does not take the fast path`);
  }
}
const corpus = [
  ...mustBeFast,
  "http://127.0.0.1:80/a", "https://h:443/a", "http://h:080/a", "http://h:65536/a", "http://127.1/a", "http://1.2.3.4.5/a",
  "http://0x7f.0.0.1/a", "http://h.1/a", "http://xn--abc/a", "http://a.xn--b/a", "http://H/a", "http://h./a", "http://a..b/a",
  "http://h/a/./b", "http://h/a/../b", "http://h/.", "http://h/..?x", "http://h/.../x", "http://h/a%2e/b", "http://h/%zz",
  "http://h/a?b c", "http://h/a?b'c", "http://h/a?%zz", "http://h/a?%4", "http://h/a?#", "http://h//a", "http://h/", "http://h",
  "http://h/a?", "http://h/a??", "http://h/a\\b", "http://h/a|b", "http://h/a?x=[1]", "http://user@h/a", "http://h:0/a",
];
corpus.forEach(check);

// Random URLs: a scheme, a host, a port, a path and a query made of characters around the rules.
let seed = 1;
const rand = (n) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
const from = (chars, max) => {
  let s = "";
  for (let i = rand(max + 1); i > 0; i--) s += chars[rand(chars.length)];
  return s;
};
const hosts = ["127.0.0.1", "localhost", "a.b-c.dev", "1.2.3.4", "256.1.1.1", "01.2.3.4", "xn--a.b", "a.1", "A.b", "h", "0x1"];
let taken = 0;
for (let i = 0; i < 300000; i++) {
  const scheme = rand(2) ? "http://" : "https://";
  const host = rand(4) ? hosts[rand(hosts.length)] : from("a1.-x", 6);
  const port = rand(2) ? "" : ":" + ["80", "443", "8787", "0", "08", "99999", ""][rand(7)];
  const path = "/" + from("ab/.-_~%2e?!'|\\ ", 10);
  const query = rand(2) ? "" : "?" + from("a=&%2f4G/?.'\" <>#[]{}^`|~!$()*+,;:@-", 12);
  const raw = scheme + host + port + path + query;
  taken += fast(raw) ? 1 : 0;
  check(raw);
}
if (taken < 1000) {
  failures++;
  console.error(`plainurl: only ${taken} random URLs took the fast path: it is not tested`);
}
if (failures > 0) {
  console.error(`plainurl: ${failures} failures`);
  process.exit(1);
}
console.log("plainurl: ok (fast path matches new URL)");
