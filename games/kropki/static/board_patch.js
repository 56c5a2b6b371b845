/* kropki's live board patch: applies a move frame to the SVG games/kropki/board.py
 * drew (static/js/board_patch.js loads none of the games' patches; the match page
 * loads this one after it, named by the game's spec: GameSpec.board_script). */
(function () {
  "use strict";

  var lib = window.KropkiBoard.lib;
  var INK = lib.INK, num = lib.num, el = lib.el, cap = lib.cap, playerName = lib.playerName, columnName = lib.columnName, insertSorted = lib.insertSorted, removeKeyed = lib.removeKeyed, removeTarget = lib.removeTarget, setLast = lib.setLast;

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

  window.KropkiBoard.register("kropki", { move: kropkiMove, describe: kropkiDescribe });
})();
