// The capacity calendar: arrow keys move between cells (one tab stop for the whole grid), Shift picks a range
// in one row, the line above the grid describes the cell under the pointer or focus (and becomes its accessible
// name), and a status says whether live updates are connected. The server pushes "which rows changed"; htmx
// fetches those rows. Cells carry only their numbers: the pool and sizes are on the row, the time on the column.
(function () {
  'use strict';

  var anchor = null;   // { pool, index } of a range's first cell
  var current = null;  // { pool, index } of the cell that holds the tab stop

  function table() {
    return document.getElementById('calendar');
  }

  function cells() {
    return Array.prototype.slice.call(document.querySelectorAll('#calendar .cell'));
  }

  function header(cell) {
    var heads = table().tHead.rows;
    return heads[heads.length - 1].cells[cell.parentNode.cellIndex];
  }

  function at(place) {
    if (!place) {
      return null;
    }
    var row = document.getElementById('row-' + place.pool);
    var td = row && row.cells[place.index];
    return td ? td.querySelector('.cell') : null;
  }

  function placeOf(cell) {
    return { pool: cell.closest('tr').dataset.pool, index: cell.parentNode.cellIndex };
  }

  function describe(cell) {
    var row = cell.closest('tr');
    var head = header(cell);
    var daily = table().dataset.step === 'day';
    var text = row.dataset.pool + ', ' + head.dataset.label + ': ' + (daily ? 'at least ' : '') + cell.textContent
      + ' of ' + row.dataset.total + ' GPUs available' + (daily ? ' all day' : '') + ', ' + cell.dataset.x
      + ' allocated, ' + row.dataset.unhealthy + ' unhealthy';
    if (cell.dataset.m) {
      text += '; your reservations hold ' + cell.dataset.m;
    }
    return text;
  }

  function label(cell) {
    var text = describe(cell);
    cell.setAttribute('aria-label', text);
    cell.title = text;
    var line = document.getElementById('cell-info');
    if (line) {
      line.textContent = text;
    }
  }

  function rove(target) {
    var all = cells();
    if (!all.length) {
      return;
    }
    target = target || at(current) || all[0];
    all.forEach(function (cell) { cell.setAttribute('tabindex', cell === target ? '0' : '-1'); });
    current = placeOf(target);
  }

  function go(cell) {
    if (cell) {
      rove(cell);
      cell.focus();
    }
  }

  function move(cell, dRow, dCol) {
    var td = cell.parentNode;
    var row = td.parentNode;
    if (dRow === 0) {
      var index = Math.max(1, Math.min(row.cells.length - 1, td.cellIndex + dCol));
      go(row.cells[index].querySelector('.cell'));
      return;
    }
    var sibling = dRow > 0 ? row.nextElementSibling : row.previousElementSibling;
    while (sibling && !sibling.querySelector('.cell')) {
      sibling = dRow > 0 ? sibling.nextElementSibling : sibling.previousElementSibling;
    }
    if (sibling) {
      go(sibling.cells[Math.min(td.cellIndex, sibling.cells.length - 1)].querySelector('.cell'));
    }
  }

  function say(text) {
    var status = document.getElementById('range-status');
    if (status) {
      status.textContent = text;
    }
  }

  function mark() {
    cells().forEach(function (cell) { cell.classList.remove('anchor'); });
    var first = at(anchor);
    if (first) {
      first.classList.add('anchor');
    }
  }

  // Shift+click or Shift+Enter: the first cell starts a range, the second (same row) books from one to the other.
  function pick(cell) {
    var first = at(anchor);
    if (first && first.closest('tr') === cell.closest('tr')) {
      var a = header(first);
      var b = header(cell);
      var url = new URL(cell.href, window.location.href);
      url.searchParams.set('start', a.dataset.start < b.dataset.start ? a.dataset.start : b.dataset.start);
      url.searchParams.set('end', a.dataset.end > b.dataset.end ? a.dataset.end : b.dataset.end);
      anchor = null;
      mark();
      window.location.href = url.toString();
      return;
    }
    anchor = placeOf(cell);
    mark();
    say('Start chosen. Hold Shift and choose the last cell of the range in the same row.');
  }

  document.addEventListener('click', function (event) {
    var cell = event.target.closest('#calendar a.cell');
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
      var row = cell.closest('tr');
      go(row.cells[event.key === 'Home' ? 1 : row.cells.length - 1].querySelector('.cell'));
    } else if (event.key === 'Enter' && event.shiftKey && cell.hasAttribute('href')) {
      event.preventDefault();
      pick(cell);
    } else if (event.key === 'Escape') {
      anchor = null;
      mark();
      say('Range cleared.');
    }
  });

  document.addEventListener('focusin', function (event) {
    var cell = event.target.closest && event.target.closest('#calendar .cell');
    if (cell) {
      rove(cell);
      label(cell);
    }
  });

  document.addEventListener('mouseover', function (event) {
    var cell = event.target.closest && event.target.closest('#calendar .cell');
    if (cell) {
      label(cell);
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

  // New rows arrived (htmx:load fires on the new content; the replaced element is detached by then). A cell that
  // had the focus gets it back in the new row.
  document.addEventListener('htmx:load', function (event) {
    var target = event.target;
    if (!(target.closest && target.closest('#calendar') && (target.tagName === 'TR' || target.tagName === 'TBODY'))) {
      return;
    }
    var lostFocus = document.activeElement === document.body || !document.activeElement;
    rove(null);
    mark();
    if (lostFocus && current && (target.tagName === 'TBODY' || target.dataset.pool === current.pool)) {
      var again = at(current);
      if (again && document.body.dataset.calendarFocused === 'yes') {
        again.focus();
      }
    }
    live('Live updates: on, last change ' + clock());
  });

  document.addEventListener('focusin', function (event) {
    document.body.dataset.calendarFocused = event.target.closest && event.target.closest('#calendar .cell') ? 'yes' : 'no';
  });

  document.addEventListener('DOMContentLoaded', function () { rove(null); });
})();
