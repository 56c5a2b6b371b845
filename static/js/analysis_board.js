/* The analysis board (games/review/analysis_board.py): a click or Enter on a board's move goes to the
 * position after it (the address is the position). Without this script the page's form plays. */
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) return;
  function play(action) {
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
