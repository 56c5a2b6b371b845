/* The site's sounds (docs/app.md "Sounds"): short tones made with the Web Audio API, no files.
 *
 * window.KropkiSound.play(name) plays one of SOUNDS (the match page: move, capture, your_turn,
 * start, end, low_time; any page: challenge) unless this device is muted; it returns whether
 * it played. Sounds mark events only: what a screen reader is told in words is never doubled
 * by a sound of its own. Muting is kept per device (localStorage "kropki.sound" = "off");
 * every button[data-sound-toggle] on the page is its switch (aria-pressed="true": muted).
 * Nothing sounds where the browser has no Web Audio; the page's words still say it.
 *
 * A test hook: window.kropkiSounds.played = {all: n, <name>: n} counts the sounds played.
 * window.KropkiBeep(frequency, volume, seconds) stays for a plain tone (also muted by the switch).
 */
(function () {
  "use strict";

  // [frequency (Hz), start (s), length (s), volume, wave]
  var SOUNDS = {
    move: [[420, 0, 0.07, 0.16, "triangle"]],
    capture: [[520, 0, 0.08, 0.16, "triangle"], [780, 0.08, 0.14, 0.16, "triangle"]],
    your_turn: [[660, 0, 0.12, 0.12, "sine"]],
    start: [[523, 0, 0.1, 0.12, "sine"], [659, 0.1, 0.1, 0.12, "sine"], [784, 0.2, 0.18, 0.12, "sine"]],
    end: [[784, 0, 0.12, 0.12, "sine"], [659, 0.12, 0.12, 0.12, "sine"], [523, 0.24, 0.25, 0.12, "sine"]],
    low_time: [[660, 0, 0.25, 0.12, "sine"]],
    challenge: [[880, 0, 0.4, 0.15, "sine"]],
  };
  var KEY = "kropki.sound";
  var counts = { all: 0 };
  var memory = null; // where storage is refused: this page's choice
  var context = null;

  function muted() {
    var value = memory;
    try { value = window.localStorage.getItem(KEY) || value; } catch (e) { /* no storage */ }
    return value === "off";
  }

  function audio() {
    var Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return null;
    if (!context) context = new Audio();
    if (context.state === "suspended" && context.resume) context.resume().catch(function () {});
    return context;
  }

  function tones(list) {
    try {
      var ctx = audio();
      if (!ctx) return;
      list.forEach(function (tone) {
        var at = ctx.currentTime + tone[1];
        var osc = ctx.createOscillator();
        var gain = ctx.createGain();
        osc.type = tone[4] || "sine";
        osc.frequency.value = tone[0];
        gain.gain.setValueAtTime(tone[3], at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + tone[2]);
        osc.connect(gain);
        gain.connect(ctx.destination);
        osc.start(at);
        osc.stop(at + tone[2]);
      });
    } catch (e) { /* no sound */ }
  }

  function play(name) {
    if (!SOUNDS[name] || muted()) return false;
    tones(SOUNDS[name]);
    counts.all += 1;
    counts[name] = (counts[name] || 0) + 1;
    return true;
  }

  function showToggles() {
    var off = muted();
    Array.prototype.forEach.call(document.querySelectorAll("button[data-sound-toggle]"), function (button) {
      button.setAttribute("aria-pressed", off ? "true" : "false");
    });
  }

  function setMuted(off) {
    memory = off ? "off" : "on";
    try { window.localStorage.setItem(KEY, memory); } catch (e) { /* this page only */ }
    showToggles();
  }

  window.KropkiSound = { play: play, muted: muted, setMuted: setMuted, names: Object.keys(SOUNDS) };
  window.kropkiSounds = { played: counts };
  window.KropkiBeep = function (frequency, volume, seconds) {
    if (!muted()) tones([[frequency, 0, seconds, volume, "sine"]]);
  };

  // Browsers start audio only after a gesture: the first press or key opens it for later sounds.
  function unlock() {
    if (!muted()) audio();
    document.removeEventListener("pointerdown", unlock, true);
    document.removeEventListener("keydown", unlock, true);
  }
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-sound-toggle]");
    if (button) setMuted(!muted());
  });
  showToggles();
  window.addEventListener("storage", function (event) { if (event.key === KEY) showToggles(); });
})();
