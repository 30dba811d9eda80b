// Allot's small browser helpers. No inline scripts: the Content-Security-Policy allows only files from 'self'.
(function () {
  'use strict';

  function status(button, message) {
    var section = button.closest('section') || document;
    var region = section.querySelector('.copy-status');
    if (region) {
      region.textContent = message;
    }
  }

  // <button data-copy="#selector">: copies the value (or text) of the element the selector names.
  document.addEventListener('click', function (event) {
    var button = event.target.closest('button[data-copy]');
    if (!button) {
      return;
    }
    var source = document.querySelector(button.getAttribute('data-copy'));
    if (!source) {
      return;
    }
    var text = source.value !== undefined ? source.value : source.textContent;
    var done = function () { status(button, 'Copied to the clipboard.'); };
    var fallback = function () {
      source.focus();
      if (source.select) {
        source.select();
      }
      try {
        document.execCommand('copy') ? done() : status(button, 'Selected: press Ctrl+C (or ⌘C) to copy.');
      } catch (e) {
        status(button, 'Selected: press Ctrl+C (or ⌘C) to copy.');
      }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, fallback);
    } else {
      fallback();
    }
  });
})();

// Times: the server renders <time data-local> in the zone of the allot_tz cookie (UTC until it is set); this
// keeps the cookie equal to the browser's zone and renders those times in it, with UTC in the hover text.
(function () {
  'use strict';

  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    zone = null;
  }
  if (zone) {
    var cookie = 'allot_tz=' + encodeURIComponent(zone);
    if (document.cookie.split('; ').indexOf(cookie) < 0) {
      document.cookie = cookie + '; path=/; max-age=31536000; SameSite=Lax';
    }
  }

  function pad(n) {
    return (n < 10 ? '0' : '') + n;
  }

  function local(date) {
    return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate()) + ' '
      + pad(date.getHours()) + ':' + pad(date.getMinutes());
  }

  function utc(date) {
    return date.getUTCFullYear() + '-' + pad(date.getUTCMonth() + 1) + '-' + pad(date.getUTCDate()) + ' '
      + pad(date.getUTCHours()) + ':' + pad(date.getUTCMinutes()) + ' UTC';
  }

  function renderTimes(root) {
    var times = (root || document).querySelectorAll('time[data-local]');
    for (var i = 0; i < times.length; i++) {
      var date = new Date(times[i].getAttribute('datetime'));
      if (!isNaN(date.getTime())) {
        times[i].textContent = local(date);
        times[i].title = utc(date);
      }
    }
  }

  document.addEventListener('DOMContentLoaded', function () { renderTimes(document); });
  document.addEventListener('htmx:load', function (event) { renderTimes(event.target); });
  window.allot = window.allot || {};
  window.allot.renderTimes = renderTimes;
})();
