/* Replay of a finished match on its record page (/partia/<id>/zapis/).
 * Steps with the buttons, the slider and the arrow keys (Home/End too).
 * Each board comes from the frame endpoint (JSON {ply, svg, move, scores, explain})
 * and is kept; the neighbours are fetched ahead so stepping feels instant.
 * With the computer's analysis (json_script "analysis-data"): each move's assessment (with a
 * mistake's or a blunder's reason when the review gives one),
 * the better move on the board (the frame endpoint's ?lepszy=1), and "n" / "p" for the next
 * / previous inaccuracy, mistake or blunder (wrapping round). A click on a mark of the evaluation curve goes there.
 * The record's "Open on the analysis board" link follows the position shown.
 * No inline script: the configuration is a json_script block. */
(function () {
  "use strict";

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) {
      return values[key] === undefined ? "" : String(values[key]);
    });
  }

  function init() {
    var configEl = document.getElementById("replay-config");
    var root = document.querySelector("[data-testid='replay']");
    var board = document.getElementById("replay-board");
    if (!configEl || !root || !board) return;
    var config = JSON.parse(configEl.textContent);
    var total = config.total;
    var slider = root.querySelector("[data-replay='slider']");
    var position = root.querySelector("[data-testid='replay-position']");
    var cache = new Map();
    var current = total;
    var wanted = total;
    var explain = root.querySelector("[data-testid='replay-explain']");
    var reviewEl = document.getElementById("analysis-data");
    var review = reviewEl ? JSON.parse(reviewEl.textContent) : null;
    var reviewText = root.querySelector("[data-testid='replay-review-text']");
    var betterButton = root.querySelector("[data-review='better']");
    var showingBetter = false;
    // "Open on the analysis board" opens the position shown (?z=<match>&ply=)
    var toBoard = document.querySelector("[data-testid='to-analysis-board']");
    var FLAGGED = { inaccuracy: true, mistake: true, blunder: true };

    function frameUrl(ply, better) {
      return config.frameUrl.replace(/0\/$/, ply + "/") + (better ? "?lepszy=1" : "");
    }

    function fetchFrame(ply, better) {
      return fetch(frameUrl(ply, better), { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.json();
        });
    }

    function load(ply) {
      if (cache.has(ply)) return Promise.resolve(cache.get(ply));
      return fetchFrame(ply, false).then(function (data) {
        cache.set(ply, data);
        return data;
      });
    }

    function describe(ply) {
      var text = format(config.position, { ply: ply, total: total });
      if (ply > 0) {
        var colour = config.colours[String(config.players[ply - 1])] || "";
        text += " — " + format(config.moveText, { colour: colour, move: config.moves[ply - 1] });
      }
      return text;
    }

    function describeReview(ply) {
      if (!review || !reviewText) return;
      showingBetter = false;
      if (betterButton) {
        betterButton.textContent = review.showBetter;
        betterButton.hidden = !(ply > 0 && review.better[ply - 1]);
      }
      if (ply === 0) {
        reviewText.textContent = "";
        return;
      }
      var cls = review.classes[ply - 1];
      var text = FLAGGED[cls]
        ? format(review.dropText, { "class": review.words[cls], drop: review.drops[ply - 1] }).replace("%%", "%")
        : review.words[cls];
      if (review.why && review.why[ply - 1]) text += " " + review.why[ply - 1]; // why it was a mistake
      if (review.better[ply - 1]) text += " " + format(review.betterText, { move: review.better[ply - 1] });
      reviewText.textContent = text;
      reviewText.dataset.cls = cls;
    }

    function paint(ply, data) {
      var svg = data.svg; // the server's board (games/display/boards.py), escaped there
      board.innerHTML = svg;
      board.setAttribute("data-ply", String(ply));
      board.removeAttribute("data-better");
      if (explain) explain.textContent = data.explain || "";
      describeReview(ply);
      current = ply;
      if (toBoard) {
        var boardUrl = new URL(toBoard.href, window.location.href);
        boardUrl.searchParams.set("ply", String(ply));
        toBoard.href = boardUrl.pathname + boardUrl.search;
      }
      slider.value = String(ply);
      position.textContent = describe(ply);
      root.querySelectorAll("[data-replay='first'], [data-replay='prev']").forEach(function (b) {
        b.disabled = ply === 0;
      });
      root.querySelectorAll("[data-replay='next'], [data-replay='last']").forEach(function (b) {
        b.disabled = ply === total;
      });
    }

    function show(ply) {
      ply = Math.max(0, Math.min(total, ply));
      wanted = ply;
      slider.value = String(ply);
      load(ply).then(
        function (data) {
          if (wanted === ply) paint(ply, data); // a later request wins
          if (ply + 1 <= total) load(ply + 1).catch(function () {});
          if (ply - 1 >= 0) load(ply - 1).catch(function () {});
        },
        function () {
          if (wanted === ply) position.textContent = config.error;
        }
      );
    }

    // The next (step 1) or previous (step -1) inaccuracy, mistake or blunder from the position
    // shown, wrapping round the game's ends; from any ply.
    function jumpToMistake(step) {
      if (!review) return;
      var flagged = [];
      for (var p = 1; p <= total; p++) if (FLAGGED[review.classes[p - 1]]) flagged.push(p);
      if (!flagged.length) {
        if (reviewText) reviewText.textContent = review.noMore;
        return;
      }
      var ahead = flagged.filter(function (q) { return step > 0 ? q > wanted : q < wanted; });
      if (!ahead.length) ahead = flagged;
      show(step > 0 ? ahead[0] : ahead[ahead.length - 1]);
    }

    function toggleBetter() {
      if (!review || current === 0) return;
      var ply = current;
      if (showingBetter) {
        paint(ply, cache.get(ply));
        return;
      }
      fetchFrame(ply, true).then(
        function (data) {
          if (current !== ply) return;
          var svg = data.svg;
          board.innerHTML = svg;
          board.setAttribute("data-better", "1");
          showingBetter = true;
          betterButton.textContent = review.showPlayed;
        },
        function () {
          position.textContent = config.error;
        }
      );
    }

    document.addEventListener("click", function (event) {
      var reviewButton = event.target.closest("button[data-review]");
      if (reviewButton) {
        var which = reviewButton.getAttribute("data-review");
        if (which === "next") jumpToMistake(1);
        else if (which === "prev") jumpToMistake(-1);
        else toggleBetter();
        return;
      }
      var mark = event.target.closest && event.target.closest(".review-mark[data-ply]");
      if (mark) {
        show(parseInt(mark.getAttribute("data-ply"), 10));
        root.scrollIntoView({ block: "nearest" });
      }
    });

    root.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-replay]");
      if (!button) return;
      var action = button.getAttribute("data-replay");
      if (action === "first") show(0);
      else if (action === "prev") show(wanted - 1);
      else if (action === "next") show(wanted + 1);
      else if (action === "last") show(total);
    });
    slider.addEventListener("input", function () {
      show(parseInt(slider.value, 10) || 0);
    });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var target = event.target;
      if (target === slider) return; // the slider steps itself and fires "input"
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      var step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if ((event.key === "n" || event.key === "p") && review) {
        event.preventDefault();
        jumpToMistake(event.key === "n" ? 1 : -1);
      } else if (step) {
        event.preventDefault();
        show(wanted + step);
      } else if (event.key === "Home" && root.contains(target)) {
        event.preventDefault();
        show(0);
      } else if (event.key === "End" && root.contains(target)) {
        event.preventDefault();
        show(total);
      }
    });
    var last = { svg: board.innerHTML };
    cache.set(total, last);
    paint(current, last);
    // The final position's explanation (a capture with the last move) comes with its frame.
    if (total > 0) fetchFrame(total, false).then(function (data) {
      last.explain = data.explain; // the page's own board stays (the same picture)
      if (current === total && explain) explain.textContent = data.explain || "";
    }, function () {});
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
