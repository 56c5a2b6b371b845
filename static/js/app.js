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

  // Web Push (templates/games/notification_settings.html, games/notifications/push.py): this
  // browser subscribes with the site's key and the server keeps the subscription; or unsubscribes.
  var pushBox = document.querySelector("[data-push]");
  if (pushBox && worker && "PushManager" in window && "Notification" in window) {
    var status = pushBox.querySelector("[data-push-status]");
    var say = function (key) { status.textContent = status.getAttribute("data-" + key) || ""; };
    var csrf = (document.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
    var post = function (url, body) {
      return fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify(body),
      }).then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r; });
    };
    var keyBytes = function (text) {
      var raw = atob((text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
      var out = new Uint8Array(raw.length);
      for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
      return out;
    };
    pushBox.querySelector("[data-push-controls]").hidden = false;
    navigator.serviceWorker.ready.then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (sub) { say(sub ? "on" : "off"); }).catch(function () { say("off"); });
    pushBox.querySelector("[data-push-on]").addEventListener("click", function () {
      Notification.requestPermission().then(function (answer) {
        if (answer !== "granted") { say("denied"); return null; }
        return navigator.serviceWorker.ready.then(function (reg) {
          return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(pushBox.getAttribute("data-key")) });
        }).then(function (sub) { return post("/powiadomienia/push/", sub.toJSON()); }).then(function () { say("on"); });
      }).catch(function () { say("failed"); });
    });
    pushBox.querySelector("[data-push-off]").addEventListener("click", function () {
      navigator.serviceWorker.ready.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
        if (!sub) return null;
        return post("/powiadomienia/push/usun/", { endpoint: sub.endpoint }).then(function () { return sub.unsubscribe(); });
      }).then(function () { say("off"); }).catch(function () { say("failed"); });
    });
  }

  var looks = window.KropkiLooks;
  if (!looks) return;
  Array.prototype.forEach.call(document.querySelectorAll("[data-looks]"), function (el) { el.hidden = false; });
  Array.prototype.forEach.call(document.querySelectorAll("select[data-look]"), function (select) {
    select.value = looks.get(select.dataset.look);
    select.addEventListener("change", function () { looks.set(select.dataset.look, select.value); });
  });
})();
