{% autoescape off %}/* Kropki's service worker (kropki_site/app.py serves it at /sw.js; docs/app.md).
 *
 * Caching rules:
 * - at install: the offline page and the site's common static files (CONFIG.precache);
 * - /static/ files: from the cache, else from the network (and then kept); a new deployment
 *   changes CONFIG.version (a digest of every static file), so a new worker installs and
 *   drops the old caches;
 * - a page (a navigation): always the network; when it cannot be reached, the offline page.
 *   A page is never cached: a match is never shown stale;
 * - everything else (the API, a board fetched by a match page, forms, other sites): not
 *   touched, the browser fetches it as if there were no worker. Sockets never pass here.
 */
"use strict";

var CONFIG = {{ config }};
var CACHE = "kropki-" + CONFIG.version;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      // past the HTTP cache (nginx keeps /static/ 7 days): the new version's own files
      return cache.addAll(CONFIG.precache.map(function (url) { return new Request(url, { cache: "reload" }); }));
    })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("kropki-") === 0 && name !== CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(CONFIG.offline, { cacheName: CACHE });
    }));
    return;
  }
  if (url.pathname.indexOf(CONFIG.static) === 0) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (hit) {
        return hit || fetch(request, { cache: "no-cache" }).then(function (response) {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
      });
    }));
  }
});

// Web Push (games/notifications/push.py): the server's encrypted message is a JSON object
// {title, body, url, tag}; it is shown as a system notification, and a click opens its page.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(data.title || "Kropki", {
    body: data.body || "",
    tag: data.tag || undefined,
    icon: CONFIG.icon,
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin);  // only the site's own pages
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === url.href && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow(url.href);
  }));
});
{% endautoescape %}
