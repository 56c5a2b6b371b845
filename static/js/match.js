/* The live match page: one WebSocket per viewer (docs/protocol.md).
 *
 * The server is the authority. The first paint and every "state" frame carry
 * the whole match as data (the board itself is the server's SVG, in the page
 * or fetched over HTTP); a move frame carries what the move changed, and
 * board_patch.js applies it to the board shown. lastPly is the version:
 * frames older than it are dropped, a gap asks for a "sync" (a state frame),
 * and a reconnect (exponential backoff with jitter) syncs too.
 */
(function () {
  "use strict";

  var root = document.getElementById("match");
  if (!root) return;

  function readJSON(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  var snap = readJSON("match-snapshot");
  var page = readJSON("match-page") || {};
  var T = readJSON("match-strings") || {};
  var you = page.you || null;
  var settings = page.settings || {};
  var lowTime = typeof settings.low_time === "number" ? settings.low_time : 10;
  var lastPly = snap.ply;
  var clockOffset = offsetFrom(snap);
  var claimedPly = null;
  var lastFrame = null;
  var everConnected = false;

  var $ = function (id) { return document.getElementById(id); };
  var boardEl = $("board");
  // The position the board shows: [ply, live]; null while a fetched board is on its way.
  var boardShows = [snap.ply, snap.status === "active"];
  var boardLoading = false;

  function fmt(text, params) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (_, key) {
      return params && params[key] !== undefined ? params[key] : "";
    });
  }

  function offsetFrom(s) {
    // server time minus our time: the countdown runs on the server's clock.
    var server = Date.parse(s.server_now);
    return isNaN(server) ? 0 : server - Date.now();
  }

  function other(side) { return side === 1 ? 2 : 1; }
  function nameOf(side) {
    var p = snap.players[String(side)];
    return p ? p.name : "";
  }
  function active() { return snap.status === "active"; }
  function myTurn() { return you !== null && active() && snap.to_move === you; }

  // -- socket -----------------------------------------------------------------

  function setConn(state) {
    var el = $("conn");
    if (!el) return;
    el.dataset.state = state;
    el.textContent = T[state] || state;
  }

  // static/js/socket.js: the reconnect; 4404 (no such match) and 4401 (logged out) end it.
  var socket = window.kropkiSocket(page.ws_path, {
    name: "match", // window.kropkiFrames.match: the test hook (socket.js)
    stopCodes: [4404, 4401],
    connecting: function () { setConn(everConnected ? "offline" : "connecting"); },
    open: function () {
      everConnected = true;
      setConn("connected");
      send({ type: "sync" });
    },
    frame: function (frame) { onFrame(frame); },
    close: function () { setConn("offline"); },
    // the page is shown again: the heartbeat's sync at once (a pong, or the state it missed)
    wake: function () { if (snap.version) socket.send({ type: "sync", version: snap.version }); },
  });

  function send(frame) {
    if (socket.send(frame)) return true;
    showError({ message: T.offline });
    return false;
  }

  // A move made while the socket is not open (still connecting, or reconnecting) waits for
  // it: the state frame that answers the reconnect's sync says whether it still stands (the
  // same ply and still our turn); then it goes, else it is dropped (the board has moved on).
  var queuedMove = null;

  // -- frames -----------------------------------------------------------------

  function onFrame(frame) {
    // Chat frames (and chat refusals, marked "for": "chat") belong to static/js/chat.js.
    if (frame.type === "chat" || frame.type === "chat_history" || (frame.type === "error" && frame["for"] === "chat")) {
      document.dispatchEvent(new CustomEvent("kropki:chat", { detail: frame }));
      return;
    }
    if (frame.type === "error") {
      if (frame.code === "turn_not_expired") return; // our claim was early: the clock will try again
      showError(frame);
      return;
    }
    if (frame.type === "computer_busy") { // the fair queue is long: its move comes later (docs/protocol.md)
      if (frame.ply === lastPly) showError({ message: T.computer_busy });
      return;
    }
    if (frame.type === "computer_waits") { // the live-position guard holds its move (docs/fairplay.md)
      if (frame.ply === lastPly) showError({ message: frame.gave_up ? T.computer_gave_up : T.computer_waits });
      return;
    }
    if (frame.type === "pong" || typeof frame.ply !== "number") return;
    if (frame.type === "taken_back") { takenBack(frame); return; }
    var focused = keyboardFocus();
    var scoreBefore = scoreSum();
    var wasActive = active();
    var endedHere = false; // a state frame that brings the end (after a gap): its result is said too
    if (frame.type === "state") {
      if (!frame.snapshot) return;
      stateAsked = false; // answered (even if overtaken): a later gap may ask again
      // older than what we show (a newer frame overtook it), unless a takeback came since
      var newerTakeback = (frame.snapshot.takebacks_done || 0) > (snap.takebacks_done || 0);
      if (frame.ply < lastPly && !newerTakeback) return;
      if (newerTakeback) boardShows = [-1, false];
      endedHere = active() && frame.snapshot.status !== "active";
      snap = frame.snapshot; // authoritative: the whole match as data
      stateAsked = false;
    } else {
      if (!frame.match || frame.ply < lastPly) return; // an old frame
      var isMove = typeof frame.action === "number";
      if (isMove && frame.ply === lastPly) return; // a duplicate
      if (frame.ply > lastPly + (isMove ? 1 : 0)) {
        askState(); // a gap: we lack a move; the state frame brings the whole match
        return;
      }
      applyEvent(frame, isMove);
    }
    if (frame.type === "moved" || frame.type === "finished" || frame.type === "state") clearError();
    lastPly = frame.ply;
    lastFrame = frame;
    root.dataset.ply = String(lastPly);
    clockOffset = offsetFrom(snap);
    var noticeBefore = $("notice").textContent;
    render(frame, focused);
    announce(frame, endedHere, noticeBefore);
    sound(frame, endedHere, scoreBefore);
    if (wasActive && !active()) focusResult();
    if (frame.type === "state" && queuedMove) {
      var move = queuedMove;
      queuedMove = null;
      if (move.ply === lastPly && myTurn()) send(move);
    }
    if (frame.type === "rematch" && frame.match_url) {
      location.assign(frame.match_url);
    }
    arenaBerserk(frame);
  }

  // An arena's game (docs/tournaments.md): the berserk button goes once it may no longer be
  // used (one went berserk, moved, or the game is over), and the note says who went berserk
  // (the clock frame's "berserk"; its header brought the new deadline).
  function arenaBerserk(frame) {
    var form = $("berserk-form");
    var note = $("berserk-note");
    if (form && (!active() || (frame.type === "clock" && frame.berserk === you) ||
        (typeof frame.by === "number" && frame.by === you && !frame.by_timeout))) {
      form.remove();
    }
    if (!note || frame.type !== "clock" || typeof frame.berserk !== "number") return;
    var sides = note.dataset.sides || "";
    if (sides.indexOf(String(frame.berserk)) === -1) sides = (sides + frame.berserk).split("").sort().join("");
    note.dataset.sides = sides;
    note.textContent = " · " + T["berserk_" + sides];
    note.dataset.testid = "berserk-note";
    note.hidden = false;
  }

  // A committed change: the match's new header, and the move's effect on the board.
  function applyEvent(frame, isMove) {
    var wasActive = active();
    Object.keys(frame.match).forEach(function (key) { snap[key] = frame.match[key]; });
    snap.ply = frame.ply;
    if (isMove && frame.by_timeout) snap.clock_ends = (snap.clock_ends || []).concat([frame.by]);
    snap.result_text = resultText();
    // ratings are applied in the finishing transaction: the finished frame carries them
    if (frame.type === "finished") snap.rating_deltas = frame.rating_deltas || null;
    var svg = boardEl.querySelector("svg");
    var patchable = !boardLoading && svg && boardShows[0] === frame.ply - (isMove ? 1 : 0) &&
      window.KropkiBoard.canPatch(snap.game);
    if (isMove) {
      snap.moves.push(moveWords(frame));
      snap.movers = (snap.movers || []).concat([frame.by]);
      if (patchable) {
        window.KropkiBoard.applyMove(svg, snap.game, snap.view, frame, page.words);
      } else {
        askState(); // a board is on its way: the state frame brings the view that goes with the new ply
      }
    }
    if (!isMove && wasActive && !active() && !window.KropkiBoard.canPatch(snap.game)) {
      askState(); // ended without a move (resign, timeout...): the server redraws the board without targets
    }
    if (patchable) {
      boardShows = [snap.ply, boardShows[1]];
      if (wasActive && !active()) {
        window.KropkiBoard.finish(svg, snap.game, snap.view, page.words);
        boardShows[1] = false;
      }
    }
  }

  // A takeback (docs/protocol.md "Takeback"): the match went back to an earlier ply, the only
  // frame whose ply may be lower than ours. The header and the move list are cut back here; the
  // board and its view come with the state frame asked for (the board is fetched for that ply).
  function takenBack(frame) {
    if (!frame.match) return;
    var focused = keyboardFocus();
    var noticeBefore = $("notice").textContent;
    Object.keys(frame.match).forEach(function (key) { snap[key] = frame.match[key]; });
    snap.ply = frame.ply;
    snap.moves = (snap.moves || []).slice(0, frame.ply);
    snap.movers = (snap.movers || []).slice(0, frame.ply);
    lastPly = frame.ply;
    lastFrame = frame;
    root.dataset.ply = String(lastPly);
    clockOffset = offsetFrom(snap);
    boardShows = [-1, false]; // the board shown is of a later ply: fetch the one of this ply
    clearError();
    render(frame, focused);
    announce(frame, false, noticeBefore);
    stateAsked = false;
    askState();
  }

  var stateAsked = false;
  function askState() {
    if (stateAsked) return;
    stateAsked = true;
    send({ type: "sync" });
  }

  function resultText() {
    if (active()) return "";
    var key = snap.status + ":" + (snap.winner || 0) + ":" + (snap.end_reason || "");
    var text = (T.results && T.results[key]) || T.finished;
    if (snap.status !== "finished") return text;
    // Kropki: whose clock ended their game (games/display/snapshot.reason_text says the same)
    return [text].concat((snap.clock_ends || []).map(function (side) {
      return fmt(T.ran_out, { name: nameOf(side) });
    })).join(" ");
  }

  // A move as the move list shows it: Kropki's end in this page's language, and
  // an end the clock played says so (games/display/snapshot.move_words).
  function moveWords(frame) {
    if (frame.by_timeout) return T.move_timeout;
    if (frame.details && frame.details.ended) return T.move_end;
    // the game's own words for its notation (games/catalogue: Piłkarzyki's directions)
    return (T.notation && T.notation[frame.notation]) || frame.notation;
  }

  // The board for the position in snap, from the server's one renderer (after a
  // gap, a reconnect, a state frame): GET /partia/<id>/plansza/<ply>/ (cached).
  function boardUrl(ply, live) {
    // tb: the takebacks so far. The answer is cached as immutable, but a takeback makes a ply's
    // position another one (docs/protocol.md "Takeback"): a new address for each.
    return page.board_url.replace(/\/0\/$/, "/" + ply + "/") + "?live=" + (live ? 1 : 0) + "&lang=" + page.lang +
      (snap.takebacks_done ? "&tb=" + snap.takebacks_done : "");
  }

  function ensureBoard() {
    var want = [snap.ply, active()];
    if (boardLoading || (boardShows[0] === want[0] && boardShows[1] === want[1])) return;
    boardLoading = true;
    fetch(boardUrl(want[0], want[1]), { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("board " + response.status);
      return response.text();
    }).then(function (boardSvg) {
      boardLoading = false;
      if (snap.ply !== want[0]) { ensureBoard(); return; } // moved on meanwhile: the view is newer
      var focused = keyboardFocus();
      boardEl.innerHTML = boardSvg;
      boardShows = want;
      var svg = boardEl.querySelector("svg");
      if (want[1] && !active() && svg) { // finished while it came
        window.KropkiBoard.finish(svg, snap.game, snap.view, page.words);
        boardShows = [want[0], false];
      }
      prepareBoard();
      keepFocus(focused);
      renderSelected();
    }).catch(function () {
      boardLoading = false;
      setTimeout(ensureBoard, 1000);
    });
  }

  // noticeBefore: the notice shown before this frame. A state frame (after a gap, a
  // reconnect) says a notice only when it is new (the move that brought it went unheard).
  function announce(frame, endedHere, noticeBefore) {
    var text = "";
    if (!frame) return;
    if (endedHere) {
      text = [snap.result_text || T.finished, winnerLine()].concat(ratingLines()).filter(Boolean).join(" ");
    } else if (frame.type === "moved" && frame.notation) {
      text = fmt(T.moved, { name: nameOf(frame.by), move: moveWords(frame) });
    } else if (frame.type === "finished") {
      text = (frame.notation ? fmt(T.moved, { name: nameOf(frame.by), move: moveWords(frame) }) + " " : "") +
        [snap.result_text || T.finished, winnerLine()].concat(ratingLines()).filter(Boolean).join(" ");
    } else if (frame.type === "clock") {
      text = "";
    } else if (frame.type === "draw_offered") {
      text = fmt(T.draw_offered, { name: nameOf(frame.by) });
    } else if (frame.type === "draw_declined") {
      text = T.draw_declined;
    } else if (frame.type === "takeback_offered") {
      text = frame.by === you ? T.takeback_asked : fmt(T.takeback_offered, { name: nameOf(frame.by) });
    } else if (frame.type === "takeback_declined") {
      text = T.takeback_declined;
    } else if (frame.type === "taken_back") {
      text = fmt(T.taken_back, { name: nameOf(snap.to_move) });
    } else if (frame.type === "rematch_offered") {
      text = fmt(T.rematch_offered, { name: nameOf(frame.by) });
    } else if (frame.type === "rematch_declined") {
      text = T.rematch_declined;
    }
    // A lasting notice (a player has ended, the computer plays on alone) is said once, when it is
    // new; "move again" is said after each move that brings it.
    var notice = noticeText(frame);
    var again = againBy() !== null && frame.type !== "state";
    if (notice && (again || notice !== noticeBefore)) text += " " + notice;
    if (text) $("announce").textContent = text.trim();
  }

  // The sound of an event (static/js/sound.js; muted by the page's switch): a move, a capture
  // (a score went up: Kropki's enclosure, a closed box), the opponent's move that gives you the
  // turn, the end, and the start (the first state of a match of yours not yet moved in).
  var startSounded = false;
  function scoreSum() {
    return (snap.scores || []).reduce(function (sum, n) { return sum + (Number(n) || 0); }, 0);
  }
  function sound(frame, endedHere, scoreBefore) {
    var name = null;
    if (endedHere || frame.type === "finished") {
      name = "end";
    } else if (frame.type === "moved") {
      if (scoreSum() > scoreBefore) name = "capture";
      else if (frame.by !== you && myTurn()) name = "your_turn";
      else name = "move";
    } else if (frame.type === "state" && !startSounded && you !== null && active() && snap.ply === 0) {
      name = "start";
    }
    if (frame.type === "state") startSounded = true;
    if (name && window.KropkiSound) window.KropkiSound.play(name);
  }

  // The game ended here: the result takes the focus (the board's targets went with the end,
  // and the focus would fall to the page), unless the player is writing elsewhere (the chat).
  function focusResult() {
    var box = $("result");
    if (!box || box.hidden) box = $("after-match");
    if (!box || box.hidden) return;
    var at = document.activeElement;
    var elsewhere = at && at !== document.body && document.contains(at) &&
      !boardEl.contains(at) && !($("controls") && $("controls").contains(at));
    if (elsewhere) return;
    box.setAttribute("tabindex", "-1");
    box.focus();
  }

  // -- drawing ----------------------------------------------------------------

  // The target a keyboard user is on, and where it is on the screen (null for none,
  // or a mouse user's click): taken before a move changes the board.
  function keyboardFocus() {
    var focused = document.activeElement && document.activeElement.closest &&
      document.activeElement.closest("#board [data-action]");
    var keyboard = false;
    try { keyboard = !!focused && focused.matches(":focus-visible"); } catch (e) { keyboard = !!focused; }
    if (!focused || !keyboard) return null;
    return { action: focused.getAttribute("data-action"), at: centre(focused) };
  }

  function centre(el) {
    var r = el.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  }

  // The focused target went (its point was taken, the board was redrawn): the same action's
  // target if it is still there (a column, a direction), else the free target nearest to where
  // the focus was (Kropki, Kropki i kwadraty), so the next Enter plays near the last move.
  function keepFocus(focused) {
    if (!focused || boardEl.contains(document.activeElement)) return;
    var again = boardEl.querySelector('[data-action="' + focused.action + '"]');
    if (!again) {
      var best = Infinity;
      targets().forEach(function (t) {
        var c = centre(t), d = Math.pow(c[0] - focused.at[0], 2) + Math.pow(c[1] - focused.at[1], 2);
        if (d < best) { best = d; again = t; }
      });
    }
    if (again) { setRoving(again); again.focus(); }
  }

  // One row of the move list: "12. e4", the number as text (as the record page has it).
  // Each with its player's colour mark: players need not alternate (a bounce, a closed box, "end").
  function moveItem(number, notation, side) {
    var li = document.createElement("li");
    var colour = side === 1 ? "pink" : "blue";
    li.className = "by-" + colour;
    var no = document.createElement("span");
    no.className = "move-no";
    no.textContent = number + ".";
    li.appendChild(no);
    li.appendChild(document.createTextNode(" "));
    var mark = document.createElement("span");
    mark.className = "swatch swatch-" + colour;
    mark.setAttribute("role", "img");
    mark.setAttribute("aria-label", side === 1 ? T.pink : T.blue);
    li.appendChild(mark);
    li.appendChild(document.createTextNode(" " + notation));
    return li;
  }

  function render(frame, focused) {
    ensureBoard();
    prepareBoard();
    keepFocus(focused);
    renderSelected();

    // players, scores, whose turn
    [1, 2].forEach(function (side) {
      var el = root.querySelector('.player[data-side="' + side + '"]');
      if (!el) return;
      el.classList.toggle("to-move", active() && snap.to_move === side);
      el.classList.toggle("winner", snap.status === "finished" && snap.winner === side);
      var score = el.querySelector(".score");
      if (score) score.textContent = snap.scores[side - 1];
    });
    var turn = $("turn");
    if (!active()) turn.textContent = T.finished;
    else if (you !== null && !myTurn() && snap.bot_side === snap.to_move) turn.textContent = T.computer_thinks;
    else if (you !== null) turn.textContent = myTurn() ? T.your_turn : T.their_turn;
    else turn.textContent = fmt(T.turn_of, { name: nameOf(snap.to_move) });
    turn.classList.toggle("mine", myTurn());
    turn.classList.toggle("thinking", active() && you !== null && snap.bot_side === snap.to_move);

    // result banner
    var result = $("result");
    result.textContent = snap.result_text || "";
    result.hidden = !snap.result_text;

    renderAfter();

    // notices: extra move, early draw, Kropki's ended players
    var notice = $("notice");
    var text = noticeText(frame);
    notice.textContent = text;
    notice.hidden = !text;
    notice.classList.toggle("extra", againBy() !== null);

    // move list
    var list = $("moves");
    if (list && list.children.length !== snap.moves.length) {
      // Follow the newest move only if the reader was at the bottom (not reading back).
      var top = list.scrollTop;
      var follow = list.scrollHeight - top - list.clientHeight < 8;
      if (list.children.length + 1 !== snap.moves.length) list.innerHTML = "";
      var sides = snap.movers || [];
      snap.moves.slice(list.children.length).forEach(function (m) {
        list.appendChild(moveItem(list.children.length + 1, m, sides[list.children.length]));
      });
      list.scrollTop = follow ? list.scrollHeight : top;
    }
    renderControls();
    tick();
  }

  // After the end: the winner by name, the rating changes, and the links (the
  // template draws the same on a reload; games/views/match.py).
  function signed(d) { return d > 0 ? "+" + d : d < 0 ? "\u2212" + (-d) : "\u00b10"; }
  function winnerLine() {
    if (snap.status !== "finished" || !snap.winner) return "";
    return fmt(T.winner, { name: nameOf(snap.winner), colour: snap.winner === 1 ? T.pink : T.blue });
  }
  function ratingLines() {
    var deltas = snap.rating_deltas || {};
    return ["1", "2"].filter(function (side) { return deltas[side]; }).map(function (side) {
      var d = deltas[side];
      return fmt(T.rating_change, { name: nameOf(+side), delta: signed(d.delta), after: d.after + (d.provisional ? "?" : "") });
    });
  }
  function renderAfter() {
    var box = $("after-match");
    if (!box) return;
    box.hidden = active();
    var winner = $("result-winner");
    winner.textContent = winnerLine();
    winner.hidden = !winner.textContent;
    var list = $("rating-deltas");
    var lines = ratingLines();
    list.textContent = "";
    lines.forEach(function (line) {
      var li = document.createElement("li");
      li.textContent = line;
      list.appendChild(li);
    });
    list.hidden = !lines.length;
    // over before two moves each: no rating, no arena points, no statistics (the header's counts)
    var notCounted = $("not-counted");
    if (notCounted) notCounted.hidden = !(snap.status === "finished" && snap.counts === false);
  }

  // Who moves again (Kropki i kwadraty: a box closed; Piłkarzyki: a bounce): the player to
  // move made the last move too, in a game whose catalogue entry words it (again_words), or
  // null. Read from the snapshot alone, so a reload shows it too.
  function againBy() {
    var movers = snap.movers || [];
    if (!T.again_you || !active() || !movers.length) return null;
    return movers[movers.length - 1] === snap.to_move ? snap.to_move : null;
  }

  function noticeText(frame) {
    var again = againBy();
    if (again !== null) {
      return again === you ? T.again_you : fmt(T.again_other, { name: nameOf(again) });
    }
    var endNotice = (T.end_notices || {})[snap.end_reason];
    if (endNotice) return endNotice;
    if (page.has_end_action && snap.view && snap.view.ended) {
      var parts = [];
      snap.view.ended.forEach(function (ended, i) {
        if (!ended) return;
        var side = i + 1;
        var byClock = (snap.clock_ends || []).indexOf(side) !== -1;
        // each viewer's own point of view: the one who ended, the one who plays on (alone
        // against the computer, which is told so), a spectator
        if (side === you) {
          if (page.vs_computer) parts.push(byClock ? T.you_clock_ended_computer : T.you_ended_computer);
          else parts.push(byClock ? T.you_clock_ended : T.you_ended);
        } else if (you !== null) {
          parts.push(fmt(byClock ? T.clock_ended_you_play_on : T.ended_you_play_on, { name: nameOf(side) }));
        } else {
          parts.push(fmt(byClock ? T.clock_ended : T.ended, { name: nameOf(side) }));
        }
      });
      if (parts.length && active()) return parts.join(" ");
    }
    return "";
  }

  function prepareBoard(holder) {
    var svg = (holder || boardEl).querySelector("svg");
    if (!svg) return;
    var canPlay = myTurn();
    if (!holder) {
      boardEl.classList.toggle("preview-p1", you === 1);
      boardEl.classList.toggle("preview-p2", you === 2);
      showPreview();
    }
    if (you === null) {
      // spectators: the same picture, but nothing to press
      svg.classList.remove("interactive");
      svg.setAttribute("role", "img");
      Array.prototype.forEach.call(svg.querySelectorAll("[data-action]"), function (t) {
        t.removeAttribute("tabindex");
        t.removeAttribute("role");
        t.setAttribute("aria-hidden", "true");
      });
    } else {
      Array.prototype.forEach.call(svg.querySelectorAll("[data-action]"), function (t) {
        t.setAttribute("aria-disabled", canPlay ? "false" : "true");
      });
    }
  }

  function renderControls() {
    if (you === null) return;
    var isActive = active();
    var show = function (id, on) { var el = $(id); if (el) el.hidden = !on; };
    show("active-controls", isActive);
    var end = $("btn-end");
    if (end) end.disabled = !myTurn();
    var draw = $("btn-draw");
    if (draw) {
      draw.hidden = !!snap.bot_level;
      draw.disabled = snap.draw_offer !== null;
    }
    var takeback = $("btn-takeback");
    if (takeback) {
      var left = Math.max(0, (page.takebacks_per_player || 0) - ((snap.takebacks || [0, 0])[you - 1] || 0));
      // against the computer: once it has replied (games/play/takeback.py, takeback_wait)
      takeback.disabled = left === 0 || snap.takeback_offer === you || snap.ply === 0 ||
        (!!snap.bot_level && !myTurn());
      var leftNote = $("takebacks-left");
      if (leftNote) leftNote.textContent = fmt(T.takebacks_left, { n: left });
    }
    show("takeback-answer", isActive && snap.takeback_offer === other(you));
    show("takeback-pending", isActive && snap.takeback_offer === you);
    show("draw-answer", isActive && snap.draw_offer === other(you));
    show("draw-pending", isActive && snap.draw_offer === you);
    var canRematch = !isActive && !snap.rematch_id;
    show("rematch-controls", canRematch);
    show("rematch-offered", canRematch && snap.rematch_offer === other(you));
    show("rematch-pending", canRematch && snap.rematch_offer === you);
    var rematch = $("btn-rematch");
    if (rematch) {
      rematch.disabled = snap.rematch_offer === you;
      rematch.textContent = snap.rematch_offer === other(you) ? rematch.dataset.acceptLabel || rematch.textContent
        : rematch.dataset.offerLabel || rematch.textContent;
    }
  }

  // -- errors -----------------------------------------------------------------

  function clearError() { $("error").textContent = ""; }

  // A status word ("Your opponent's move") read as a sentence, so a screen reader does not
  // run it into the link after it.
  function sentence(text) {
    text = String(text || "").trim();
    return text && !/[.!?…:]$/.test(text) ? text + "." : text;
  }

  // A link out of the match page opens a new tab (the clock runs on here), and says so.
  function newTabLink(a) {
    a.target = "_blank";
    a.rel = "noopener";
    var note = document.createElement("span");
    note.className = "visually-hidden";
    note.textContent = " " + T.new_tab;
    a.appendChild(note);
    return a;
  }

  function showError(frame) {
    var box = $("error");
    box.textContent = "";
    var msg = document.createElement("span");
    msg.className = "error-text";
    msg.textContent = sentence(frame.message || frame.code || "");
    box.appendChild(msg);
    if (frame.code && frame.code !== "rate_limited") {
      var url = (page.rule_links && page.rule_links[frame.code]) || snap.rules_url;
      if (url && /^(off_board|occupied|inside_territory|column_full|segment_drawn|not_your_turn|player_has_ended|game_over|unknown_action|turn_expired)$/.test(frame.code) || (page.rule_links && page.rule_links[frame.code])) {
        box.appendChild(document.createTextNode(" "));
        var a = document.createElement("a");
        a.href = url;
        a.className = "error-rule";
        a.textContent = T.rule;
        box.appendChild(newTabLink(a));
      }
    }
  }

  // -- the clock --------------------------------------------------------------

  // Four times a second; the clock's text is written only when it changes (written every time, it
  // made the page lay itself out and paint four times a second while nothing moved).
  function showClock(clock, text) { if (clock.textContent !== text) clock.textContent = text; }
  function tick() {
    var clock = $("clock");
    if (!active() || !snap.deadline) {
      showClock(clock, "");
      clock.classList.remove("low");
      return;
    }
    var deadline = Date.parse(snap.deadline);
    var now = Date.now() + clockOffset;
    var ms = deadline - now;
    var secs = Math.max(0, Math.ceil(ms / 1000));
    showClock(clock, clockWords(secs));
    clock.classList.toggle("low", secs <= lowLimit(secs));
    warnLowTime(secs);
    var grace = (snap.grace_seconds || 0) * 1000;
    if (you !== null && snap.to_move !== you && ms <= -grace - 300 && claimedPly !== snap.ply) {
      claimedPly = snap.ply; // once per turn
      send({ type: "claim_timeout" });
    }
  }
  setInterval(tick, 250);

  // A live turn in seconds; a correspondence turn (days a move) in days and hours, or hours and
  // minutes in its last day.
  function clockWords(secs) {
    if (secs < 3600) return fmt(T.seconds, { s: secs });
    var hours = Math.floor(secs / 3600);
    if (hours >= 24) return fmt(T.days_hours, { d: Math.floor(hours / 24), h: hours % 24 });
    return fmt(T.hours_minutes, { h: hours, m: Math.floor((secs % 3600) / 60) });
  }

  // The low-time warning (the player's setting, default 10 s; 0: none): once a turn, at that
  // second of their own move, the time left is said in a polite live region and a short sound
  // plays if the player's sounds are on (settings.sound: the same switch as challenges) and
  // this device is not muted (the page's sound switch).
  // "Low" is the player's setting, or a third of the turn when the turn as first seen is short
  // (15 s at most) and no longer than that (issue 38: a berserk turn of 10 s was "low" from its first second), so a
  // short clock warns near its end, not at once.
  var warnedTurn = null;
  var turnSeen = { key: null, secs: 0 };
  function lowLimit(secs) {
    var key = snap.ply + "@" + snap.deadline;
    if (turnSeen.key !== key) turnSeen = { key: key, secs: secs };
    var low = lowTime || 10;
    // the player's own setting, unless the turn as first seen is short (15 s at most: a berserk
    // turn) and no longer than the setting: then a third of it
    var short = turnSeen.secs <= 15 && turnSeen.secs <= low;
    return short ? Math.max(1, Math.floor(turnSeen.secs / 3)) : low;
  }
  function warnLowTime(secs) {
    if (!lowTime || !myTurn() || secs <= 0 || secs > Math.min(lowTime, lowLimit(secs))) return;
    var turn = snap.ply + "@" + snap.deadline;
    if (warnedTurn === turn) return;
    warnedTurn = turn;
    $("clock-warning").textContent = fmt(T.low_time, { s: secs });
    if (settings.sound && window.KropkiSound) window.KropkiSound.play("low_time"); // static/js/sound.js
  }

  // A heartbeat: a frame lost on the way (a channel-layer drop, docs/reliability.md)
  // is noticed within seconds, not only at the next move. The server answers a
  // tiny "pong" while our version is current, else the whole state.
  setInterval(function () {
    if (socket.isOpen() && snap.version) send({ type: "sync", version: snap.version });
  }, 10000 + Math.floor(Math.random() * 2000));

  // -- input ------------------------------------------------------------------

  function targets() { return Array.prototype.slice.call(boardEl.querySelectorAll("[data-action]")); }
  function firstTarget() { return targets()[0] || null; }

  function setRoving(target) {
    targets().forEach(function (t) {
      if (t.getAttribute("tabindex") !== null) t.setAttribute("tabindex", t === target ? "0" : "-1");
    });
  }

  function play(target) {
    if (!target || you === null) return;
    if (!myTurn()) {
      showError({ code: "not_your_turn", message: T.not_your_turn });
      return;
    }
    var move = { type: "move", ply: lastPly, action: parseInt(target.getAttribute("data-action"), 10) };
    if (socket.isOpen()) { send(move); return; }
    queuedMove = move;
    showError({ message: T.move_queued });
  }

  // Tap to confirm (a game with small targets, games/catalogue tap_confirm): a tap selects a
  // point, a second tap on it plays. The player's setting: "auto" (on for a coarse pointer or
  // a narrow screen), "on" or "off"; the checkbox under the board changes it for this page, and
  // a guest's choice is remembered by this browser (localStorage).
  var TAP_KEY = "kropki.tapConfirm";
  var tapBox = $("tap-confirm");
  var selected = null; // the selected target's action
  function tapChoice() {
    var choice = settings.tap_confirm || "auto";
    if (settings.remember_locally) {
      try { choice = localStorage.getItem(TAP_KEY) || choice; } catch (e) { /* storage off: the default */ }
    }
    if (choice === "auto") {
      var media = window.matchMedia && (matchMedia("(pointer: coarse)").matches || matchMedia("(max-width: 40rem)").matches);
      return !!media;
    }
    return choice === "on";
  }
  var tapConfirm = !!page.tap_confirm && tapChoice();
  if (tapBox) {
    tapBox.checked = tapConfirm;
    tapBox.addEventListener("change", function () {
      tapConfirm = tapBox.checked;
      if (settings.remember_locally) {
        try { localStorage.setItem(TAP_KEY, tapConfirm ? "on" : "off"); } catch (e) { /* this page only */ }
      }
      select(null);
    });
  }
  function select(target) {
    selected = target ? target.getAttribute("data-action") : null;
    renderSelected();
  }
  function renderSelected() {
    var hint = $("tap-hint");
    var current = null;
    targets().forEach(function (t) {
      var on = selected !== null && t.getAttribute("data-action") === selected;
      t.classList.toggle("selected", on);
      if (on) current = t;
    });
    if (!current) selected = null;
    if (hint) hint.textContent = current ? fmt(T.tap_hint, { target: current.getAttribute("aria-label") || "" }) : "";
  }

  boardEl.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-action]");
    if (!target && event.detail !== 0) { // a pointer's click (a key's has no place)
      // pressed on the board drawn before, released on the one that replaced it: the browser
      // gives the click to what the two share (the holder), so the square is the one under it
      var under = document.elementFromPoint(event.clientX, event.clientY);
      target = under && under.closest && under.closest("[data-action]");
    }
    if (!target || !boardEl.contains(target)) return;
    if (tapConfirm && you !== null) {
      if (selected !== target.getAttribute("data-action")) { select(target); return; }
      select(null);
    }
    play(target);
  });

  // Piłkarzyki's keys (data-key-actions): the first press of a key points (focuses that
  // direction's target), the same key pressed again, with nothing in between and the board
  // unchanged, kicks. Focus alone is no sign of pointing: after a kick it lands on the same
  // direction's new target, and a first press there must point, not kick.
  var pointed = null; // {key, ply}: the key that pointed last, at which ply

  boardEl.addEventListener("keydown", function (event) {
    var target = event.target.closest && event.target.closest("[data-action]");
    if (!target) return;
    if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      pointed = null;
      play(target);
      return;
    }
    // A board may name an action per key (Piłkarzyki: the arrows, the keypad's and the top
    // row's digits for eight directions): the key points, the same key again plays it.
    var svg = boardEl.querySelector("svg");
    var keyActions = svg && svg.dataset && svg.dataset.keyActions ? JSON.parse(svg.dataset.keyActions) : null;
    if (keyActions) {
      var key = keyActions[event.code] !== undefined ? event.code : event.key;
      var action = keyActions[key];
      if (action !== undefined) {
        event.preventDefault();
        if (event.repeat) return; // a held key points once and never kicks
        var wanted = boardEl.querySelector('[data-action="' + action + '"]');
        if (!wanted) { pointed = null; return; } // no move that way
        if (wanted === target && pointed && pointed.key === key && pointed.ply === lastPly) {
          pointed = null;
          play(wanted);
        } else {
          setRoving(wanted);
          wanted.focus();
          pointed = { key: key, ply: lastPly };
        }
        return;
      }
    }
    pointed = null;
    var dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!dir) return;
    event.preventDefault();
    var col = +target.dataset.col, row = +target.dataset.row;
    var best = null, bestScore = Infinity;
    targets().forEach(function (t) {
      if (t === target) return;
      var dc = +t.dataset.col - col, dr = +t.dataset.row - row;
      var along = dc * dir[0] + dr * dir[1]; // distance in the arrow's direction
      if (along <= 0) return;
      var across = Math.abs(dc * dir[1]) + Math.abs(dr * dir[0]);
      var score = along + across * 4; // prefer the same row/column
      if (score < bestScore) { bestScore = score; best = t; }
    });
    if (best) { setRoving(best); best.focus(); }
  });

  // The preview of the player's dot, in their colour, on the point under the mouse and on the
  // focused one, on their turn only. Drawn here (the class "preview") rather than by CSS rules
  // keyed on a class of the board's holder that changes at every turn: such rules made Chromium
  // restyle the board's every target each turn (docs/performance.md).
  var pointed = null; // the target under the mouse
  function showPreview() {
    var focused = document.activeElement && document.activeElement.closest("[data-action]");
    var want = myTurn() ? [pointed, focused].filter(function (t) { return t && boardEl.contains(t); }) : [];
    Array.prototype.forEach.call(boardEl.querySelectorAll(".preview"), function (t) {
      if (want.indexOf(t) < 0) t.classList.remove("preview");
    });
    want.forEach(function (t) { t.classList.add("preview"); });
  }
  function targetOf(event) { return (event.target.closest && event.target.closest("[data-action]")) || null; }
  boardEl.addEventListener("focusin", showPreview);
  boardEl.addEventListener("focusout", function () { setTimeout(showPreview); }); // once the focus has moved
  boardEl.addEventListener("pointerover", function (event) {
    if (event.pointerType !== "mouse") return; // a touch has no hover: tap to confirm shows its choice
    pointed = targetOf(event);
    showPreview();
  });
  boardEl.addEventListener("pointerout", function (event) {
    if (event.pointerType !== "mouse" || targetOf(event) !== pointed) return;
    pointed = null;
    showPreview();
  });

  // -- buttons ----------------------------------------------------------------

  var dialog = $("confirm");
  function confirmThen(text, button, action) {
    if (dialog && typeof dialog.showModal === "function") {
      $("confirm-text").textContent = text;
      dialog.returnValue = "";
      dialog.onclose = function () {
        if (dialog.returnValue === "yes") action();
        button.focus();
      };
      dialog.showModal();
      return;
    }
    // No <dialog>: a second click within 4 s confirms.
    if (button.dataset.armed === "1") {
      button.dataset.armed = "";
      button.textContent = button.dataset.label;
      action();
      return;
    }
    button.dataset.label = button.textContent;
    button.dataset.armed = "1";
    button.textContent = T.sure;
    setTimeout(function () {
      button.dataset.armed = "";
      button.textContent = button.dataset.label;
    }, 4000);
  }

  function on(id, fn) { var el = $(id); if (el) el.addEventListener("click", function () { fn(el); }); }
  on("btn-resign", function (b) { confirmThen(T.confirm_resign, b, function () { send({ type: "resign" }); }); });
  on("btn-end", function (b) {
    confirmThen(T.confirm_end, b, function () { send({ type: "end", ply: lastPly }); });
  });
  on("btn-draw", function (b) { confirmThen(T.confirm_draw, b, function () { send({ type: "draw_offer" }); }); });
  on("btn-draw-accept", function () { send({ type: "draw_answer", accept: true }); });
  on("btn-draw-decline", function () { send({ type: "draw_answer", accept: false }); });
  on("btn-takeback", function () { send({ type: "takeback" }); });
  on("btn-takeback-accept", function () { send({ type: "takeback_answer", accept: true }); });
  on("btn-takeback-decline", function () { send({ type: "takeback_answer", accept: false }); });
  on("btn-rematch", function () { send({ type: "rematch_offer" }); });
  on("btn-rematch-decline", function () { send({ type: "rematch_decline" }); });
  var berserkForm = $("berserk-form");
  if (berserkForm) {
    berserkForm.addEventListener("submit", function (event) {
      event.preventDefault(); // on the match socket, no page reload; the clock frame answers
      send({ type: "berserk" });
    });
  }

  render(null);
  var moveList = $("moves");
  if (moveList) moveList.scrollTop = moveList.scrollHeight;  // start at the newest move
  socket.connect();
  // for tests and debugging: the last frame and ply this page drew, and the
  // server's fresh picture of the position shown (prepared as the page prepares its own)
  root.dataset.ply = String(lastPly);
  root.dataset.ready = "1";
  window.kropkiMatch = {
    // static/js/chat.js sends its frames on this page's socket (false when it is not open)
    sendChat: function (frame) { return socket.isOpen() && send(frame); },
    ply: function () { return lastPly; },
    frame: function () { return lastFrame; },
    boardReady: function () { return !boardLoading && boardShows[0] === snap.ply && boardShows[1] === active(); },
    freshBoard: function () {
      return fetch(boardUrl(snap.ply, active())).then(function (r) { return r.text(); }).then(function (boardSvg) {
        var holder = document.createElement("div");
        holder.innerHTML = boardSvg;
        prepareBoard(holder);
        return holder.innerHTML;
      });
    },
  };
})();
