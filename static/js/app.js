/* The installable app on every page (docs/app.md): registers the service worker (/sw.js,
 * kropki_site/app.py) and wires the appearance fields (templates/app/looks.html) to
 * window.KropkiLooks (static/js/theme.js). A test hook: window.kropkiApp.worker is the
 * registration's promise (null where the browser has no service workers). */
(function () {
  "use strict";

  var worker = null;
  if ("serviceWorker" in navigator && window.isSecureContext) {
    worker = navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { return null; });
  }
  window.kropkiApp = { worker: worker };

  var looks = window.KropkiLooks;
  if (!looks) return;
  Array.prototype.forEach.call(document.querySelectorAll("[data-looks]"), function (el) { el.hidden = false; });
  Array.prototype.forEach.call(document.querySelectorAll("select[data-look]"), function (select) {
    select.value = looks.get(select.dataset.look);
    select.addEventListener("change", function () { looks.set(select.dataset.look, select.value); });
  });
})();
