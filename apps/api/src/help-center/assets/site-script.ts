/**
 * The help center's only script, served as /assets/help-center.<hash>.js (immutable, `defer`). Every page works
 * without it; it only enhances:
 * - the feedback form posts JSON to the public feedback endpoint (`data-endpoint`) and says thank you in place,
 *   without a reload (the form still posts itself, as HTML, when the script is off or fetch is missing);
 * - on the search page, results follow the search box as the reader types (the same page fetched again, its
 *   results swapped in; the address follows with history.replaceState).
 * Plain ES2017 for every current browser, no dependencies, no inline code (the CSP allows scripts from 'self' only),
 * texts read from the page's own data attributes so they stay in the page's language.
 */
export const SITE_SCRIPT = `(function () {
  'use strict';
  if (!window.fetch || !document.querySelector) return;

  var form = document.getElementById('feedback-form');
  if (form) enhanceFeedback(form);
  var results = document.getElementById('search-results');
  if (results && window.DOMParser && window.history && window.history.replaceState) enhanceSearch(results);

  function enhanceFeedback(form) {
    var status = form.querySelector('.feedback-status');
    var chosen = null;
    var busy = false;
    form.addEventListener('click', function (event) {
      var target = event.target;
      var button = target && target.closest ? target.closest('button[name="type"]') : null;
      if (button) chosen = button.value;
    });
    form.addEventListener('submit', function (event) {
      var type = (event.submitter && event.submitter.value) || chosen;
      if (type !== 'positive' && type !== 'negative') return;
      event.preventDefault();
      if (busy) return;
      var comment = form.elements.namedItem('feedback').value.trim();
      var email = form.elements.namedItem('email').value.trim();
      var body = { type: type, feedback: comment || form.getAttribute('data-empty-comment') };
      if (email) body.email = email;
      setBusy(true);
      say('');
      fetch(form.getAttribute('data-endpoint'), {
        method: 'POST',
        credentials: 'omit',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body)
      }).then(function (response) {
        if (response.status === 201) return thank();
        setBusy(false);
        if (response.status === 429) {
          var wait = parseInt(response.headers.get('Retry-After') || '', 10);
          say(form.getAttribute('data-rate-limited').replace('{seconds}', String(wait > 0 ? wait : 60)));
        } else if (response.status === 400) {
          say(form.getAttribute('data-invalid'));
        } else {
          say(form.getAttribute('data-failed'));
        }
      }, function () {
        setBusy(false);
        say(form.getAttribute('data-failed'));
      });
    });

    function setBusy(value) {
      busy = value;
      form.setAttribute('aria-busy', value ? 'true' : 'false');
      var buttons = form.querySelectorAll('button');
      for (var i = 0; i < buttons.length; i++) buttons[i].disabled = value;
    }

    function say(text) {
      if (status) status.textContent = text;
    }

    function thank() {
      var thanks = document.createElement('p');
      thanks.id = 'feedback-thanks';
      thanks.className = 'thanks';
      thanks.setAttribute('role', 'status');
      thanks.tabIndex = -1;
      thanks.textContent = form.getAttribute('data-thanks');
      form.parentNode.replaceChild(thanks, form);
      thanks.focus();
    }
  }

  function enhanceSearch(results) {
    var input = document.querySelector('form[role="search"] input[name="q"]');
    if (!input || !input.form) return;
    var timer = null;
    var pending = null;
    var last = input.value.trim();
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 250);
    });

    function refresh() {
      var query = input.value.trim();
      if (query === last) return;
      last = query;
      var url = new URL(input.form.action, document.baseURI);
      url.searchParams.set('q', query);
      if (pending) pending.abort();
      pending = window.AbortController ? new AbortController() : null;
      results.setAttribute('aria-busy', 'true');
      fetch(url.href, { credentials: 'omit', headers: { Accept: 'text/html' }, signal: pending ? pending.signal : undefined })
        .then(function (response) {
          return response.ok ? response.text() : null;
        })
        .then(function (html) {
          results.removeAttribute('aria-busy');
          if (html === null) return;
          var page = new DOMParser().parseFromString(html, 'text/html');
          var fresh = page.getElementById('search-results');
          if (!fresh) return;
          while (results.firstChild) results.removeChild(results.firstChild);
          var nodes = fresh.childNodes;
          for (var i = 0; i < nodes.length; i++) results.appendChild(document.importNode(nodes[i], true));
          if (page.title) document.title = page.title;
          window.history.replaceState(null, '', url.pathname + url.search);
        })
        .catch(function () {
          results.removeAttribute('aria-busy');
        });
    }
  }
})();
`;
