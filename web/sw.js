// fitclaim service worker. tools/cmd/site substitutes the cache version and the
// precache list (a JSON array of same-origin URLs: the shell, the hashed
// assets, the wasm and the Go runtime glue).
//
// Updates: a new deploy's worker installs, skips waiting and claims the open tabs at once, so
// the next visit gets the new shell. The tabs already open still run the old shell, and may ask
// later for an old hashed asset they had not needed yet (the second engine, fetched on a panel's
// first use; the page's worker script): the server no longer has it (a deploy replaces the whole
// site, so the old names answer 404). So the previous version's cache is kept beside the new
// one, and an asset not in this version is looked for in every fitclaim cache before the
// network.
"use strict";

const CACHE_PREFIX = "fitclaim-";
const CACHE = CACHE_PREFIX + "__CACHE_VERSION__";
const PRECACHE = __PRECACHE__;

const scopeURL = new URL(self.registration ? self.registration.scope : self.location.href);
const precached = new Set(PRECACHE.map((u) => new URL(u, scopeURL).pathname));
const shellCandidates = ["./", "./index.html"].map((u) => new URL(u, scopeURL).href);
const assetsPath = new URL("assets/", scopeURL).pathname; // hashed names: never change, never reused
// A synthetic entry in each cache: when this browser installed that version (Date.now()). Not a
// path the site serves, and not under assets/, so no request is ever answered with it.
const STAMP = new URL("__fitclaim-installed", scopeURL).href;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(PRECACHE.map(async (u) => {
      const url = new URL(u, scopeURL);
      // Hashed assets never change under their name: the HTTP cache the page has just filled
      // answers (no second download); the shell is revalidated.
      const mode = u.startsWith("assets/") ? "default" : "no-cache";
      const resp = await fetch(new Request(url.href, { cache: mode, credentials: "same-origin" }));
      if (!resp.ok) throw new Error("precache " + url.pathname + ": HTTP " + resp.status);
      await cache.put(url.href, resp);
    }));
    await cache.put(STAMP, new Response(String(Date.now()))); // last: a failed install has none
    await self.skipWaiting();
  })());
});

// installedAt is a cache's stamp; 0 for a cache without one (an install that failed half-way,
// or a worker from before the stamps: then its order among the caches decides).
async function installedAt(name) {
  const hit = await (await caches.open(name)).match(STAMP);
  return hit ? Number(await hit.text()) || 0 : 0;
}

// Activation keeps two versions: this one and the newest previous one (the one that controlled
// the tabs open now, whose old assets they may still ask for); older ones are deleted. Two, not
// "every version younger than N days": a site deployed often would keep a dozen copies of its
// ~12 MB of wasm, and a tab left open across two deploys is rarer than a deploy. That tab is told
// to reload (later.js) and keeps its work: the address holds the permalink.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const others = (await caches.keys()).filter((n) => n.startsWith(CACHE_PREFIX) && n !== CACHE);
    const born = await Promise.all(others.map(installedAt));
    let keep = -1; // the newest; of equal stamps the last made (caches.keys() is in creation order)
    born.forEach((t, i) => { if (keep < 0 || t >= born[keep]) keep = i; });
    await Promise.all(others.filter((_, i) => i !== keep).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

function isAPI(url) {
  return url.pathname.startsWith("/api/");
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const resp = await fetch(request);
    if (resp.ok && resp.type === "basic") {
      // Keep the newest shell for the next offline visit (fragments never reach here).
      await cache.put(request.url, resp.clone());
    }
    return resp;
  } catch (err) {
    const hit = (await cache.match(request, { ignoreSearch: true })) ||
      (await firstMatch(cache, shellCandidates));
    if (hit) return hit;
    throw err;
  }
}

async function firstMatch(cache, urls) {
  for (const u of urls) {
    const hit = await cache.match(u);
    if (hit) return hit;
  }
  return undefined;
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  const resp = await fetch(request);
  if (resp.ok && resp.type === "basic") await cache.put(request, resp.clone());
  return resp;
}

// anyVersion answers a hashed asset this version does not have (an open tab's, from before the
// update) from whichever fitclaim cache holds it, else from the network (which, after a deploy,
// has it no more: later.js then says to reload).
async function anyVersion(request) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(CACHE_PREFIX)) continue;
    const hit = await (await caches.open(name)).match(request, { ignoreSearch: true });
    if (hit) return hit;
  }
  return fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isAPI(url)) return; // the API is never cached here
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(request));
    return;
  }
  if (precached.has(url.pathname)) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith(assetsPath)) {
    event.respondWith(anyVersion(request));
  }
});
