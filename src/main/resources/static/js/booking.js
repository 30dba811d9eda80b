// The booking form's quote never claims more than it knows: it says when it is checking, when it is out of date
// (the values changed, the pool's capacity changed, or the session ended), and refreshes itself when the calendar's
// event stream reports a change to its pool. A session that ended keeps the form: its values stay in this tab's
// storage, and signing in again comes back to /book?restore=1, which puts them back.
(function () {
  'use strict';

  var STORE = 'allot.booking-form';
  var states = [];
  window.allot = window.allot || {};
  window.allot.quoteStates = states;

  function form() {
    return document.getElementById('booking-form');
  }

  function setState(state, text) {
    var element = document.getElementById('quote-state');
    if (!element) {
      return;
    }
    element.setAttribute('data-state', state);
    element.textContent = text;
    var quote = document.getElementById('quote');
    if (quote) {
      quote.setAttribute('aria-busy', state === 'checking' ? 'true' : 'false');
    }
    states.push(state);
  }

  function save() {
    var f = form();
    if (!f) {
      return;
    }
    var fields = [];
    new FormData(f).forEach(function (value, name) {
      if (name !== '_csrf' && typeof value === 'string') {
        fields.push([name, value]);
      }
    });
    try {
      window.sessionStorage.setItem(STORE, JSON.stringify({ path: location.pathname, fields: fields }));
    } catch (e) {
      // storage full or off: the form still works, it just cannot come back after a sign-in
    }
  }

  function saved() {
    try {
      return JSON.parse(window.sessionStorage.getItem(STORE) || 'null');
    } catch (e) {
      return null;
    }
  }

  function restore() {
    var params = new URLSearchParams(location.search);
    if (!params.has('restore')) {
      return;
    }
    params.delete('restore');
    var query = params.toString();
    history.replaceState(null, '', location.pathname + (query ? '?' + query : '') + location.hash);
    var values = saved();
    var f = form();
    if (!values || !f) {
      return;
    }
    var byName = {};
    values.fields.forEach(function (pair) {
      (byName[pair[0]] = byName[pair[0]] || []).push(pair[1]);
    });
    Array.prototype.forEach.call(f.elements, function (element) {
      var name = element.name;
      if (!name || name === '_csrf' || element.type === 'submit' || element.type === 'button') {
        return;
      }
      var given = byName[name] || [];
      if (element.type === 'checkbox') {
        element.checked = given.length > 0;
      } else if (element.type === 'radio') {
        element.checked = given.indexOf(element.value) >= 0;
      } else if (given.length > 0) {
        element.value = given[0];
      }
    });
    var restored = document.getElementById('form-restored');
    if (restored) {
      restored.hidden = false;
    }
    requote('stale', 'Out of date: checking the restored values…');
  }

  function signInAgainLink() {
    var f = form();
    var params = new URLSearchParams();
    ['pool', 'project', 'gpus'].forEach(function (name) {
      var field = f && f.elements[name];
      if (field && field.value) {
        params.set(name, field.value);
      }
    });
    params.set('restore', '1');
    return '/book?' + params.toString();
  }

  function ended() {
    save();
    setState('stale', 'Out of date: your session has ended.');
    var notice = document.getElementById('session-ended');
    if (notice) {
      var link = document.getElementById('sign-in-again');
      if (link) {
        link.setAttribute('href', signInAgainLink());
      }
      notice.hidden = false;
    }
  }

  // 204 while signed in; 401 once the session has ended (the UI's security chain answers scripts so).
  function alive() {
    return fetch('/session', { headers: { 'HX-Request': 'true' }, credentials: 'same-origin', cache: 'no-store',
      redirect: 'manual' })
      .then(function (response) { return response.status === 204 || response.ok; },
        function () { return true; });
  }

  function requote(state, text) {
    var quoted = document.querySelector('#booking-form .quoted');
    if (quoted && window.htmx) {
      setState(state, text);
      window.htmx.trigger(quoted, 'requote');
    }
  }

  // Typing makes the quote shown stale until the new one arrives; every change is kept for a sign-in.
  function changed(event) {
    if (!event.target.closest || !event.target.closest('#booking-form')) {
      return;
    }
    save();
    var notice = document.getElementById('session-ended');
    if (event.target.closest('.quoted') && !(notice && !notice.hidden)) {
      setState('stale', 'Out of date: checking the new values…');
    }
  }
  document.addEventListener('input', changed);
  document.addEventListener('change', changed);

  document.addEventListener('htmx:beforeRequest', function (event) {
    if (event.target.closest && event.target.closest('#booking-form')) {
      setState('checking', 'Checking…');
    }
  });
  document.addEventListener('htmx:afterSwap', function () {
    var element = document.getElementById('quote-state');
    if (element) {
      states.push(element.getAttribute('data-state'));
    }
    watch();
  });
  document.addEventListener('htmx:responseError', function (event) {
    if (!event.target.closest || !event.target.closest('#booking-form')) {
      return;
    }
    if (event.detail.xhr && event.detail.xhr.status === 401) {
      ended();
    } else {
      setState('stale', 'Out of date: the quote could not be refreshed. It is checked again on the next change.');
    }
  });
  document.addEventListener('htmx:sendError', function (event) {
    if (event.target.closest && event.target.closest('#booking-form')) {
      setState('stale', 'Out of date: Allot could not be reached. It is checked again on the next change.');
    }
  });

  // Before booking, make sure the session is alive: a post after it ended would be refused and the form lost.
  window.addEventListener('submit', function (event) {
    var f = event.target;
    if (!f || f.id !== 'booking-form') {
      return;
    }
    if (f.getAttribute('data-session-checked') === 'yes') {
      f.removeAttribute('data-session-checked');
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    var submitter = event.submitter;
    save();
    alive().then(function (ok) {
      if (!ok) {
        ended();
        return;
      }
      f.setAttribute('data-session-checked', 'yes');
      if (submitter && submitter.form === f) {
        f.requestSubmit(submitter);
      } else {
        f.requestSubmit();
      }
    });
  }, true);

  // The calendar's live feed names each pool whose capacity changed: the quote of that pool is checked again.
  var source = null;
  var watched = {};
  var opened = false;

  function currentPool() {
    var select = document.getElementById('pool');
    return select ? select.value : null;
  }

  function watch() {
    var pool = currentPool();
    if (!source || !pool || watched[pool]) {
      return;
    }
    watched[pool] = true;
    source.addEventListener('capacity-' + pool, function () {
      if (currentPool() === pool) {
        requote('stale', 'Out of date: the capacity of ' + pool + ' changed; checking again…');
      }
    });
  }

  function listen() {
    if (!window.EventSource || !form()) {
      return;
    }
    source = new EventSource('/calendar/events');
    // sent on every (re)connection: after a reconnection changes may have been missed, so the quote is checked
    source.addEventListener('resync', function () {
      if (opened) {
        requote('stale', 'Out of date: checking again after a lost connection…');
      }
      opened = true;
    });
    source.addEventListener('error', function () {
      if (source.readyState === EventSource.CLOSED) {
        alive().then(function (ok) {
          if (!ok) {
            ended();
          }
        });
      }
    });
    watch();
  }

  document.addEventListener('DOMContentLoaded', function () {
    restore();
    listen();
  });
})();
