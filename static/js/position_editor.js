/* The position editor (games/review/editor.py): a click, Enter or Space on a board's place uses the
 * chosen tool there (the form's "Where" and "Apply": without this script the form does it); the
 * arrows move between the places; the hover takes the tool's colour. After the page comes back,
 * the place used has the focus again. */
(function () {
  "use strict";
  var form = document.getElementById("editor-form");
  var board = document.getElementById("board");
  if (!form || !board) return;
  var where = document.getElementById("editor-where");
  var apply = form.querySelector('button[value="ustaw"]');
  var FOCUS = "kropki-editor-focus";

  function place(event) {
    return event.target.closest ? event.target.closest("[data-action]") : null;
  }
  function use(target) {
    where.value = target.getAttribute("data-action");
    sessionStorage.setItem(FOCUS, where.value);
    form.requestSubmit(apply);
  }
  function setRoving(target) {
    board.querySelectorAll("[data-action]").forEach(function (t) { t.setAttribute("tabindex", t === target ? "0" : "-1"); });
  }

  board.addEventListener("click", function (event) {
    var target = place(event);
    if (target) use(target);
  });
  board.addEventListener("keydown", function (event) {
    var target = place(event);
    if (!target) return;
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); use(target); return; }
    var dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!dir) return;
    event.preventDefault();
    var col = +target.dataset.col, row = +target.dataset.row, best = null, bestScore = Infinity;
    board.querySelectorAll("[data-action]").forEach(function (t) {
      var dc = +t.dataset.col - col, dr = +t.dataset.row - row;
      var along = dc * dir[0] + dr * dir[1];
      if (t === target || along <= 0) return;
      var score = along + 4 * (Math.abs(dc * dir[1]) + Math.abs(dr * dir[0])); // the same row or column first
      if (score < bestScore) { bestScore = score; best = t; }
    });
    if (best) { setRoving(best); best.focus(); }
  });
  board.addEventListener("focusin", function (event) { var t = place(event); if (t) t.classList.add("preview"); });
  board.addEventListener("focusout", function (event) { var t = place(event); if (t) t.classList.remove("preview"); });

  form.querySelectorAll('input[name="narzedzie"]').forEach(function (radio) {
    radio.addEventListener("change", function () {
      board.classList.remove("preview-p1", "preview-p2");
      if (radio.value !== "0") board.classList.add("preview-p" + radio.value);
    });
  });

  var last = sessionStorage.getItem(FOCUS);
  sessionStorage.removeItem(FOCUS);
  var again = last === null ? null : board.querySelector('[data-action="' + last + '"]');
  if (again) { setRoving(again); again.focus(); }
})();
