/* The installable app on every page (docs/app.md): registers the service worker (/sw.js,
 * kropki_site/app.py) and wires the appearance fields (templates/app/looks.html) to
 * window.KropkiLooks (static/js/theme.js). A test hook: window.kropkiApp.worker is the
 * registration's promise (null where the browser has no service workers). Also: a game's own
 * settings in the forms that start a game (templates/games/_game_options.html): only the chosen
 * game's fieldset is shown and sent (window.KropkiOptions, used by static/js/site.js). */
(function () {
  "use strict";

  var worker = null;
  if ("serviceWorker" in navigator && window.isSecureContext) {
    worker = navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { return null; });
  }
  window.kropkiApp = { worker: worker };

  function chosenGame(form) {
    var picked = form.querySelector("[name=variant]:checked") || form.querySelector("select[name=variant]");
    if (!picked) return "";
    var option = picked.tagName === "SELECT" ? picked.options[picked.selectedIndex] : picked;
    return option ? option.getAttribute("data-game") || "" : "";
  }

  function showGameOptions(form) {
    var game = chosenGame(form);
    Array.prototype.forEach.call(form.querySelectorAll("[data-game-options]"), function (box) {
      var mine = box.getAttribute("data-game-options") === game;
      box.hidden = !mine;
      Array.prototype.forEach.call(box.querySelectorAll("select"), function (select) { select.disabled = !mine; });
    });
  }

  window.KropkiOptions = {
    values: function (form) { // {"<game>-<option>": value} of the chosen game
      var options = {};
      Array.prototype.forEach.call(
        form.querySelectorAll("[data-game-options='" + chosenGame(form) + "'] select"),
        function (select) { options[select.name] = select.value; }
      );
      return options;
    },
  };
  Array.prototype.forEach.call(document.querySelectorAll("form"), function (form) {
    if (!form.querySelector("[data-game-options]")) return;
    showGameOptions(form);
    form.addEventListener("change", function (event) {
      if (event.target && event.target.name === "variant") showGameOptions(form);
    });
  });

  var looks = window.KropkiLooks;
  if (!looks) return;
  Array.prototype.forEach.call(document.querySelectorAll("[data-looks]"), function (el) { el.hidden = false; });
  Array.prototype.forEach.call(document.querySelectorAll("select[data-look]"), function (select) {
    select.value = looks.get(select.dataset.look);
    select.addEventListener("change", function () { looks.set(select.dataset.look, select.value); });
  });
})();
