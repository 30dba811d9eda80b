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

// Times: the server renders <time data-local> in the zone of the allot_tz cookie (zone.js keeps it, from the
// sign-in page on); this renders those times in the browser's zone, with the zone named after each and UTC in the
// hover text.
(function () {
  'use strict';

  function pad(n) {
    return (n < 10 ? '0' : '') + n;
  }

  // seconds: "2027-01-05 10:00:07", for a time shown to the second (data-local="seconds")
  function local(date, seconds) {
    return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate()) + ' '
      + pad(date.getHours()) + ':' + pad(date.getMinutes()) + (seconds ? ':' + pad(date.getSeconds()) : '');
  }

  function utc(date, seconds) {
    return date.getUTCFullYear() + '-' + pad(date.getUTCMonth() + 1) + '-' + pad(date.getUTCDate()) + ' '
      + pad(date.getUTCHours()) + ':' + pad(date.getUTCMinutes()) + (seconds ? ':' + pad(date.getUTCSeconds()) : '')
      + ' UTC';
  }

  // The zone's short name at that date ("PST", "UTC", "GMT+5:30"), so that a time is never without its zone.
  function zoneName(date) {
    try {
      var parts = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(date);
      for (var i = 0; i < parts.length; i++) {
        if (parts[i].type === 'timeZoneName') {
          return parts[i].value;
        }
      }
    } catch (e) {
      // an old browser: the server's rendering stays
    }
    return null;
  }

  function renderTimes(root) {
    var times = (root || document).querySelectorAll('time[data-local]');
    for (var i = 0; i < times.length; i++) {
      var date = new Date(times[i].getAttribute('datetime'));
      var name = zoneName(date);
      var kind = times[i].getAttribute('data-local');
      var seconds = kind === 'seconds';
      if (!isNaN(date.getTime()) && name) {
        // a day alone (data-local="date") needs no zone after it: it is the viewer's day
        times[i].textContent = kind === 'date' ? local(date).substring(0, 10) : local(date, seconds) + ' ' + name;
        times[i].title = utc(date, seconds);
      }
    }
  }

  document.addEventListener('DOMContentLoaded', function () { renderTimes(document); });
  document.addEventListener('htmx:load', function (event) { renderTimes(event.target); });
  window.allot = window.allot || {};
  window.allot.renderTimes = renderTimes;
})();

// A table wider than its box scrolls inside it (.table-scroll): every such box can be focused and scrolled by
// keyboard, named after the table's caption or else the heading just before it (two tables of one section, such as a
// cluster's nodes and its health check's results, get the names of their own headings). Landmarks need distinct
// names, so a name already given to another box gets its position added. Every box, not only those that scroll now:
// a box in a closed <details>, or one a rotated phone narrows, starts to scroll without any event to mark it then.
(function () {
  'use strict';

  function headingBefore(box) {
    var headings = document.querySelectorAll('h1, h2, h3, h4');
    var found = null;
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING) {
        found = headings[i];
      }
    }
    return found;
  }

  function name(box) {
    var caption = box.querySelector('caption');
    var heading = caption ? null : headingBefore(box);
    var text = caption ? caption.textContent : (heading ? heading.textContent : 'Table');
    return text.replace(/\s+/g, ' ').trim() + ' (scrolls sideways)';
  }

  function mark(root) {
    var boxes = (root && root.querySelectorAll ? root : document).querySelectorAll('.table-scroll');
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i];
      box.setAttribute('tabindex', '0');
      box.setAttribute('role', 'region');
      if (!box.hasAttribute('aria-labelledby')) {
        box.removeAttribute('aria-label');
        var given = name(box);
        var others = Array.prototype.filter.call(document.querySelectorAll('.table-scroll[aria-label]'), function (b) {
          return b !== box && b.getAttribute('aria-label').indexOf(given.replace(/\)$/, '')) === 0;
        });
        box.setAttribute('aria-label', others.length ? given.replace(/\)$/, ', table ' + (others.length + 1) + ')') : given);
      }
    }
  }

  document.addEventListener('DOMContentLoaded', function () { mark(document); });
  document.addEventListener('htmx:load', function (event) { mark(event.target.parentNode || document); });
})();

// <form data-submit-once>: after the first submit its buttons are disabled, so a double click sends one request.
// The server does not rely on it: such forms carry an idempotency key.
(function () {
  'use strict';
  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute('data-submit-once') || event.defaultPrevented) {
      return;
    }
    // Enter in a field submits with the first submit button, which may be another action (such as a suggestion
    // shown above the main button): send it with the form's main button instead.
    var main = form.getAttribute('data-default-submit') && document.querySelector(form.getAttribute('data-default-submit'));
    if (main && event.submitter && event.submitter !== main && document.activeElement !== event.submitter) {
      event.preventDefault();
      // Not from inside this submit event: the browser ignores a submission started while it fires one.
      window.setTimeout(function () { form.requestSubmit(main); }, 0);
      return;
    }
    if (form.dataset.submitted === 'true') {
      event.preventDefault();
      return;
    }
    form.dataset.submitted = 'true';
    form.setAttribute('aria-busy', 'true');
    // Disabled after this tick: the clicked button's name and value still go with the form.
    window.setTimeout(function () {
      var buttons = document.querySelectorAll('button[type=submit]');
      for (var i = 0; i < buttons.length; i++) {
        if (buttons[i].form === form) {
          buttons[i].disabled = true;
        }
      }
    }, 0);
  });
  // Coming back to the page from the history cache: the form may be sent again.
  window.addEventListener('pageshow', function (event) {
    if (!event.persisted) {
      return;
    }
    var forms = document.querySelectorAll('form[data-submit-once]');
    for (var i = 0; i < forms.length; i++) {
      forms[i].dataset.submitted = 'false';
      forms[i].removeAttribute('aria-busy');
      var buttons = forms[i].querySelectorAll('button[type=submit]');
      for (var j = 0; j < buttons.length; j++) {
        buttons[j].disabled = false;
      }
    }
  });
})();
