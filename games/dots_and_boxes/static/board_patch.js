/* dots_and_boxes's live board patch: applies a move frame to the SVG games/dots_and_boxes/board.py
 * drew (static/js/board_patch.js loads none of the games' patches; the match page
 * loads this one after it, named by the game's spec: GameSpec.board_script). */
(function () {
  "use strict";

  var lib = window.KropkiBoard.lib;
  var INK = lib.INK, el = lib.el, cap = lib.cap, playerName = lib.playerName, columnName = lib.columnName, insertSorted = lib.insertSorted, removeKeyed = lib.removeKeyed, removeTarget = lib.removeTarget, setLast = lib.setLast;

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

  window.KropkiBoard.register("dots_and_boxes", { move: dotsAndBoxesMove, describe: dotsAndBoxesDescribe });
})();
