/* One live socket with the site's reconnect, shared by the match page (match.js)
 * and the site socket (site.js); docs/protocol.md says what each one speaks.
 *
 * kropkiSocket(path, on) -> {connect, isOpen, send}
 *   on.connecting(), on.open(), on.frame(frame): a JSON frame (others are dropped),
 *   on.close(code, stopped); on.stopCodes: close codes after which it stays closed
 *   (4401: the session ended; 4404: no such match). Any other close reconnects with
 *   exponential backoff and jitter: half to all of min(8 s, 0.5 s × 2^attempts); when the
 *   page is shown again (a phone waking, a tab coming back) or the network comes back
 *   ("online"), a closed socket reconnects at once and an open one calls on.wake() so the
 *   page can check it still lives (docs/app.md "Waking").
 *   send(frame) -> false when the socket is not open (the caller says so).
 *
 * A test hook (docs/protocol.md "Test hooks"): with on.name ("match", "site"),
 * window.kropkiFrames[on.name] = {handled: {all: n, <type>: n}, sent: {all: n, <type>: n}}
 * counts the frames this socket has handled (bumped once on.frame has returned: what the
 * frame says is on the page, but for a board fetched over HTTP) and the frames it has sent.
 * Tests wait for a count to pass its value before an action instead of sleeping.
 */
(function () {
  "use strict";

  window.kropkiSocket = function (path, on) {
    var ws = null;
    var attempts = 0;
    var stopped = false;
    var counts = { handled: { all: 0 }, sent: { all: 0 } };
    if (on.name) (window.kropkiFrames = window.kropkiFrames || {})[on.name] = counts;

    function count(bucket, type) {
      bucket.all += 1;
      bucket[type] = (bucket[type] || 0) + 1;
    }

    var timer = null;
    var started = false; // the page has asked for the socket: a wake may connect it

    function connect() {
      started = true;
      clearTimeout(timer);
      timer = null;
      if (stopped || ws) return;
      var proto = location.protocol === "https:" ? "wss:" : "ws:";
      if (on.connecting) on.connecting();
      ws = new WebSocket(proto + "//" + location.host + path);
      ws.onopen = function () {
        attempts = 0;
        if (on.open) on.open();
      };
      ws.onmessage = function (event) {
        var frame;
        try { frame = JSON.parse(event.data); } catch (e) { return; }
        on.frame(frame);
        count(counts.handled, String(frame && frame.type));
      };
      ws.onclose = function (event) {
        ws = null;
        if ((on.stopCodes || []).indexOf(event.code) !== -1) stopped = true;
        if (on.close) on.close(event.code, stopped);
        if (stopped) return;
        var base = Math.min(8000, 500 * Math.pow(2, attempts));
        attempts += 1;
        timer = setTimeout(connect, base / 2 + Math.random() * base / 2);
      };
    }

    // The phone wakes (the page is shown again) or the network is back: a socket waiting out
    // its backoff connects now, from a fresh backoff; an open one is asked whether it still
    // lives (on.wake: match.js sends a sync, which a dead socket fails and closes).
    function wake() {
      if (!started || stopped || document.visibilityState === "hidden") return;
      if (ws && ws.readyState === WebSocket.OPEN) {
        if (on.wake) on.wake();
      } else if (!ws) {
        attempts = 0;
        connect();
      }
    }
    document.addEventListener("visibilitychange", wake);
    window.addEventListener("online", wake);
    window.addEventListener("pageshow", function (event) { if (event.persisted) wake(); });

    function isOpen() { return !!(ws && ws.readyState === WebSocket.OPEN); }

    function send(frame) {
      if (!isOpen()) return false;
      ws.send(JSON.stringify(frame));
      count(counts.sent, String(frame.type));
      return true;
    }

    return { connect: connect, isOpen: isOpen, send: send };
  };
})();
