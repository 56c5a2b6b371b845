/* How the site looks on this device (docs/app.md "Themes and board looks"): loaded in <head>
 * without defer, so <html> carries its attributes before the first paint (no light flash).
 *
 *   localStorage "kropki.theme":   "system" (default) | "light" | "dark"
 *   localStorage "kropki.dots":    "normal" (default) | "large"
 *   localStorage "kropki.palette": "standard" (default: pink and blue) | "okabe-ito"
 *
 * <html data-theme="light|dark"> is the theme in force ("system" follows prefers-color-scheme,
 * also when the system changes it later); data-theme-setting, data-dots and data-palette are
 * the settings. window.KropkiLooks.get(name) / .set(name, value) read and change them
 * (static/js/app.js: the appearance form). Without storage (private modes) a choice lasts
 * for the page.
 */
(function () {
  "use strict";
  var CHOICES = {
    theme: ["system", "light", "dark"],
    dots: ["normal", "large"],
    palette: ["standard", "okabe-ito"],
  };
  var root = document.documentElement;
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  var memory = {}; // this page's choices where storage is refused

  function get(name) {
    var value = memory[name] || null;
    try { value = window.localStorage.getItem("kropki." + name) || value; } catch (e) { /* no storage */ }
    return CHOICES[name].indexOf(value) === -1 ? CHOICES[name][0] : value;
  }

  function apply() {
    var theme = get("theme");
    root.setAttribute("data-theme-setting", theme);
    root.setAttribute("data-theme", theme === "system" ? (dark && dark.matches ? "dark" : "light") : theme);
    root.setAttribute("data-dots", get("dots"));
    root.setAttribute("data-palette", get("palette"));
  }

  function set(name, value) {
    if (!CHOICES[name] || CHOICES[name].indexOf(value) === -1) return false;
    memory[name] = value;
    try { window.localStorage.setItem("kropki." + name, value); } catch (e) { /* this page only */ }
    apply();
    return true;
  }

  apply();
  if (dark) {
    var follow = function () { if (get("theme") === "system") apply(); };
    if (dark.addEventListener) dark.addEventListener("change", follow);
    else if (dark.addListener) dark.addListener(follow);
  }
  window.KropkiLooks = { choices: CHOICES, get: get, set: set };
})();
