/* The record page's analysis section while the computer works (docs/protocol.md, frame
 * "analysis"): the site socket (static/js/site.js) follows the review of this record
 * (`watch_analysis`, for any visitor: the asker may be a guest) and hands over its frames;
 * the bar, the percentage and the queue place follow them, and the page reloads once the
 * analysis is done or has failed, to show the result. Nothing polls. */
(function () {
  "use strict";

  var section = document.querySelector("[data-testid='analysis']");
  if (!section) return;
  var matchId = parseInt(section.getAttribute("data-match"), 10);

  document.addEventListener("kropki:site-frame", function (event) {
    var frame = event.detail || {};
    if (frame.type !== "analysis" || frame.match !== matchId) return;
    section.setAttribute("data-status", frame.status);
    if (frame.status === "done" || frame.status === "failed") {
      window.location.reload();
      return;
    }
    var queued = section.querySelector("[data-testid='analysis-queued']");
    var running = section.querySelector("[data-testid='analysis-running']");
    var shown = section.querySelector("[data-testid='analysis-percent']");
    var bar = section.querySelector("progress");
    if (!queued || !running) return;
    var percent = frame.total ? Math.round((100 * frame.done) / frame.total) : 0;
    queued.hidden = frame.status !== "queued";
    running.hidden = frame.status !== "running";
    if (frame.status === "running") {
      if (shown) shown.textContent = percent + " %";
      if (bar) bar.value = percent;
    }
  });
})();
