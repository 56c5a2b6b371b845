/* A short tone (window.KropkiBeep): a challenge's notice (site.js), the low-time warning (match.js).
 * Nothing happens where the browser has no Web Audio; the page's words still say it. */
(function () {
  "use strict";
  window.KropkiBeep = function (frequency, volume, seconds) {
    try {
      var Audio = window.AudioContext || window.webkitAudioContext;
      if (!Audio) return;
      var ctx = new Audio();
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(volume, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + seconds);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + seconds);
      osc.onended = function () { ctx.close(); };
    } catch (e) { /* no sound */ }
  };
})();
