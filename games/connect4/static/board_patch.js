/* connect4's live board patch: applies a move frame to the SVG games/connect4/board.py
 * drew (static/js/board_patch.js loads none of the games' patches; the match page
 * loads this one after it, named by the game's spec: GameSpec.board_script). */
(function () {
  "use strict";

  var lib = window.KropkiBoard.lib;
  var INK = lib.INK, el = lib.el, cap = lib.cap, playerName = lib.playerName, removeTarget = lib.removeTarget, setLast = lib.setLast;

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

  window.KropkiBoard.register("connect4", { move: connect4Move, describe: connect4Describe });
})();
