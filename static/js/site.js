/* The site socket of a logged-in page (docs/protocol.md "Site socket"): one per tab.
 *
 * It keeps the user online while the tab is open, shows direct challenges on any page
 * (accept / decline, a sound and a flashing title when the settings allow), tells the
 * challenger the answer, and, on the lobby, keeps the list of players online current.
 * The server pushes; nothing here polls. A closed socket reconnects with the match
 * page's back-off (min(8 s, 0.5 s × 2^attempt), jittered), except after 4401 (logged out).
 * Every name is written with textContent: a name is text, never markup.
 */
(function () {
  "use strict";

  var cfgEl = document.getElementById("site-config");
  var region = document.getElementById("site-notices");
  if (!cfgEl || !("WebSocket" in window)) return;
  var cfg = JSON.parse(cfgEl.textContent);
  // A visitor not logged in (or a guest) opens a watcher's socket (issue 38), and only on a page
  // that follows something: the lobby's list, an arena's standings, a Swiss tournament, a
  // record whose computer review is queued or running.
  var homeLive = document.getElementById("home-live");
  var swissLive = document.getElementById("swiss-live");
  var analysisLive = document.querySelector("[data-analysis-watch]");
  if (cfg.watcher) {
    if (!document.getElementById("online-list") && !document.getElementById("tournament-live") && !homeLive && !swissLive && !analysisLive) return;
  } else if (!region) {
    return;
  }
  var T = cfg.t || {};
  var challenges = {}; // id -> {card, timer, left, own, name, incoming}
  var lastSentTo = null;
  var players = null;
  var onlineList = document.getElementById("online-list");
  var onlineVariant = document.getElementById("online-variant");
  var baseTitle = document.title;
  var flashTimer = null;

  function fmt(text, params) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (_, key) {
      return params && params[key] !== undefined ? params[key] : "";
    });
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // -- socket -----------------------------------------------------------------

  // static/js/socket.js: the reconnect; 4401 (logged out) ends it.
  var socket = window.kropkiSocket(cfg.ws_path, {
    name: "site", // window.kropkiFrames.site: the test hook (socket.js)
    stopCodes: [4401],
    open: function () {
      document.documentElement.dataset.site = "connected";
      if (onlineList) send({ type: "watch_online" });
      if (homeLive) send({ type: "watch_home" }); // the home page's "Right now" (issue 38)
      // An arena's page follows its standings (static/js/tournament.js draws them).
      var arena = document.getElementById("tournament-live");
      if (arena) {
        var key = new URLSearchParams(location.search).get("klucz");
        send(key ? { type: "watch_tournament", id: JSON.parse(arena.textContent).id, key: key }
                 : { type: "watch_tournament", id: JSON.parse(arena.textContent).id });
      }
      // A Swiss tournament's page follows its state (static/js/swiss.js draws it).
      if (swissLive) {
        var swissKey = new URLSearchParams(location.search).get("klucz");
        var swissId = JSON.parse(swissLive.textContent).id;
        send(swissKey ? { type: "watch_swiss", id: swissId, key: swissKey } : { type: "watch_swiss", id: swissId });
      }
      // A record whose review is under way: its progress (games/review/static/analysis.js shows it).
      if (analysisLive) send({ type: "watch_analysis", match: parseInt(analysisLive.getAttribute("data-match"), 10) });
    },
    frame: function (frame) { onFrame(frame); },
    close: function () { document.documentElement.dataset.site = "offline"; },
  });

  function send(frame) {
    if (socket.send(frame)) return true;
    message(T.offline, "site-error");
    return false;
  }

  function onFrame(frame) {
    switch (frame.type) {
      case "online": players = frame.players || []; renderOnline(); break;
      case "home": renderHome(frame); break;
      case "challenge_received": incoming(frame); break;
      case "notification": notified(frame); break;
      case "challenge_sent": outgoing(frame); break;
      case "challenge_accepted": accepted(frame); break;
      case "challenge_declined": finished(frame.id, T.declined, "declined"); break;
      case "challenge_cancelled": finished(frame.id, T.cancelled, "cancelled"); break;
      case "challenge_expired": finished(frame.id, T.expired, "expired"); break;
      case "tournament_paired": paired(frame); break;
      case "tournament_game_over": gameOver(frame); break;
      case "swiss_paired": paired(frame); break; // a Swiss round's pairing: the same ways to the game
      case "swiss_game_over": gameOver(frame); break;
      case "error": lastSentTo = null; message(frame.message || frame.code, "site-error", frame.code); break;
      // Frames for one page's own script (an analysis' progress: games/review/static/analysis.js).
      default: document.dispatchEvent(new CustomEvent("kropki:site-frame", { detail: frame })); break;
    }
  }

  // An arena paired the player (the wave's frame), or a Swiss round did (`swiss_paired`), or the
  // socket learned on connect that their tournament game is on (`current`): the tournament's
  // pages go there by themselves (static/js/tournament.js, static/js/swiss.js);
  // any page shows the way to it in the header, and the wave's frame also a notice with a link.
  var gameLink = document.getElementById("site-game");

  function paired(frame) {
    document.dispatchEvent(new CustomEvent("kropki:site-frame", { detail: frame }));
    if (gameLink && location.pathname !== frame.url) {
      gameLink.href = frame.url;
      gameLink.dataset.match = String(frame.match);
      gameLink.hidden = false;
    }
    if (frame.current || document.getElementById("tournament-live") || document.getElementById("tournament-return")) return;
    if (swissLive || document.getElementById("swiss-return")) return;
    var card = message(fmt(T.tournament_paired, { name: frame.name }), "tournament-paired");
    var link = el("a", "button", T.open_match);
    link.href = frame.url;
    card.insertBefore(link, card.lastChild);
    if (cfg.sound) beep();
  }

  function gameOver(frame) {
    document.dispatchEvent(new CustomEvent("kropki:site-frame", { detail: frame }));
    if (gameLink && (!frame.match || gameLink.dataset.match === String(frame.match))) gameLink.hidden = true;
  }

  // -- notices ------------------------------------------------------------------

  function message(text, testid, code) {
    var card = el("div", "notice-card notice-message");
    card.dataset.testid = testid || "site-message";
    if (code) card.dataset.code = code;
    card.appendChild(el("p", null, text));
    var close = el("button", "secondary", T.close);
    close.type = "button";
    close.addEventListener("click", function () { card.remove(); });
    card.appendChild(close);
    if (!region) return card; // a watcher's page has no notices
    region.appendChild(card);
    setTimeout(function () { card.remove(); }, 15000);
    return card;
  }

  function details(frame, forTarget) {
    var colour = frame.colour;
    if (forTarget && colour !== "random") colour = colour === "pink" ? "blue" : "pink"; // the challenger's colour
    var words = colour === "pink" ? T.you_pink : colour === "blue" ? T.you_blue : T.colour_random;
    var variant = (cfg.variants || {})[frame.variant] || frame.variant;
    var own = frame.options ? " · " + frame.options : ""; // a casual game's own settings, worded by the server
    if (frame.days) own += " · " + (frame.days === 1 ? T.corr_day : fmt(T.corr_days, { n: frame.days }));
    return variant + own + " · " + (frame.rated ? T.rated : T.casual) + " · " + words;
  }

  function countdown(id) {
    var entry = challenges[id];
    entry.timer = setInterval(function () {
      entry.left -= 1;
      if (entry.left <= 0) { finished(id, T.expired, "expired"); return; }
      entry.clock.textContent = fmt(T.seconds_left, { n: entry.left });
    }, 1000);
  }

  // The countdown ticks for the eyes only (a live region would read out every second);
  // a screen reader hears the time left once, with the notice.
  function timeLeft(c, seconds) {
    var text = fmt(T.seconds_left, { n: seconds });
    var spoken = el("p", "visually-hidden", text);
    var clock = el("p", "muted notice-clock", text);
    clock.setAttribute("aria-hidden", "true");
    c.appendChild(spoken);
    c.appendChild(clock);
    return clock;
  }

  function card(id, testid) {
    var c = el("div", "notice-card");
    c.dataset.testid = testid;
    c.dataset.challenge = String(id);
    c.dataset.state = "waiting";
    return c;
  }

  // -- notifications (games/notifications): the header's unread count, and a new line as a notice

  function notified(frame) {
    var link = document.querySelector("[data-testid=notify-link]");
    if (!link) return;
    var count = link.querySelector("[data-notify-count]");
    var label = link.querySelector("[data-notify-label]");
    var unread = Number(frame.unread) || 0;
    count.textContent = unread > 99 ? "99+" : String(unread);
    count.hidden = unread === 0;
    label.textContent = unread ? link.dataset.unreadLabel + " " + unread : link.dataset.label;
    if (frame.text && frame.kind !== "challenge" && region) { // a challenge has its own card
      var c = card("notification-" + Date.now(), "notification-notice");
      var a = el("a", null, frame.text);
      a.href = frame.url || "/";
      c.appendChild(a);
      region.appendChild(c);
      setTimeout(function () { if (c.parentNode) c.parentNode.removeChild(c); }, 8000);
    }
  }

  function incoming(frame) {
    if (challenges[frame.id]) return;
    var c = card(frame.id, "challenge-notice");
    var head = el("p", "notice-title");
    var strong = el("strong", null, fmt(T.incoming, { name: frame.from }));
    head.appendChild(strong);
    c.appendChild(head);
    c.appendChild(el("p", null, details(frame, true)));
    var clock = timeLeft(c, frame.seconds);
    var buttons = el("div", "notice-buttons");
    var yes = el("button", null, T.accept);
    yes.type = "button";
    yes.dataset.testid = "challenge-accept";
    var no = el("button", "secondary", T.decline);
    no.type = "button";
    no.dataset.testid = "challenge-decline";
    yes.addEventListener("click", function () {
      challenges[frame.id].own = true; // this tab goes to the match
      send({ type: "challenge_answer", id: frame.id, accept: true });
    });
    no.addEventListener("click", function () { send({ type: "challenge_answer", id: frame.id, accept: false }); });
    buttons.appendChild(yes);
    buttons.appendChild(no);
    c.appendChild(buttons);
    region.appendChild(c);
    challenges[frame.id] = { card: c, clock: clock, left: frame.seconds, own: false, name: frame.from, incoming: true };
    countdown(frame.id);
    alertUser();
  }

  function outgoing(frame) {
    if (challenges[frame.id]) return;
    var own = lastSentTo !== null && lastSentTo === String(frame.to).toLowerCase();
    if (own) lastSentTo = null;
    var c = card(frame.id, "challenge-waiting");
    c.appendChild(el("p", "notice-title", fmt(T.waiting, { name: frame.to })));
    c.appendChild(el("p", null, details(frame, false)));
    var clock = timeLeft(c, frame.seconds);
    var withdraw = el("button", "secondary", T.cancel);
    withdraw.type = "button";
    withdraw.dataset.testid = "challenge-cancel";
    withdraw.addEventListener("click", function () { send({ type: "challenge_cancel", id: frame.id }); });
    c.appendChild(withdraw);
    region.appendChild(c);
    challenges[frame.id] = { card: c, clock: clock, left: frame.seconds, own: own, name: frame.to, incoming: false };
    countdown(frame.id);
  }

  function settle(id, text, state) {
    var entry = challenges[id];
    if (!entry) return null;
    clearInterval(entry.timer);
    var c = entry.card;
    while (c.firstChild) c.removeChild(c.firstChild);
    c.dataset.state = state;
    c.appendChild(el("p", null, text));
    stopFlash();
    return entry;
  }

  function finished(id, text, state) {
    var entry = challenges[id];
    if (!entry || entry.card.dataset.state !== "waiting") return;
    settle(id, text, state);
    var close = el("button", "secondary", T.close);
    close.type = "button";
    close.addEventListener("click", function () { entry.card.remove(); });
    entry.card.appendChild(close);
    setTimeout(function () { entry.card.remove(); }, 15000);
  }

  function accepted(frame) {
    var entry = challenges[frame.id];
    if (!entry) return;
    var own = entry.own;
    settle(frame.id, T.accepted, "accepted");
    var link = el("a", null, T.open_match);
    link.href = frame.match_url;
    link.dataset.testid = "challenge-match-link";
    entry.card.appendChild(link);
    if (own) location.assign(frame.match_url); // the tab that sent or accepted it goes to the match
  }

  // -- sound and title ------------------------------------------------------------

  function alertUser() {
    if (cfg.sound) beep();
    if (cfg.title_flash && !flashTimer) {
      var on = false;
      flashTimer = setInterval(function () {
        on = !on;
        document.title = on ? T.title_flash + " · " + baseTitle : baseTitle;
      }, 1000);
    }
  }

  function stopFlash() {
    var waiting = Object.keys(challenges).some(function (id) {
      return challenges[id].incoming && challenges[id].card.dataset.state === "waiting";
    });
    if (waiting || !flashTimer) return;
    clearInterval(flashTimer);
    flashTimer = null;
    document.title = baseTitle;
  }

  function beep() {
    if (window.KropkiSound) window.KropkiSound.play("challenge"); // static/js/sound.js (muted per device)
  }

  // -- challenge forms ------------------------------------------------------------

  function challengeWith(form, to) {
    var data = new FormData(form);
    lastSentTo = String(to).toLowerCase();
    send({
      type: "challenge",
      to: to,
      variant: String(data.get("variant") || ""),
      rated: data.get("rated") === "on" || data.get("mode") === "rated",
      colour: String(data.get("colour") || "random"),
      options: window.KropkiOptions ? window.KropkiOptions.values(form) : {}, // static/js/app.js
      days: data.get("days") ? Number(data.get("days")) : null, // correspondence
    });
  }

  document.querySelectorAll("form[data-direct-challenge]").forEach(function (form) {
    form.hidden = false;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var to = form.querySelector("[data-challenge-to]");
      if (to) challengeWith(form, to.textContent);
    });
  });

  // -- the lobby's list of players online ------------------------------------------

  var onlineOptions = document.getElementById("online-options");
  if (onlineOptions) onlineOptions.hidden = false;
  if (onlineVariant) onlineVariant.addEventListener("change", renderOnline);

  function renderOnline() {
    if (!onlineList || !players) return;
    var variant = onlineVariant ? onlineVariant.value : Object.keys(cfg.variants || {})[0];
    var items = [];
    players.forEach(function (p) {
      var li = el("li", "online-player");
      li.dataset.testid = "online-player";
      li.dataset.name = p.name;
      var link = el("a", null, p.name);
      link.href = cfg.profile_prefix + encodeURIComponent(p.name) + "/";
      if (p.bot) li.appendChild(el("span", "badge bot-badge", "BOT"));  // an engine's account (docs/api.md)
      li.appendChild(link);
      li.appendChild(el("span", "online-rating", (p.ratings || {})[variant] || ""));
      if (p.in_match) li.appendChild(el("span", "badge", T.in_match));
      if (p.name === cfg.me) {
        li.appendChild(el("span", "muted", T.you));
      } else if (onlineOptions) {
        var button = el("button", "secondary small", T.challenge);
        button.type = "button";
        button.setAttribute("aria-label", fmt(T.challenge_name, { name: p.name }));
        button.dataset.testid = "online-challenge";
        button.addEventListener("click", function () { challengeWith(onlineOptions, p.name); });
        li.appendChild(button);
      }
      items.push(li);
    });
    while (onlineList.firstChild) onlineList.removeChild(onlineList.firstChild);
    items.forEach(function (li) { onlineList.appendChild(li); });
    var empty = document.getElementById("online-empty");
    if (empty) empty.hidden = players.some(function (p) { return p.name !== cfg.me; });
  }

  // -- the home page's "Right now" ---------------------------------------------------

  function renderHome(frame) {
    if (!homeLive) return;
    document.getElementById("playing-count").textContent = String(frame.playing);
    document.getElementById("watching-count").textContent = String(frame.watching);
    var box = document.getElementById("home-live-list");
    var matches = frame.matches || [];
    var list = el(matches.length ? "ul" : "p", matches.length ? "live-matches" : "muted");
    if (!matches.length) list.textContent = T.no_live || "";
    matches.forEach(function (m) { // [url, variant key, pink, blue]
      var li = el("li");
      var a = el("a", null, m[2] + " – " + m[3]);
      a.href = m[0];
      li.appendChild(a);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("span", "muted", "· " + ((cfg.variants || {})[m[1]] || m[1]))); // as the page draws it
      list.appendChild(li);
    });
    box.textContent = "";
    box.appendChild(list);
    homeLive.dataset.drawn = String(Date.now()); // for tests: a frame was drawn
  }

  socket.connect();
})();
