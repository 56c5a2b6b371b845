/* A Swiss tournament's page live (docs/tournaments.md "Swiss").
 *
 * The countdown (#swiss-countdown: to the start or the next round) ticks here. The page follows
 * the tournament two ways: a player's site socket brings `swiss` and `swiss_paired` frames
 * (site.js hands them over as `kropki:site-frame` events); every visitor's page also asks for the
 * JSON state (#swiss-live's `state` address) every 5 s. When the state changed (status, round,
 * countdown, results) the page is drawn again; `swiss_paired` takes the player to their game.
 */
(function () {
  "use strict";
  var node = document.getElementById("swiss-live");
  if (!node) return;
  var live = JSON.parse(node.textContent);
  var last = null;

  function digest(frame) {
    var done = (frame.boards || []).filter(function (b) { return b.result !== null; }).length;
    return [frame.status, frame.round, frame.next_round_at, done, (frame.standings || []).length].join("|");
  }

  function seen(frame) {
    var now = digest(frame);
    if (last !== null && now !== last) window.location.reload();
    last = now;
  }

  function poll() {
    fetch(live.state, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (frame) { if (frame) seen(frame); })
      .catch(function () {});
  }

  document.addEventListener("kropki:site-frame", function (event) {
    var frame = event.detail || {};
    if (frame.id !== live.id) return;
    if (frame.type === "swiss_paired" && frame.url) window.location.assign(frame.url);
    else if (frame.type === "swiss") seen(frame);
  });

  var countdown = document.querySelector("#swiss-countdown [data-until]");
  function tick() {
    if (!countdown || !countdown.dataset.until) return;
    var left = Math.max(0, Math.round((Date.parse(countdown.dataset.until) - Date.now()) / 1000));
    countdown.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  }
  tick();
  setInterval(tick, 1000);
  poll();
  setInterval(poll, 5000);
})();
