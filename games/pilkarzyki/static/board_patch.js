/* pilkarzyki's live board patch: applies a move frame to the SVG games/pilkarzyki/board.py
 * drew (static/js/board_patch.js loads none of the games' patches; the match page
 * loads this one after it, named by the game's spec: GameSpec.board_script). */
(function () {
  "use strict";

  var lib = window.KropkiBoard.lib;
  var num = lib.num, el = lib.el, cap = lib.cap, playerName = lib.playerName, columnName = lib.columnName;

  // -- Piłkarzyki ---------------------------------------------------------------

  var P_STEP = 30, P_MARGIN = 26, P_HIGHLIGHT = "#1b5e20";
  var P_DIRECTIONS = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]];
  function pxy(x, y) { return [P_MARGIN + x * P_STEP, P_MARGIN + (y + 1) * P_STEP]; }
  function pointName(p) { return columnName(p[0]) + (p[1] + 1); }

  // games/pilkarzyki/engine.py turn_path: the points of the mover's turn so far (the
  // trailing moves by one player: a bounce keeps the turn), or the ball alone once
  // the turn has passed; the whole last turn once the game is over.
  function pTurn(view, toMove) {
    var segs = view.segments, last = segs[segs.length - 1], mover = last[4], first = segs.length - 1;
    if (toMove !== null && toMove !== mover) return [view.ball.slice()];
    while (first > 0 && segs[first - 1][4] === mover) first--;
    var path = [[segs[first][0], segs[first][1]]];
    for (var i = first; i < segs.length; i++) path.push([segs[i][2], segs[i][3]]);
    return path;
  }

  function pilkarzykiMove(svg, view, frame, colours, w) {
    var d = frame.details, p = frame.by, toMove = frame.match.to_move;
    var seg = d.segment, a = pxy(seg[0], seg[1]), b = pxy(seg[2], seg[3]);
    var group = svg.querySelector(".segments");
    var previous = group.querySelector(".last");
    if (previous) previous.setAttribute("class", previous.getAttribute("class").replace(/ last$/, ""));
    group.appendChild(el("line", ["class", "segment p" + p + " last", "x1", a[0], "y1", a[1], "x2", b[0], "y2", b[1],
      "stroke", colours[p].ink, "stroke-width", 2.2, "stroke-linecap", "round",
      "stroke-dasharray", p === 2 ? "5 3" : null]));
    view.segments.push([seg[0], seg[1], seg[2], seg[3], p]);
    view.ball = d.to.slice();
    view.legal = d.legal || [];
    view.moves_again = !!d.extra_move;
    view.turn = pTurn(view, toMove);
    var old = svg.querySelector(":scope > .turn-path");
    if (old) old.remove();
    var ball = svg.querySelector(":scope > .ball");
    if (view.turn.length > 1) {
      var pts = view.turn.map(function (q) { var c = pxy(q[0], q[1]); return num(c[0]) + "," + num(c[1]); }).join(" ");
      ball.before(el("polyline", ["class", "turn-path", "points", pts, "fill", "none", "stroke", P_HIGHLIGHT,
        "stroke-width", 6, "stroke-opacity", 0.35, "stroke-linejoin", "round", "stroke-linecap", "round"]));
    }
    var c = pxy(view.ball[0], view.ball[1]);
    ball.replaceWith(el("circle", ["class", "ball" + (view.moves_again ? " moves-again" : ""), "cx", c[0], "cy", c[1],
      "r", 7, "fill", "#fff", "stroke", view.moves_again && toMove !== null ? P_HIGHLIGHT : "#111",
      "stroke-width", 3]));
    var targets = svg.querySelector(":scope > .targets");
    if (!targets) return;
    while (targets.firstChild) targets.firstChild.remove();
    var dirs = w.dirs.split("|");
    view.legal.forEach(function (action) {
      var q = [view.ball[0] + P_DIRECTIONS[action][0], view.ball[1] + P_DIRECTIONS[action][1]], t = pxy(q[0], q[1]);
      var g = el("g", ["class", "target", "data-action", action, "data-col", q[0], "data-row", q[1], "role", "button",
        "tabindex", "0", "aria-label", w.direction + " " + dirs[action] + " (" + pointName(q) + ")"]);
      g.appendChild(el("circle", ["cx", t[0], "cy", t[1], "r", P_STEP / 2.2, "fill", "#000", "fill-opacity", 0, "class", "hit"]));
      targets.appendChild(g);
    });
  }

  function pilkarzykiDescribe(view, w) {
    var parts = [w.names.pilkarzyki + ", " + w.field + " " + view.width + "×" + view.length + "."];
    parts.push(cap(w.ball) + ": " + pointName(view.ball) + ".");
    ["top", "bottom"].forEach(function (goal) {
      var g = view.goals[goal];
      parts.push(cap(w.goal_of) + " " + playerName(g.attacker, w) + ": " + g.points.map(pointName).join(", ") + ".");
    });
    parts.push(cap(w.used) + ": " + view.segments.length + ".");
    if (view.turn.length > 1) parts.push(cap(w.turn_path) + ": " + view.turn.map(pointName).join(" – ") + ".");
    if (view.to_move === null || view.to_move === undefined) {
      parts.push(cap(w.over) + ".");
    } else {
      parts.push(cap(w.to_move) + ": " + playerName(view.to_move, w) + ".");
      if (view.moves_again) parts.push(cap(w.moves_again) + ".");
    }
    return parts.join(" ");
  }

  window.KropkiBoard.register("pilkarzyki", { move: pilkarzykiMove, describe: pilkarzykiDescribe });
})();
