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

  // games/engine/base.py column_name: a..z, aa, ab, ... (bijective base 26)
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

  // -- entry --------------------------------------------------------------------

  // Each game's patch registers itself here (games/<slug>/static/board_patch.js, which
  // the match page loads after this file: GameSpec.board_script).
  var GAMES = {};
  function register(game, patch) { GAMES[game] = patch; }

  // A game without patch code (one registered in games/catalogue alone) is
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

  window.KropkiBoard = {
    applyMove: applyMove, finish: finish, describe: describe, canPatch: canPatch, register: register,
    // what every game's patch shares
    lib: {
      SVG_NS: SVG_NS, INK: INK, num: num, el: el, cap: cap, other: other, playerName: playerName,
      columnName: columnName, keyOf: keyOf, insertSorted: insertSorted, removeKeyed: removeKeyed,
      removeTarget: removeTarget, setLast: setLast,
    },
  };
})();
