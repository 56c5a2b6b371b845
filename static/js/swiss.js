/* A Swiss tournament live (docs/tournaments.md "Swiss", docs/protocol.md "Site socket").
 *
 * On the tournament's page (#swiss-live): the countdown (#swiss-countdown: to the start or the
 * next round) ticks here, and every `swiss` frame the site socket pushes (site.js asks for them
 * with `watch_swiss`, for any visitor) redraws the standings, the current round's boards, the
 * round line and the countdown without a reload (the page reloads only when the tournament
 * starts or ends: its buttons change). `swiss_paired` takes the player to their game. Only while
 * the site socket is down does the page ask for the JSON state (#swiss-live's `state`) every 5 s.
 * A Swiss game's page goes back to the tournament on `swiss_game_over` (static/js/tournament.js,
 * #swiss-return: the arena's way, after 3 s).
 * Names are written with textContent only.
 */
(function () {
  "use strict";

  function data(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function el(tag, text) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function fmt(text, params) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (_, key) {
      return params && params[key] !== undefined ? params[key] : "";
    });
  }

  function onFrame(handler) {
    document.addEventListener("kropki:site-frame", function (event) { handler(event.detail || {}); });
  }

  // 1.5 -> "1½", 0.25 -> "¼" (the page's own writing of points)
  function points(value) {
    var whole = Math.floor(value + 1e-9);
    var part = { 0: "", 1: "¼", 2: "½", 3: "¾" }[Math.round((value - whole) * 4)] || "";
    return whole || !part ? whole + part : part;
  }

  var live = data("swiss-live");

  // -- the tournament's page -------------------------------------------------------------

  function tournamentPage() {
    var W = live.words || {};
    var state = document.getElementById("swiss-state");
    var countdown = document.querySelector("#swiss-countdown [data-until]");
    var status = document.getElementById("swiss-status");
    var leaving = false;

    function drawStandings(frame) {
      var body = document.getElementById("swiss-standings");
      if (!body) return;
      body.textContent = "";
      (frame.standings || []).forEach(function (line, i) {
        var row = el("tr");
        row.appendChild(el("td", String(i + 1))).className = "num";
        var who = el("td");
        if (line.name === null) {
          who.textContent = W.deleted;
        } else {
          var link = el("a", line.name);
          link.href = live.profile + encodeURIComponent(line.name) + "/";
          who.appendChild(link);
        }
        if (line.withdrawn) {
          who.appendChild(document.createTextNode(" "));
          who.appendChild(el("span", "(" + W.withdrawn + ")")).className = "muted";
        }
        row.appendChild(who);
        [line.score, line.sonneborn_berger, line.buchholz].forEach(function (value) {
          row.appendChild(el("td", points(value))).className = "num";
        });
        body.appendChild(row);
      });
    }

    function drawRound(frame) {
      var box = document.getElementById("swiss-rounds");
      if (!box || !frame.round || !(frame.boards || []).length) return;
      var block = el("div");
      block.dataset.round = String(frame.round);
      block.appendChild(el("h3", fmt(W.round, { round: frame.round })));
      var list = el("ol");
      list.className = "live-matches";
      frame.boards.forEach(function (b) {
        var item = el("li");
        if (b.kind === "bye") {
          item.textContent = b.pink + " — " + W.bye;
        } else {
          var link = el("a", b.pink + " – " + b.blue);
          if (b.match) {
            link.href = live.match_prefix + b.match + "/";
            item.appendChild(link);
          } else {
            item.textContent = b.pink + " – " + b.blue;
          }
        }
        if (b.result && b.blue !== null) {
          item.appendChild(document.createTextNode(" "));
          var result = points(b.result[0]) + ":" + points(b.result[1]);
          item.appendChild(el("span", b.kind === "forfeit" ? result + " (" + W.forfeit + ")" : result)).className = "muted";
        }
        list.appendChild(item);
      });
      block.appendChild(list);
      var old = box.querySelector('[data-round="' + frame.round + '"]');
      if (old) box.replaceChild(block, old);
      else box.insertBefore(block, box.firstChild);
      var none = document.getElementById("swiss-no-round");
      if (none) none.remove();
    }

    function draw(frame) {
      if (leaving || frame.id !== live.id) return;
      if (state && frame.status !== state.dataset.status) { leaving = true; location.reload(); return; } // it started or ended
      var round = state ? state.dataset.round : null;
      if (state && frame.status === "running") {
        state.textContent = fmt(W.round_of, { round: frame.round, rounds: frame.rounds });
        state.dataset.round = String(frame.round);
      }
      drawStandings(frame);
      drawRound(frame);
      if (countdown) {
        countdown.dataset.until = frame.next_round_at || (frame.status === "upcoming" ? countdown.dataset.until : "");
        document.getElementById("swiss-countdown").hidden = !countdown.dataset.until;
        tick();
      }
      if (status && round !== null && round !== String(frame.round)) status.textContent = state.textContent;
      document.documentElement.dataset.swissDrawn = String(Date.now()); // for tests: a frame was drawn
    }

    onFrame(function (frame) {
      if (leaving || frame.id !== live.id) return;
      if (frame.type === "swiss") { draw(frame); return; }
      if (frame.type !== "swiss_paired" || !frame.url) return;
      // The pairing's frame, or the socket's word on connect (`current`): a game not begun takes
      // the page there; one under way (they came back to look) leaves them the header's link.
      if (frame.current && frame.ply > 0) return;
      leaving = true;
      location.assign(frame.url);
    });

    function tick() {
      if (!countdown || !countdown.dataset.until) return;
      var left = Math.max(0, Math.round((Date.parse(countdown.dataset.until) - Date.now()) / 1000));
      countdown.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    }

    // The fallback: the JSON state while the site socket is not connected.
    function poll() {
      if (document.documentElement.dataset.site === "connected") return;
      fetch(live.state, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (frame) { if (frame) draw(frame); })
        .catch(function () {});
    }

    tick();
    setInterval(tick, 1000);
    setInterval(poll, 5000);
  }

  if (live) tournamentPage();
})();
