/* Patching a live board: a move frame says what changed (docs/protocol.md,
 * "Move frames"), and this script changes just that in the SVG the page
 * already shows. games/display/boards.py stays the one full renderer (first paint,
 * a board fetched after a gap, records, rules): every element made here is
 * made there the same way (classes, attributes, data-p/data-s/data-b keys),
 * and tests/browser/test_board_patch.py proves that after whole games of
 * every variant the patched board equals a fresh render of the server.
 *
 * KropkiBoard.applyMove(svg, game, view, frame, words): update ``view`` (the
 *   engine's view, kept by the page) with the frame's effect and patch ``svg``.
 * KropkiBoard.finish(svg, game, view, words): the match ended: no targets,
 *   a picture with its description as label (render_board(interactive=False)).
 * KropkiBoard.describe(game, view, words): the position in words (<desc>).
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var INK = "#1d232b";

  // render.py's _num: integers plainly, else two decimals without trailing zeros.
  function num(v) {
    if (v === Math.trunc(v)) return String(v);
    return v.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
  }

  // render.py's _el: attributes in order, None (null) left out, numbers formatted.
  function el(tag, attrs) {
    var node = document.createElementNS(SVG_NS, tag);
    for (var i = 0; i < attrs.length; i += 2) {
      var value = attrs[i + 1];
      if (value === null || value === undefined) continue;
      node.setAttribute(attrs[i], typeof value === "number" ? num(value) : String(value));
    }
    return node;
  }

  function cap(text) { return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase(); }
  function other(p) { return 3 - p; }
  function playerName(p, w) { return p === 1 ? w.pink : w.blue; }

  // games/kropki/engine.py column_name: a..z, aa, ab, ... (bijective base 26)
  function columnName(x) {
    var name = "";
    x += 1;
    while (x) {
      var rest = (x - 1) % 26;
      x = Math.floor((x - 1) / 26);
      name = String.fromCharCode(97 + rest) + name;
    }
    return name;
  }

  function keyOf(node, attr) { return parseInt(node.getAttribute(attr), 10); }

  // Insert ``nodes`` into ``group`` before the first child whose key is larger.
  function insertSorted(group, key, attr, nodes) {
    var before = null;
    for (var child = group.firstElementChild; child; child = child.nextElementSibling) {
      if (child.hasAttribute(attr) && keyOf(child, attr) > key) { before = child; break; }
    }
    nodes.forEach(function (n) { group.insertBefore(n, before); });
  }

  function removeKeyed(root, selector) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), function (n) { n.remove(); });
  }

  function removeTarget(svg, action) {
    var t = svg.querySelector('.targets [data-action="' + action + '"]');
    if (t) t.remove();
  }

  function setLast(svg, node, after) {
    var old = svg.querySelector(":scope > .last");
    if (old) { old.replaceWith(node); return; }
    after.after(node);
  }

  // -- Kropki -----------------------------------------------------------------

  var K_STEP = 28, K_MARGIN = 24;
  function kxy(x, y) { return [K_MARGIN + x * K_STEP, K_MARGIN + y * K_STEP]; }

  function kDot(x, y, player, classes, key, colours) {
    var c = kxy(x, y), ink = colours[player].ink, r = 6;
    if (player === 1) return el("circle", ["class", "dot p1" + classes, "data-p", key, "cx", c[0], "cy", c[1], "r", r, "fill", ink]);
    var side = r * 1.7;
    return el("rect", ["class", "dot p2" + classes, "data-p", key, "x", c[0] - side / 2, "y", c[1] - side / 2,
      "width", side, "height", side, "fill", ink]);
  }

  function kCaptured(x, y, owner, key, colours) {
    var c = kxy(x, y);
    var g = el("g", ["class", "captured", "data-p", key, "opacity", "0.45"]);
    g.appendChild(kDot(x, y, owner, " captured", null, colours));
    g.appendChild(el("path", ["class", "cross", "d", "M" + num(c[0] - 6) + " " + num(c[1] - 6) + "L" + num(c[0] + 6) + " " +
      num(c[1] + 6) + "M" + num(c[0] + 6) + " " + num(c[1] - 6) + "L" + num(c[0] - 6) + " " + num(c[1] + 6),
      "stroke", INK, "stroke-width", 1.5]));
    return g;
  }

  function kPolygon(chain, old, colours) {
    var owner = chain.owner;
    var pts = chain.chain.map(function (p) { var c = kxy(p[0], p[1]); return num(c[0]) + "," + num(c[1]); }).join(" ");
    if (old) {
      return el("polygon", ["class", "chain old p" + owner, "points", pts, "fill", "none", "stroke", colours[owner].ink,
        "stroke-width", 1, "stroke-opacity", 0.35]);
    }
    return el("polygon", ["class", "territory p" + owner, "points", pts, "fill", colours[owner].fill,
      "fill-opacity", 0.28, "stroke", colours[owner].ink, "stroke-width", 2.5, "stroke-linejoin", "round"]);
  }

  function kChainOld(view, chain) {
    var w = view.width;
    return chain.chain.some(function (p) { var ch = view.grid.charAt(p[1] * w + p[0]); return ch === "a" || ch === "b"; });
  }

  // The elements of one point for its grid character (vectors/README.md's alphabet).
  function kPatchPoint(svg, view, i, ch, colours) {
    var w = view.width, x = i % w, y = Math.floor(i / w), c = kxy(x, y);
    removeKeyed(svg, '.dots > [data-p="' + i + '"], .grounds > [data-p="' + i + '"], .enclosures > [data-p="' + i + '"]');
    var dotOwner = { A: 1, B: 2, a: 1, b: 2 }[ch];
    if (dotOwner) {
      var captured = ch === "a" || ch === "b";
      insertSorted(svg.querySelector(".dots"), i, "data-p",
        [captured ? kCaptured(x, y, dotOwner, i, colours) : kDot(x, y, dotOwner, "", i, colours)]);
    }
    var ground = { a: 2, b: 1, "1": 1, "2": 2 }[ch];
    if (ground) {
      insertSorted(svg.querySelector(".grounds"), i, "data-p", [el("rect", ["class", "ground p" + ground, "data-p", i,
        "x", c[0] - 5, "y", c[1] - 5, "width", 10, "height", 10, "fill", colours[ground].fill, "fill-opacity", 0.18])]);
    }
    var ring = { x: 1, y: 2 }[ch];
    if (ring) {
      insertSorted(svg.querySelector(".enclosures"), i, "data-p", [el("circle", ["class", "empty-enclosure p" + ring,
        "data-p", i, "cx", c[0], "cy", c[1], "r", 3.5, "fill", "none", "stroke", colours[ring].ink, "stroke-width", 1,
        "stroke-dasharray", "2 2", "stroke-opacity", 0.7])]);
    }
    if (".xy".indexOf(ch) < 0) removeTarget(svg, i);
  }

  function kropkiMove(svg, view, frame, colours) {
    var d = frame.details || {};
    var grid = view.grid.split("");
    (d.cells || []).forEach(function (cell) { grid[cell[0]] = cell[1]; });
    view.grid = grid.join("");
    (d.territories || []).forEach(function (t) { view.chains.push({ owner: t.owner, chain: t.chain }); });
    if (d.ended) view.ended[frame.by - 1] = true;
    else if (d.x !== null && d.x !== undefined) view.last = [d.x, d.y];
    (d.cells || []).forEach(function (cell) { kPatchPoint(svg, view, cell[0], cell[1], colours); });
    // Chains: new ones at the end; any chain whose corners are now captured (or freed) is redrawn.
    var group = svg.querySelector(".territories");
    view.chains.forEach(function (chain, k) {
      var old = kChainOld(view, chain);
      var node = group.children[k];
      if (!node) { group.appendChild(kPolygon(chain, old, colours)); return; }
      if (node.classList.contains("old") !== old) node.replaceWith(kPolygon(chain, old, colours));
    });
    if (view.last) {
      var c = kxy(view.last[0], view.last[1]);
      setLast(svg, el("circle", ["class", "last", "cx", c[0], "cy", c[1], "r", 10, "fill", "none", "stroke", INK,
        "stroke-width", 2]), svg.querySelector(".dots"));
    }
  }

  function kropkiDescribe(view, w) {
    var parts = [w.names.kropki + ", " + w.board + " " + view.width + "×" + view.height + "."];
    var dots = { 1: [], 2: [] }, captured = {}, empty = {};
    for (var i = 0; i < view.grid.length; i++) {
      var ch = view.grid.charAt(i), x = i % view.width, y = Math.floor(i / view.width);
      var owner = { A: 1, B: 2, a: 1, b: 2 }[ch];
      if (owner) dots[owner].push(columnName(x) + (y + 1) + (ch === "a" || ch === "b" ? " (" + w.captured + ")" : ""));
      if (ch === "a" || ch === "b") captured[i] = true;
      if (ch === "x" || ch === "y") empty[ch === "x" ? 1 : 2] = true;
    }
    [1, 2].forEach(function (p) {
      parts.push(cap(playerName(p, w)) + " " + w.dots + ": " + (dots[p].join(", ") || w.none) + ".");
    });
    var live = view.chains.filter(function (chain) { return !kChainOld(view, chain); });
    if (live.length) {
      parts.push(cap(w.territories) + ": " + live.length + " (" +
        live.map(function (chain) { return playerName(chain.owner, w); }).join(", ") + ").");
    }
    var owners = [1, 2].filter(function (p) { return empty[p]; });
    if (owners.length) parts.push(cap(w.empty_encl) + ": " + owners.map(function (p) { return playerName(p, w); }).join(", ") + ".");
    parts.push(cap(w.score) + " " + view.scores[0] + ":" + view.scores[1] + ".");
    if (view.last) parts.push(cap(w.last) + ": " + columnName(view.last[0]) + (view.last[1] + 1) + ".");
    [1, 2].forEach(function (p) { if (view.ended[p - 1]) parts.push(cap(playerName(p, w)) + " " + w.ended + "."); });
    if (view.to_move === null) parts.push(cap(w.over) + ".");
    return parts.join(" ");
  }

  // -- Cztery w rzędzie ---------------------------------------------------------

  var C_CELL = 40, C_MARGIN = 12, C_TOP = 18;
  function cxy(col, rowTop) { return [C_MARGIN + (col + 0.5) * C_CELL, C_TOP + C_MARGIN + (rowTop + 0.5) * C_CELL]; }

  function connect4Move(svg, view, frame, colours) {
    var d = frame.details, rows = view.rows, cols = view.columns;
    var col = d.column - 1, rowTop = rows - d.row, i = rowTop * cols + col, p = frame.by;
    view.cells[rowTop][col] = p;
    view.last = { column: d.column, row: d.row };
    view.winning_lines = d.winning_lines || [];
    view.dead_lines = d.dead_lines;
    view.live_lines = 69 - d.dead_lines;
    var c = cxy(col, rowTop), r = C_CELL * 0.4, colour = colours[p];
    var hole = svg.querySelector('.hole[data-p="' + i + '"]');
    var disc = [el("circle", ["class", "disc p" + p, "data-p", i, "cx", c[0], "cy", c[1], "r", r, "fill", colour.fill,
      "stroke", colour.ink, "stroke-width", 2])];
    if (p === 2) disc.push(el("circle", ["class", "disc-ring", "cx", c[0], "cy", c[1], "r", r * 0.55, "fill", "none",
      "stroke", "#ffffff", "stroke-width", 3]));
    else disc.push(el("circle", ["class", "disc-dot", "cx", c[0], "cy", c[1], "r", r * 0.22, "fill", "#ffffff",
      "fill-opacity", 0.85]));
    disc.forEach(function (n) { hole.parentNode.insertBefore(n, hole); });
    hole.remove();
    // The last cell drawn (a disc's second circle, or a hole) is where "last" and lines follow.
    var cells = svg.querySelectorAll(":scope > .hole, :scope > .disc-ring, :scope > .disc-dot");
    setLast(svg, el("circle", ["class", "last", "cx", c[0], "cy", c[1], "r", C_CELL * 0.47, "fill", "none",
      "stroke", INK, "stroke-width", 2.5]), cells[cells.length - 1]);
    var anchor = svg.querySelector(":scope > .last");
    view.winning_lines.forEach(function (line) {
      var a = cxy(line[0][0] - 1, rows - line[0][1]), b = cxy(line[line.length - 1][0] - 1, rows - line[line.length - 1][1]);
      var node = el("line", ["class", "win-line", "x1", a[0], "y1", a[1], "x2", b[0], "y2", b[1], "stroke", INK,
        "stroke-width", 6, "stroke-linecap", "round", "stroke-opacity", 0.8]);
      anchor.after(node);
      anchor = node;
    });
    if (view.cells[0][col]) removeTarget(svg, col);
  }

  function connect4Describe(view, w) {
    var rows = view.rows, cols = view.columns;
    var parts = [w.names.connect4 + ", " + cols + "×" + rows + "."];
    for (var c = 0; c < cols; c++) {
      var stack = [];
      for (var r = rows - 1; r >= 0; r--) if (view.cells[r][c]) stack.push(playerName(view.cells[r][c], w));
      parts.push(cap(w.column) + " " + (c + 1) + " (" + w.bottom_up + "): " + (stack.length ? stack.join(", ") : w.empty) + ".");
    }
    (view.winning_lines || []).forEach(function (line) {
      var owner = view.cells[rows - line[0][1]][line[0][0] - 1];
      var ends = [line[0], line[line.length - 1]].map(function (cr) { return cr[0] + "/" + cr[1]; }).join(" – ");
      parts.push(cap(w.win_line) + " (" + playerName(owner, w) + "): " + ends + ".");
    });
    if (view.last) parts.push(cap(w.last) + ": " + w.column + " " + view.last.column + ".");
    return parts.join(" ");
  }

  // -- Kropki i kwadraty ----------------------------------------------------------

  var B_STEP = 40, B_MARGIN = 22;
  function bxy(r, c) { return [B_MARGIN + c * B_STEP, B_MARGIN + r * B_STEP]; }
  function segmentDots(view, s) {
    var cols = view.cols, split = (view.rows + 1) * cols;
    if (s < split) return [[Math.floor(s / cols), s % cols], [Math.floor(s / cols), s % cols + 1]];
    var k = s - split;
    return [[Math.floor(k / (cols + 1)), k % (cols + 1)], [Math.floor(k / (cols + 1)) + 1, k % (cols + 1)]];
  }
  function segmentName(view, s) {
    var d = segmentDots(view, s);
    return columnName(d[0][1]) + (d[0][0] + 1) + "–" + columnName(d[1][1]) + (d[1][0] + 1);
  }

  function dotsAndBoxesMove(svg, view, frame, colours, w) {
    var d = frame.details, s = d.segment, p = frame.by, ends = segmentDots(view, s);
    var a = bxy(ends[0][0], ends[0][1]), b = bxy(ends[1][0], ends[1][1]);
    view.drawn[s] = p;
    view.last = s;
    removeKeyed(svg, '.free > [data-s="' + s + '"]');
    insertSorted(svg.querySelector(".drawn"), s, "data-s", [el("line", ["class", "segment p" + p, "data-s", s,
      "x1", a[0], "y1", a[1], "x2", b[0], "y2", b[1], "stroke", colours[p].ink, "stroke-width", 4,
      "stroke-linecap", "round", "stroke-dasharray", p === 2 ? "9 4" : null])]);
    (d.boxes || []).forEach(function (rc) {
      var r = rc[0], c = rc[1], key = r * view.cols + c, xy = bxy(r, c);
      view.boxes[r][c] = p;
      var text = el("text", ["class", "box-initial p" + p, "x", xy[0] + B_STEP / 2, "y", xy[1] + B_STEP / 2 + 6,
        "text-anchor", "middle", "font-size", "17", "font-weight", "700", "font-family", "sans-serif",
        "fill", colours[p].ink, "aria-hidden", "true"]);
      text.textContent = p === 1 ? w.P : w.B;
      insertSorted(svg.querySelector(".boxes"), key, "data-b", [el("rect", ["class", "box p" + p, "data-b", key,
        "x", xy[0], "y", xy[1], "width", B_STEP, "height", B_STEP, "fill", colours[p].light]), text]);
    });
    setLast(svg, el("line", ["class", "last", "x1", a[0], "y1", a[1], "x2", b[0], "y2", b[1], "stroke", INK,
      "stroke-width", 9, "stroke-opacity", 0.18, "stroke-linecap", "round"]), svg.querySelector(".drawn"));
    removeTarget(svg, s);
  }

  function dotsAndBoxesDescribe(view, w) {
    var rows = view.rows, cols = view.cols;
    var parts = [w.names.dots_and_boxes + ", " + rows + "×" + cols + "."];
    var drawn = [];
    view.drawn.forEach(function (by, s) { if (by) drawn.push(s); });
    parts.push(cap(w.segments_drawn) + ": " + drawn.length + "/" + view.drawn.length +
      (drawn.length ? ": " + drawn.map(function (s) { return segmentName(view, s); }).join(", ") : "") + ".");
    [1, 2].forEach(function (p) {
      var boxes = [];
      for (var r = 0; r < rows; r++) for (var c = 0; c < cols; c++) if (view.boxes[r][c] === p) boxes.push(columnName(c) + (r + 1));
      parts.push(cap(w.boxes) + " (" + playerName(p, w) + "): " + boxes.length + (boxes.length ? " — " + boxes.join(", ") : "") + ".");
    });
    if (view.last !== null && view.last !== undefined) parts.push(cap(w.last) + ": " + segmentName(view, view.last) + ".");
    return parts.join(" ");
  }

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
      g.appendChild(el("circle", ["cx", t[0], "cy", t[1], "r", P_STEP / 2.2, "fill", "#000", "fill-opacity", 0]));
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

  // -- entry --------------------------------------------------------------------

  var GAMES = {
    kropki: { move: kropkiMove, describe: kropkiDescribe },
    connect4: { move: connect4Move, describe: connect4Describe },
    dots_and_boxes: { move: dotsAndBoxesMove, describe: dotsAndBoxesDescribe },
    pilkarzyki: { move: pilkarzykiMove, describe: pilkarzykiDescribe },
  };

  // A game without patch code here (one registered in games/catalogue alone) is
  // redrawn by the server after each move instead: match.js asks for the board.
  function canPatch(game) { return Object.prototype.hasOwnProperty.call(GAMES, game); }

  function describe(game, view, words) { return GAMES[game].describe(view, words); }

  function setDescription(svg, game, view, words) {
    if (!canPatch(game)) return; // the server's board already says it
    var text = describe(game, view, words);
    var desc = svg.querySelector(":scope > desc");
    if (desc) desc.textContent = text;
    // A live board (targets present; a spectator's page hides them) is labelled by its name
    // alone, a picture by its name and description (render_board's interactive flag).
    if (!svg.querySelector(":scope > .targets")) {
      svg.setAttribute("aria-label", svg.querySelector(":scope > title").textContent + ". " + text);
    }
  }

  function applyMove(svg, game, view, frame, words) {
    GAMES[game].move(svg, view, frame, words.colours, words);
    view.to_move = frame.match.to_move;
    view.scores = frame.match.scores.slice();
    setDescription(svg, game, view, words);
  }

  function finish(svg, game, view, words) {
    var targets = svg.querySelector(":scope > .targets");
    if (targets) targets.remove();
    svg.classList.remove("interactive");
    svg.removeAttribute("data-key-actions"); // no moves left to key in
    svg.setAttribute("role", "img");
    setDescription(svg, game, view, words);
  }

  window.KropkiBoard = { applyMove: applyMove, finish: finish, describe: describe, canPatch: canPatch };
})();
