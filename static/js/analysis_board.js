/* A board that plays by its page's own form: the analysis board (games/review/analysis_board.py) and
 * a puzzle (games/puzzles/views.py). A click or Enter on a board's move plays it: on the analysis
 * board it goes to the position after it (the address is the position); where the board names a form
 * (data-form), the move is chosen in that form's list and the form sent. Without this script the
 * page's form plays. */
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) return;
  var form = board.hasAttribute("data-form") ? document.getElementById(board.getAttribute("data-form")) : null;
  function play(action) {
    if (form) {
      var select = form.querySelector("select[name=ruch]");
      select.value = action;
      if (select.value === action) form.submit();
      return;
    }
    var url = new URL(board.getAttribute("data-here"), window.location.href);
    var moves = url.searchParams.get("ruchy");
    url.searchParams.set("ruchy", moves ? moves + "," + action : String(action));
    url.searchParams.delete("ocena");
    window.location.href = url.pathname + url.search;
  }
  board.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-action]") : null;
    if (target) play(target.getAttribute("data-action"));
  });
  board.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var target = event.target.closest ? event.target.closest("[data-action]") : null;
    if (target) { event.preventDefault(); play(target.getAttribute("data-action")); }
  });
})();
