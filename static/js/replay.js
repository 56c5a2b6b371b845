/* Replay of a finished match on its record page (/partia/<id>/zapis/).
 * Steps with the buttons, the slider and the arrow keys (Home/End too).
 * Each board comes from the frame endpoint (JSON {ply, svg, move, scores})
 * and is kept; the neighbours are fetched ahead so stepping feels instant.
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
    cache.set(total, board.innerHTML);

    function frameUrl(ply) {
      return config.frameUrl.replace(/0\/$/, ply + "/");
    }

    function load(ply) {
      if (cache.has(ply)) return Promise.resolve(cache.get(ply));
      return fetch(frameUrl(ply), { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.json();
        })
        .then(function (data) {
          cache.set(ply, data.svg);
          return data.svg;
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

    function paint(ply, svg) {
      board.innerHTML = svg;
      board.setAttribute("data-ply", String(ply));
      current = ply;
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
        function (svg) {
          if (wanted === ply) paint(ply, svg); // a later request wins
          if (ply + 1 <= total) load(ply + 1).catch(function () {});
          if (ply - 1 >= 0) load(ply - 1).catch(function () {});
        },
        function () {
          if (wanted === ply) position.textContent = config.error;
        }
      );
    }

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
      if (step) {
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
    paint(current, cache.get(current));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
