/**
 * The developer settings' only script, served as /settings/assets/settings.<hash>.js (immutable, `defer`). Every
 * page works without it; it only helps:
 * - a once-shown key or secret gets a Copy button (hidden without the script): the clipboard when the browser
 *   allows it, else the field's text selected and copied the old way; the result is announced in a status line;
 * - the read-only secret fields select their whole text when focused or clicked;
 * - a refused form moves focus to its error summary, so a screen reader hears the problems first.
 * Plain ES2017, no dependencies, no inline code (the CSP allows scripts from 'self' only).
 */
export const SETTINGS_SCRIPT = `(function () {
  'use strict';
  if (!document.querySelectorAll) return;

  var fields = document.querySelectorAll('input[data-select-on-focus]');
  for (var i = 0; i < fields.length; i++) {
    fields[i].addEventListener('focus', selectAll);
    fields[i].addEventListener('click', selectAll);
  }
  function selectAll(event) { event.target.select(); }

  var buttons = document.querySelectorAll('button[data-copy]');
  for (var j = 0; j < buttons.length; j++) enableCopy(buttons[j]);

  function enableCopy(button) {
    var id = button.getAttribute('data-copy');
    var input = document.getElementById(id);
    var status = document.querySelector('[data-copy-status="' + id + '"]');
    if (!input) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var text = input.value;
      if (navigator.clipboard && navigator.clipboard.writeText && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { say('Copied to the clipboard.'); }, fallback);
      } else {
        fallback();
      }
    });
    function fallback() {
      input.focus();
      input.select();
      var copied = false;
      try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
      say(copied ? 'Copied to the clipboard.' : 'Selected: press Ctrl+C (or Cmd+C) to copy.');
    }
    function say(text) {
      if (!status) return;
      status.textContent = '';
      setTimeout(function () { status.textContent = text; }, 50);
    }
  }

  var summary = document.querySelector('[data-error-summary]');
  if (summary) summary.focus();
})();
`;
