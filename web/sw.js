// fitclaim service worker. tools/cmd/site substitutes the cache version and the
// precache list (a JSON array of same-origin URLs: the shell, the hashed
// assets, the wasm and the Go runtime glue).
"use strict";

const CACHE_PREFIX = "fitclaim-";
const CACHE = CACHE_PREFIX + "__CACHE_VERSION__";
const PRECACHE = __PRECACHE__;

const scopeURL = new URL(self.registration ? self.registration.scope : self.location.href);
const precached = new Set(PRECACHE.map((u) => new URL(u, scopeURL).pathname));
const shellCandidates = ["./", "./index.html"].map((u) => new URL(u, scopeURL).href);

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
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names
      .filter((n) => n.startsWith(CACHE_PREFIX) && n !== CACHE)
      .map((n) => caches.delete(n)));
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
  }
});
