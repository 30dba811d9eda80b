// The capacity calendar: arrow keys move between cells (one tab stop for the whole grid), Shift picks a range
// in one row, the line above the grid shows the counts of the cell under the pointer or focus, and a status
// says whether live updates are connected. The server pushes "which rows changed"; htmx fetches them.
(function () {
  'use strict';

  var anchor = null;
  var current = null;

  function cells() {
    return Array.prototype.slice.call(document.querySelectorAll('#calendar .cell'));
  }

  function rowCells(cell) {
    return Array.prototype.slice.call(cell.closest('tr').querySelectorAll('.cell'));
  }

  function rove(target) {
    var all = cells();
    if (!all.length) {
      return;
    }
    if (!target || !document.body.contains(target)) {
      target = (current && document.getElementById(current)) || all[0];
    }
    all.forEach(function (cell) { cell.setAttribute('tabindex', cell === target ? '0' : '-1'); });
    current = target.id;
  }

  function move(cell, dRow, dCol) {
    var row = cell.closest('tr');
    var inRow = rowCells(cell);
    var col = inRow.indexOf(cell);
    var next = null;
    if (dRow === 0) {
      next = inRow[Math.max(0, Math.min(inRow.length - 1, col + dCol))];
    } else {
      var sibling = dRow > 0 ? row.nextElementSibling : row.previousElementSibling;
      while (sibling && !sibling.querySelector('.cell')) {
        sibling = dRow > 0 ? sibling.nextElementSibling : sibling.previousElementSibling;
      }
      if (sibling) {
        var other = sibling.querySelectorAll('.cell');
        next = other[Math.min(col, other.length - 1)];
      }
    }
    if (next) {
      rove(next);
      next.focus();
    }
  }

  function info(cell) {
    var line = document.getElementById('cell-info');
    if (line && cell) {
      line.textContent = cell.getAttribute('aria-label');
    }
  }

  function say(text) {
    var status = document.getElementById('range-status');
    if (status) {
      status.textContent = text;
    }
  }

  function clearAnchor() {
    if (anchor) {
      var old = document.getElementById(anchor);
      if (old) {
        old.classList.remove('anchor');
      }
    }
    anchor = null;
  }

  // Shift+click or Shift+Enter: the first cell starts a range, the second (same row) books from one to the other.
  function pick(cell) {
    var first = anchor && document.getElementById(anchor);
    if (first && first.closest('tr') === cell.closest('tr')) {
      var start = first.dataset.start < cell.dataset.start ? first.dataset.start : cell.dataset.start;
      var end = first.dataset.end > cell.dataset.end ? first.dataset.end : cell.dataset.end;
      var url = new URL(cell.href, window.location.href);
      url.searchParams.set('start', start);
      url.searchParams.set('end', end);
      clearAnchor();
      window.location.href = url.toString();
      return;
    }
    clearAnchor();
    anchor = cell.id;
    cell.classList.add('anchor');
    say('Start chosen. Hold Shift and choose the last cell of the range in the same row.');
  }

  document.addEventListener('click', function (event) {
    var cell = event.target.closest('#calendar a.cell[href]');
    if (cell && event.shiftKey) {
      event.preventDefault();
      pick(cell);
    }
  });

  document.addEventListener('keydown', function (event) {
    var cell = event.target.closest && event.target.closest('#calendar .cell');
    if (!cell) {
      return;
    }
    var keys = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (keys[event.key]) {
      event.preventDefault();
      move(cell, keys[event.key][0], keys[event.key][1]);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      var inRow = rowCells(cell);
      var target = event.key === 'Home' ? inRow[0] : inRow[inRow.length - 1];
      rove(target);
      target.focus();
    } else if (event.key === 'Enter' && event.shiftKey && cell.hasAttribute('href')) {
      event.preventDefault();
      pick(cell);
    } else if (event.key === 'Escape') {
      clearAnchor();
      say('Range cleared.');
    }
  });

  document.addEventListener('focusin', function (event) {
    var cell = event.target.closest && event.target.closest('#calendar .cell');
    if (cell) {
      rove(cell);
      info(cell);
    }
  });

  document.addEventListener('mouseover', function (event) {
    var cell = event.target.closest && event.target.closest('#calendar .cell');
    if (cell) {
      info(cell);
    }
  });

  function live(text) {
    var status = document.getElementById('live-status');
    if (status) {
      status.textContent = text;
    }
  }

  function clock() {
    var now = new Date();
    var pad = function (n) { return (n < 10 ? '0' : '') + n; };
    return pad(now.getHours()) + ':' + pad(now.getMinutes()) + ':' + pad(now.getSeconds());
  }

  document.addEventListener('htmx:sseOpen', function () { live('Live updates: on'); });
  document.addEventListener('htmx:sseError', function () { live('Live updates: reconnecting…'); });
  // New rows arrived (htmx:load fires on the new content; the replaced element is detached by then).
  document.addEventListener('htmx:load', function (event) {
    var target = event.target;
    if (target.closest && target.closest('#calendar') && (target.tagName === 'TR' || target.tagName === 'TBODY')) {
      rove(null);
      if (anchor && document.getElementById(anchor)) {
        document.getElementById(anchor).classList.add('anchor');
      }
      live('Live updates: on, last change ' + clock());
    }
  });
  document.addEventListener('DOMContentLoaded', function () { rove(null); });
})();
