/* An arena live (docs/tournaments.md, docs/protocol.md "Tournaments").
 *
 * On the tournament page (#tournament-live): the countdown, and the standings and games being
 * played redrawn from each `tournament` frame the site socket pushes (site.js asks for them
 * with `watch_tournament`); `tournament_paired` takes the player to their new game.
 * On an arena game's page (#tournament-return): when the game is over the player's page goes
 * back to the arena by itself (a few seconds, with a link), or straight to their next game; a
 * Swiss game's page (#swiss-return) likewise on `swiss_game_over` / `swiss_paired`.
 * Names are written with textContent only. Nothing here polls.
 */
(function () {
  "use strict";

  function data(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  var live = data("tournament-live");
  var back = data("tournament-return");

  function onFrame(handler) {
    document.addEventListener("kropki:site-frame", function (event) { handler(event.detail || {}); });
  }

  // -- the countdown ----------------------------------------------------------------

  function countdown() {
    document.querySelectorAll(".countdown").forEach(countdownOf);
  }

  function countdownOf(node) {
    var end = Date.now() + 1000 * Number(node.dataset.seconds || 0);
    function tick() {
      var left = Math.max(0, Math.round((end - Date.now()) / 1000));
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      node.textContent = (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s;
      if (left > 0) setTimeout(tick, 1000);
    }
    tick();
  }

  // -- the tournament page -------------------------------------------------------------

  function firstPage() {
    var page = new URLSearchParams(location.search).get("strona");
    return !page || page === "1";
  }

  function renderStandings(frame, W) {
    var body = document.getElementById("standings-body");
    if (!body || !firstPage()) return;
    var rows = frame.standings || [];
    body.textContent = "";
    rows.forEach(function (r) {
      // [rank, name, points, on fire, paused, playing, marks]
      var tr = el("tr", r[4] ? "paused" : null);
      tr.appendChild(el("td", "num", String(r[0])));
      var th = el("th");
      th.scope = "row";
      if (r[1]) {
        var a = el("a", null, r[1]);
        a.href = W.profile_prefix + encodeURIComponent(r[1]) + "/";
        th.appendChild(a);
      } else {
        th.appendChild(document.createTextNode(W.deleted)); // a deleted account: no name, no profile
      }
      if (r[3]) {
        th.appendChild(document.createTextNode(" "));
        var flame = el("span", "flame", "🔥");
        flame.setAttribute("aria-hidden", "true");
        flame.title = W.fire;
        th.appendChild(flame);
        th.appendChild(el("span", "visually-hidden", W.fire_short));
      }
      if (r[4] || r[5]) th.appendChild(el("span", "muted", " " + (r[4] ? W.paused : W.playing)));
      tr.appendChild(th);
      var pts = el("td", "num", String(r[2]));
      pts.dataset.testid = "points";
      tr.appendChild(pts);
      tr.appendChild(el("td", "marks", r[6]));
      body.appendChild(tr);
    });
    if (!rows.length) {
      var empty = el("tr");
      var td = el("td", "muted", W.nobody);
      td.colSpan = 4;
      empty.appendChild(td);
      body.appendChild(empty);
    }
  }

  function renderPlaying(frame, W) {
    var list = document.getElementById("playing-list");
    if (!list) return;
    list.textContent = "";
    (frame.playing || []).forEach(function (g) {
      var li = el("li");
      var a = el("a", null, g[1] + " – " + g[2]);
      a.href = W.match_prefix + g[0] + "/";
      li.appendChild(a);
      list.appendChild(li);
    });
    if (!(frame.playing || []).length) list.appendChild(el("li", "muted", W.no_games));
  }

  // "Your next game in…" for a waiting player: the next wave (every live.wave_seconds) pairs
  // them if someone free is neither them nor the one they just played (either way), as the
  // wave itself decides (games/tournaments/services.py, _choose_pairs).
  function renderNextGame(free, W, playing) {
    var node = document.getElementById("next-game");
    if (!node || !live.me) return;
    var mine = (free || []).filter(function (f) { return f[0] === live.me; })[0];
    var last = mine ? mine[1] : "";
    var partner = (free || []).some(function (f) { return f[0] !== live.me && f[0] !== last && f[1] !== live.me; });
    // Paired already (the wave's frame on its way): never "next game in about 2 s" beside "playing".
    var busy = (playing || []).some(function (g) { return g[1] === live.me || g[2] === live.me; });
    // Nobody new, but the one they just played is free too: the wave pairs them again after
    // REMATCH_AFTER_WAVES waves (games/tournaments/services.py), unless someone new comes.
    var rematch = last && (free || []).some(function (f) { return f[0] === last; });
    var text = busy ? W.paired : partner ? W.next_soon.replace("%(seconds)s", String(live.wave_seconds))
      : rematch ? W.next_rematch : W.next_wait;
    if (node.textContent !== text) node.textContent = text;
  }

  function goTo(url) {
    var status = document.getElementById("tournament-status");
    if (status) status.textContent = (live.words || {}).paired;
    location.assign(url);
  }

  function tournamentPage() {
    var W = live.words || {};
    var state = document.querySelector("[data-testid=tournament-state]");
    countdown();
    renderNextGame(live.free, W, null);
    if (live.my_match_url) { location.assign(live.my_match_url); return; } // a new game waits for them
    var leaving = false;
    onFrame(function (frame) {
      if (leaving || frame.id !== live.id) return;
      if (frame.type === "tournament_paired") {
        // The wave's frame, or the socket's word on connect: a game not begun takes the page
        // there; one under way (they came back to look) leaves them the button.
        if (frame.current && frame.ply > 0 && document.querySelector("[data-testid=my-game]")) return;
        if (frame.current && frame.ply > 0) { leaving = true; location.reload(); return; }
        leaving = true;
        goTo(frame.url);
        return;
      }
      if (frame.type === "tournament_me") {
        // The player's own line, after each (re)connect: their game now, or none (a stale
        // "your game is on" of a game that ended meanwhile goes).
        var button = document.querySelector("[data-testid=my-game]");
        if (frame.match && frame.ply === 0) { leaving = true; goTo(frame.url); }
        else if (!frame.match && button) { leaving = true; location.reload(); }
        return;
      }
      if (frame.type === "tournament_game_over") {
        if (document.querySelector("[data-testid=my-game]")) { leaving = true; location.reload(); }
        return;
      }
      if (frame.type !== "tournament") return;
      if (state && frame.status !== state.dataset.status) { leaving = true; location.reload(); return; } // it started or ended
      renderStandings(frame, W);
      renderPlaying(frame, W);
      renderNextGame(frame.free, W, frame.playing);
      var count = document.querySelector("[data-testid=player-count]");
      if (count) count.textContent = "(" + frame.count + ")";
      document.documentElement.dataset.standings = String(Date.now()); // for tests: a frame was drawn
    });
  }

  // -- an arena game's page (and a Swiss game's: #swiss-return, its own frames) ----------------

  function gamePage(back, pairedType, overType) {
    if (!back.player) return;
    var leaving = false;
    onFrame(function (frame) {
      if (frame.id !== back.id || leaving) return;
      if (frame.type === pairedType) {
        if (frame.url === location.pathname) return; // this very game (the socket's word on connect)
        leaving = true;
        location.assign(frame.url);
        return;
      }
      if (frame.type !== overType || (back.match && frame.match !== back.match)) return;
      leaving = true;
      var notice = document.getElementById("notice");
      if (notice) { notice.hidden = false; notice.textContent = back.words.going_back; }
      setTimeout(function () { location.assign(back.url); }, 3000);
    });
  }

  var swissBack = data("swiss-return");
  if (live) tournamentPage();
  else if (back) gamePage(back, "tournament_paired", "tournament_game_over");
  else if (swissBack) gamePage(swissBack, "swiss_paired", "swiss_game_over");
})();
