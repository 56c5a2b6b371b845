/* The challenge page: "Copy the link" puts the link on the clipboard, or, where
 * the clipboard cannot be written (no permission, plain HTTP), selects the
 * text so that Ctrl+C copies it. The button stays hidden without JavaScript. */
(function () {
  "use strict";

  var button = document.getElementById("copy-link");
  var field = button && document.getElementById(button.dataset.copy);
  var status = document.getElementById("copy-status");
  if (!button || !field) return;

  function say(text) { if (status) status.textContent = text; }

  function selectField() {
    field.focus();
    field.select();
    field.setSelectionRange(0, field.value.length);
    say(button.dataset.select);
  }

  button.hidden = false;
  button.addEventListener("click", function () {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
      navigator.clipboard.writeText(field.value).then(function () { say(button.dataset.done); }, selectField);
    } else {
      selectField();
    }
  });
  // a click in the field selects the whole link
  field.addEventListener("focus", function () { field.select(); });
})();
