/* The chat at the table (docs/social.md "Chat", docs/protocol.md "Chat").
 *
 * Frames come from the match socket (static/js/match.js hands over "chat",
 * "chat_history" and chat refusals as "kropki:chat" events) and go out through
 * window.kropkiMatch.sendChat. Everything written by people is inserted with
 * textContent: never as markup, and links are not made clickable.
 */
(function () {
  "use strict";

  var root = document.getElementById("chat");
  var configEl = document.getElementById("chat-config");
  if (!root || !configEl) return;
  var cfg = JSON.parse(configEl.textContent);
  var T = cfg.strings;

  function $(id) { return document.getElementById(id); }
  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) { return values[key] === undefined ? "" : String(values[key]); });
  }
  function chars(text) { return Array.from(text).length; }

  var list = $("chat-lines");
  var empty = $("chat-empty");
  var announce = $("chat-announce");
  var errorEl = $("chat-error");
  var form = $("chat-form");
  var input = $("chat-text");
  var count = $("chat-count");
  var muteBox = $("chat-mute");
  var seen = {};
  var lastSent = "";

  // -- mute (for oneself, per match, kept in localStorage) --------------------

  var muteKey = "kropki-chat-muted-" + cfg.match;
  function storedMute() {
    try { return window.localStorage.getItem(muteKey) === "1"; } catch (e) { return false; }
  }
  function setMuted(muted) {
    try {
      if (muted) window.localStorage.setItem(muteKey, "1"); else window.localStorage.removeItem(muteKey);
    } catch (e) { /* private mode: the choice lasts as long as the page */ }
    muteBox.checked = muted;
    $("chat-body").hidden = muted;
    $("chat-muted").hidden = !muted;
    root.dataset.muted = muted ? "1" : "0";
  }
  muteBox.addEventListener("change", function () { setMuted(muteBox.checked); });
  setMuted(storedMute());
  function muted() { return root.dataset.muted === "1"; }

  // -- lines --------------------------------------------------------------------

  function timeOf(iso) {
    var at = new Date(iso);
    if (isNaN(at.getTime())) return "";
    return at.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
  }

  function lineElement(line) {
    var li = document.createElement("li");
    li.className = "chat-line" + (line.author_id === cfg.me ? " mine" : "");
    li.dataset.id = String(line.id);
    li.dataset.testid = "chat-line";
    var time = document.createElement("time");
    time.className = "chat-time";
    time.dateTime = line.at;
    time.textContent = timeOf(line.at);
    var author = document.createElement("strong");
    author.className = "chat-author";
    author.textContent = line.author;
    var text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = line.text;
    li.appendChild(time);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(author);
    li.appendChild(document.createTextNode(": "));
    li.appendChild(text);
    if (cfg.canReport && line.author_id !== cfg.me) {
      var report = document.createElement("button");
      report.type = "button";
      report.className = "chat-report-line quiet";
      report.textContent = "⚑";
      report.title = T.report;
      report.setAttribute("aria-label", fill(T.reportMessage, { name: line.author }));
      report.dataset.testid = "chat-report-line";
      report.addEventListener("click", function () { openReport(line, null, null); });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(report);
    }
    return li;
  }

  function add(line, live) {
    if (seen[line.id]) return;
    seen[line.id] = true;
    var atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.appendChild(lineElement(line));
    empty.hidden = true;
    if (atBottom || !live) list.scrollTop = list.scrollHeight;
    if (live && !muted() && line.author_id !== cfg.me) {
      announce.textContent = fill(T.newLine, { name: line.author, text: line.text });
    }
  }

  function onFrame(frame) {
    if (frame.type === "chat_history") {
      if (frame.room !== cfg.room) return;
      frame.lines.forEach(function (line) { add(line, false); });
    } else if (frame.type === "chat") {
      if (frame.room !== cfg.room) return;
      add(frame, true);
      if (frame.author_id === cfg.me) errorEl.textContent = "";
    } else if (frame.type === "error") {
      errorEl.textContent = frame.message;
      if (input && !input.value && lastSent) { input.value = lastSent; updateCount(); }
    }
  }
  document.addEventListener("kropki:chat", function (event) { onFrame(event.detail); });

  // -- writing ------------------------------------------------------------------

  function updateCount() {
    var n = chars(input.value);
    count.textContent = fill(T.counter || "%(n)s / %(max)s", { n: n, max: cfg.max });
    count.classList.toggle("over", n > cfg.max);
  }

  function say(text) {
    text = text.trim();
    if (!text) return false;
    lastSent = text;
    var sent = window.kropkiMatch && window.kropkiMatch.sendChat({ type: "chat", room: cfg.room, text: text });
    if (!sent) errorEl.textContent = T.offline || "";
    return !!sent;
  }

  if (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (say(input.value)) { input.value = ""; updateCount(); }
      input.focus();
    });
    input.addEventListener("input", updateCount);
    updateCount();
    Array.prototype.forEach.call(root.querySelectorAll("[data-phrase]"), function (button) {
      button.addEventListener("click", function () { say(button.dataset.phrase); });
    });
  }

  // -- reports ------------------------------------------------------------------

  var dialog = $("chat-report");
  var reportForm = $("chat-report-form");
  var answer = $("chat-report-answer");
  var reportOpener = null;  // the button that opened the dialog: the focus goes back to it

  function openReport(line, playerId, playerName) {
    if (!dialog) return;
    reportOpener = document.activeElement;
    $("chat-report-message").value = line ? String(line.id) : "";
    $("chat-report-player").value = playerId ? String(playerId) : "";
    $("chat-report-what").textContent = line
      ? fill(T.reportWhat, { name: line.author, text: line.text })
      : fill(T.reportPlayer, { name: playerName });
    $("chat-report-reason").value = "";
    answer.textContent = "";
    $("chat-report-send").disabled = false;
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
    $("chat-report-reason").focus();
  }

  Array.prototype.forEach.call(root.querySelectorAll("[data-report-player]"), function (button) {
    button.addEventListener("click", function () {
      openReport(null, button.dataset.reportPlayer, cfg.names[button.dataset.reportPlayer] || "");
    });
  });

  if (dialog) {
    $("chat-report-close").addEventListener("click", function () { dialog.close(); });
    reportForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var send = $("chat-report-send");
      send.disabled = true;
      answer.textContent = T.sending;
      fetch(reportForm.action, {
        method: "POST",
        body: new FormData(reportForm),
        credentials: "same-origin",
        headers: { "X-Requested-With": "fetch", "Accept": "application/json" },
      }).then(function (response) {
        return response.json();
      }).then(function (data) {
        if (data.ok) {
          // Sent: the dialog closes (nothing more to send) and the thanks stay in the panel.
          $("chat-report-done").textContent = data.message || "";
          dialog.close();
          if (reportOpener && document.body.contains(reportOpener)) reportOpener.focus();
          return;
        }
        answer.textContent = data.message || "";
        send.disabled = false;
      }).catch(function () {
        answer.textContent = T.failed;
        send.disabled = false;
      });
    });
  }
})();
