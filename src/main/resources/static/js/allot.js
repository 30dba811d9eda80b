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
