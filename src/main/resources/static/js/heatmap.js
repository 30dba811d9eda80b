// The capacity calendar as a heatmap: the data the page carries (or, when it is in another zone than the
// browser's, one read of /calendar/data in the browser's zone) drawn as SVG that fits the window; pools grouped by
// GPU type and region with a summary row per group; the exact numbers on hover and focus; drag or buttons to zoom
// (the URL keeps the view). The server's event stream names the pools that changed, and only those are read
// again. Below 600 CSS px (a phone) the same data is an agenda instead: the pools grouped, each with its next free
// windows and a bar per day. No library: the page stays light and works offline.
(function () {
  'use strict';

  var SVG = 'http://www.w3.org/2000/svg';
  var ZOOMS = [1, 3, 7, 14, 30, 90];
  var root = document.getElementById('heatmap');
  if (!root) {
    return;
  }
  var zone = browserZone();
  var state = {
    data: null,         // the last answer of /calendar/data
    rows: [],           // what is drawn, top to bottom: { group } or { pool }
    collapsed: collapsedFromUrl(),
    focus: { row: 0, col: 0 },
    anchor: null,       // { pool, col } of a range's first cell
    layout: null,
    renders: 0
  };

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || '';
    } catch (e) {
      return '';
    }
  }

  // The groups closed, as the URL says: a list of keys, or "none" (all open by choice); null when it says nothing,
  // and the first drawing then closes every group if the pools would not fit the screen.
  function collapsedFromUrl() {
    var value = new URLSearchParams(window.location.search).get('collapsed');
    if (value === null) {
      return null;
    }
    var set = {};
    (value && value !== 'none' ? value.split(',') : []).forEach(function (key) { set[key] = true; });
    return set;
  }

  // Past a screenful (every row at the smallest height the grid draws), the groups start closed, and a note says
  // so: 200 pools become a summary row per GPU type and region, each opened on demand.
  function collapseToFit(data) {
    var note = document.getElementById('collapsed-note');
    if (state.collapsed !== null) {
      return;
    }
    state.collapsed = {};
    var all = groups(data.pools);
    var rows = all.length + data.pools.length;
    var top = root.getBoundingClientRect().top + window.scrollY;
    var smallest = root.clientWidth < PHONE ? TOUCH : 8;
    if (all.length > 1 && rows * smallest > window.innerHeight - top - 34) {
      all.forEach(function (g) { state.collapsed[g.key] = true; });
      if (note) {
        note.textContent = data.pools.length + ' pools do not fit the screen, so their ' + all.length
          + ' groups (GPU type and region) are closed' + (agenda() ? '' : ': each row sums its pools')
          + '. Open a group (▸) to see its pools, or Expand all.';
        note.hidden = false;
      }
    }
  }

  // ---- reading -------------------------------------------------------------------------------------------------

  function query(pool) {
    var params = new URLSearchParams();
    if (root.dataset.from) {
      params.set('from', root.dataset.from);
    }
    params.set('days', root.dataset.days);
    params.set('step', root.dataset.step);
    if (zone) {
      params.set('tz', zone);
    }
    if (root.dataset.q) {
      params.set('q', root.dataset.q);
    }
    if (pool) {
      params.set('pool', pool);
    }
    return root.dataset.url + '?' + params.toString();
  }

  function read(url) {
    return fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }).then(function (response) {
      if (response.redirected || !response.ok || (response.headers.get('Content-Type') || '').indexOf('json') < 0) {
        throw new Error(response.status === 200 ? 'signed out' : 'status ' + response.status);
      }
      return response.json();
    });
  }

  var loadedAt = 0;

  function loadAll() {
    var started = performance.now();
    return read(query(null)).then(function (data) {
      show(data);
      root.dataset.fetchMs = Math.round(performance.now() - started);
    }, failed);
  }

  // All rows, read once: from the page or from /calendar/data.
  function show(data) {
    state.data = data;
    collapseToFit(data);
    listen(data.pools);
    render();
    loadedAt = Date.now();
    root.dataset.reads = String(Number(root.dataset.reads || 0) + 1);
  }

  // The data the page carries when it is in the browser's zone (the zone cookie is set before the first page;
  // a browser that moved zones since reads its own).
  function carried() {
    var element = document.getElementById('heatmap-data');
    if (!element || !element.textContent.trim()) {
      return null;
    }
    try {
      var data = JSON.parse(element.textContent);
      return !zone || data.zone === zone ? data : null;
    } catch (e) {
      return null;
    }
  }

  function loadPool(name) {
    return read(query(name)).then(function (data) {
      if (!state.data || !data.pools.length) {
        return;
      }
      var pools = state.data.pools;
      for (var i = 0; i < pools.length; i++) {
        if (pools[i].name === name) {
          pools[i] = data.pools[0];
        }
      }
      state.data.now = data.now;
      render();
      live('Live updates: on, last change ' + clock());
    }, failed);
  }

  function failed(error) {
    var message = String(error && error.message) === 'signed out'
      ? 'Your session has ended: reload the page to sign in again.'
      : 'The calendar could not be read (' + (error && error.message) + '). It is tried again on the next update.';
    info(message);
    live('Live updates: paused');
  }

  // ---- live updates --------------------------------------------------------------------------------------------

  var source = null;
  var listening = {};

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

  function listen(pools) {
    if (!source) {
      return;
    }
    pools.forEach(function (pool) {
      if (!listening[pool.name]) {
        listening[pool.name] = true;
        source.addEventListener('capacity-' + pool.name, function () { loadPool(pool.name); });
      }
    });
  }

  // A page drawn from the data it carries subscribes with the feed's mark from before that read: the stream then
  // names the pools changed since (each read again alone), or answers "resync" when it cannot tell (another
  // replica, or a lost database connection). The stream answers "resync" at once to a page without data, and to
  // every page after it lost its database connection: that is when the page reads all its data, so changes made
  // while the page was on its way are not missed, and the page reads its data once. Without a stream within 3 s
  // the page reads anyway.
  function connect() {
    var data = carried();
    if (!window.EventSource) {
      if (data) {
        show(data);
      } else {
        loadAll();
      }
      return;
    }
    var since = data && root.dataset.since ? '?since=' + encodeURIComponent(root.dataset.since) : '';
    source = new EventSource(root.dataset.events + since);
    if (data) {
      show(data);
    }
    source.addEventListener('open', function () { live('Live updates: on'); });
    source.addEventListener('error', function () { live('Live updates: reconnecting…'); });
    source.addEventListener('resync', function () {
      loadAll().then(function () { live('Live updates: on, last change ' + clock()); });
    });
    window.setTimeout(function () {
      if (!state.data) {
        loadAll();
      }
    }, 3000);
  }

  // ---- model ---------------------------------------------------------------------------------------------------

  // 0: none free; 1-7: some free, in sevenths of the pool; 8: all free. 56 of 64 free is 7, 64 of 64 is 8.
  function level(free, total) {
    if (total <= 0) {
      return 'x';
    }
    if (free <= 0) {
      return 0;
    }
    if (free >= total) {
      return 8;
    }
    return 1 + Math.min(6, Math.floor(7 * free / total));
  }

  function groupKey(pool) {
    return pool.gpuType + ' ' + pool.region;
  }

  function groups(pools) {
    var list = [];
    var byKey = {};
    pools.forEach(function (pool) {
      var key = groupKey(pool);
      if (!byKey[key]) {
        byKey[key] = { key: key, gpuType: pool.gpuType, region: pool.region, pools: [] };
        list.push(byKey[key]);
      }
      byKey[key].pools.push(pool);
    });
    list.forEach(function (group) {
      var n = state.data.columns.length;
      group.total = 0;
      group.free = new Array(n).fill(0);
      group.mine = new Array(n).fill(0);
      group.nodeFreeHours = new Array(n).fill(0);
      group.unhealthy = 0;
      group.pools.forEach(function (pool) {
        group.total += pool.total;
        group.unhealthy += pool.unhealthy;
        for (var i = 0; i < n; i++) {
          group.free[i] += pool.free[i];
          group.mine[i] += pool.mine[i];
          // at least: the hours one pool of the group has a node free
          group.nodeFreeHours[i] = Math.max(group.nodeFreeHours[i], pool.nodeFreeHours[i]);
        }
      });
    });
    return list;
  }

  function visibleRows() {
    var rows = [];
    groups(state.data.pools).forEach(function (group) {
      rows.push({ group: group });
      if (!state.collapsed[group.key]) {
        group.pools.forEach(function (pool) { rows.push({ pool: pool, group: group }); });
      }
    });
    return rows;
  }

  // ---- drawing -------------------------------------------------------------------------------------------------

  function esc(text) {
    return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }

  // Below this width (a phone) every cell is at least TOUCH px wide and high, a hit target for a finger, and the grid
  // scrolls sideways inside its box when the columns need more than the screen.
  var PHONE = 600;
  var TOUCH = 24;

  function layout(rowCount, columnCount) {
    var phone = root.clientWidth < PHONE;
    var label = Math.round(Math.min(230, Math.max(105, Math.max(300, root.clientWidth) * 0.15)));
    var width = Math.max(300, root.clientWidth, phone ? label + columnCount * TOUCH : 0);
    var axis = 30;
    var top = root.getBoundingClientRect().top + window.scrollY;
    // Fill the window below the grid's top; rows between 8 (TOUCH on a phone) and 26 px high.
    var room = window.innerHeight - top - axis - 4;
    var rowHeight = Math.max(phone ? TOUCH : 8, Math.min(26, Math.floor(room / Math.max(1, rowCount))));
    return {
      phone: phone, width: width, label: label, axis: axis, row: rowHeight,
      cell: (width - label) / columnCount, height: axis + rowHeight * rowCount
    };
  }

  // Every how many columns a label fits without overlapping the next: the widest label, at about 6.5 px a character
  // of the 11 px axis font, and a gap.
  function labelEvery(cell, hourly, cols) {
    var widest = 0;
    cols.forEach(function (col) { widest = Math.max(widest, String(col.label).length); });
    var room = Math.max(20, widest * 6.5 + 6);
    var steps = hourly ? [1, 2, 3, 6, 12, 24] : [1, 2, 7, 14];
    for (var i = 0; i < steps.length; i++) {
      if (steps[i] * cell >= room) {
        return steps[i];
      }
    }
    return steps[steps.length - 1];
  }

  function nowX(data, L) {
    var now = Date.parse(data.now);
    var cols = data.columns;
    for (var i = 0; i < cols.length; i++) {
      var s = Date.parse(cols[i].start);
      var e = Date.parse(cols[i].end);
      if (now >= s && now < e) {
        return L.label + L.cell * (i + (now - s) / (e - s));
      }
    }
    return now >= Date.parse(data.end) ? L.width : null;
  }

  // Where the run of cells from `from` on that `same` holds together ends (one cell, unless merging).
  function runEnd(columns, from, merge, same) {
    var end = from + 1;
    while (merge && end < columns.length && same(end)) {
      end++;
    }
    return end;
  }

  function hoursOf(col) {
    return Math.round((Date.parse(col.end) - Date.parse(col.start)) / 3600000);
  }

  // One row's cells. Where cells are drawn without gaps (4 px or narrower: the hourly views), a run of equal cells
  // is one rectangle: the 14-day hourly view of 50 pools draws a few thousand instead of 16,800, and looks the same.
  // A day that is not free all day but has a node free in some of its hours gets a bar along its top, as long as
  // the share of those hours.
  function cells(parts, row, y, L, cellW, cellH, markH, marks) {
    var cols = state.data.columns;
    var merge = L.cell <= 4;
    var daily = state.data.step === 'day';
    var levels = row.free.map(function (free) { return level(free, row.total); });
    var runs = 0;
    var i = 0;
    while (i < cols.length) {
      var end = runEnd(levels, i, merge, function (n) { return levels[n] === levels[i]; });
      parts.push('<rect class="c l' + levels[i] + '" x="' + (L.label + i * L.cell).toFixed(2) + '" y="' + y
        + '" width="' + (merge ? (end - i) * L.cell : cellW).toFixed(2) + '" height="' + cellH + '"/>');
      runs++;
      i = end;
    }
    var j = 0;
    while (marks && j < cols.length) {
      if (row.mine[j] <= 0) {
        j++;
        continue;
      }
      var markEnd = runEnd(levels, j, merge, function (n) { return row.mine[n] > 0; });
      parts.push('<rect class="mine" x="' + (L.label + j * L.cell).toFixed(2) + '" y="' + (y + cellH - markH)
        + '" width="' + (merge ? (markEnd - j) * L.cell : cellW).toFixed(2) + '" height="' + markH + '"/>');
      j = markEnd;
    }
    if (daily) {
      var barH = Math.max(2, Math.round(cellH * 0.3));
      for (var k = 0; k < cols.length; k++) {
        var hours = hoursOf(cols[k]);
        var some = row.nodeFreeHours[k];
        if (some > 0 && some < hours) {
          parts.push('<rect class="fh" x="' + (L.label + k * L.cell).toFixed(2) + '" y="' + y + '" width="'
            + (cellW * some / hours).toFixed(2) + '" height="' + barH + '"/>');
        }
      }
    }
    return runs;
  }

  // The heatmap on a wide screen, the agenda below the breakpoint; then what both tell the page and its tests.
  function render() {
    var started = performance.now();
    var data = state.data;
    var agendaShown = agenda();
    root.dataset.view = agendaShown ? 'agenda' : 'heatmap';
    if (agendaShown) {
      drawAgenda();
    } else {
      drawHeatmap();
    }
    var zoneLabel = document.getElementById('calendar-zone');
    if (zoneLabel) {
      zoneLabel.textContent = data.zone + (data.zoneAbbreviation && data.zoneAbbreviation !== data.zone
        ? ' (' + data.zoneAbbreviation + ')' : '');
    }
    var from = document.getElementById('view-from');
    if (from && !from.value) {
      from.placeholder = data.from;
    }
    state.renders++;
    root.dataset.renderMs = Math.round(performance.now() - started);
    if (state.renders === 1) {
      // When the viewer first sees the calendar, in ms since the navigation began: drawn, then painted (the
      // callback after the next frame runs once that frame is on the screen).
      root.dataset.drawnAt = Math.round(performance.now());
      window.requestAnimationFrame(function () {
        window.setTimeout(function () { root.dataset.paintedAt = Math.round(performance.now()); }, 0);
      });
    }
    root.dataset.renders = String(state.renders);
    root.dataset.zone = data.zone;
  }

  function drawHeatmap() {
    var data = state.data;
    var cols = data.columns;
    state.rows = visibleRows();
    var L = layout(state.rows.length, cols.length);
    state.layout = L;
    var hourly = data.step === 'hour';
    var parts = [];
    var fontSize = Math.max(8, Math.min(12, L.row - 1));
    parts.push('<svg xmlns="' + SVG + '" class="hm' + (L.width > root.clientWidth ? ' wide' : '')
      + '" id="heatmap-svg" role="application" tabindex="0"'
      + ' aria-describedby="calendar-help"'
      + ' aria-label="' + esc('GPUs free per pool, ' + data.days + (data.days === 1 ? ' day' : ' days') + ' by '
        + data.step + ', times in ' + data.zone) + '"'
      + ' width="' + L.width + '" height="' + L.height + '" viewBox="0 0 ' + L.width + ' ' + L.height + '">');
    parts.push('<defs><pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
      + '<rect width="2" height="4" fill="#525252"/></pattern></defs>');

    // The time axis: months (by day) or days (by hour) above, days or hours below.
    var every = labelEvery(L.cell, hourly, cols);
    var lastGroup = null;
    for (var c = 0; c < cols.length; c++) {
      var x = L.label + c * L.cell;
      if (cols[c].group !== lastGroup) {
        lastGroup = cols[c].group;
        parts.push('<text class="axis group" x="' + (x + 2).toFixed(1) + '" y="11">' + esc(cols[c].group) + '</text>');
        if (c > 0) {
          parts.push('<line class="sep" x1="' + x.toFixed(1) + '" x2="' + x.toFixed(1) + '" y1="' + L.axis
            + '" y2="' + L.height + '"/>');
        }
      }
      if (c % every === 0) {
        parts.push('<text class="axis" x="' + (x + 1).toFixed(1) + '" y="26">' + esc(cols[c].label) + '</text>');
      }
    }

    var cellW = Math.max(0.5, L.cell - (L.cell > 4 ? 1 : 0));
    var cellH = L.row - 1;
    var markH = Math.max(2, Math.round(L.row * 0.3));
    var drawn = 0;
    state.rows.forEach(function (row, r) {
      var y = L.axis + r * L.row;
      var mid = (y + L.row / 2 + fontSize / 2.8).toFixed(1);
      if (row.pool) {
        var pool = row.pool;
        parts.push('<g data-pool="' + esc(pool.name) + '">');
        parts.push('<text class="name" x="14" y="' + mid + '" font-size="' + fontSize + '">' + esc(pool.name)
          + '<title>' + esc(pool.name + ': ' + pool.gpuType + ', ' + pool.region + ', ' + pool.total + ' GPUs, '
            + pool.gpusPerNode + ' per node') + '</title></text>');
        if (pool.unhealthy > 0) {
          parts.push('<text class="warn" x="' + (L.label - 14) + '" y="' + mid + '" font-size="' + fontSize + '">⚠<title>'
            + esc(outages(pool)) + '</title></text>');
        }
        drawn += cells(parts, pool, y, L, cellW, cellH, markH, true);
        if (pool.unhealthy > 0 && pool.total > 0) {
          // Out of service now and until someone returns the nodes: hatched from now on, as a share of the row.
          var from = nowX(data, L);
          from = from === null ? L.label : Math.max(L.label, from);
          var h = Math.max(2, Math.round(cellH * pool.unhealthy / pool.total));
          parts.push('<rect class="out" fill="url(#hatch)" x="' + from.toFixed(1) + '" y="' + y + '" width="'
            + Math.max(0, L.width - from).toFixed(1) + '" height="' + h + '"/>');
        }
        parts.push('</g>');
      } else {
        var group = row.group;
        var open = !state.collapsed[group.key];
        parts.push('<g data-group="' + esc(group.key) + '" class="group-row">');
        parts.push('<rect class="group-band" x="0" y="' + y + '" width="' + L.label + '" height="' + cellH + '"/>');
        parts.push('<text class="group-name" x="2" y="' + mid + '" font-size="' + fontSize + '">' + (open ? '▾ ' : '▸ ')
          + esc(group.gpuType + ' · ' + group.region + ' (' + group.pools.length + ')') + '</text>');
        drawn += cells(parts, group, y, L, cellW, cellH, markH, !open);
        parts.push('</g>');
      }
    });

    // The past is paled; a line marks now.
    var nx = nowX(data, L);
    if (nx !== null) {
      parts.push('<rect class="past" x="' + L.label + '" y="' + L.axis + '" width="' + Math.max(0, nx - L.label).toFixed(1)
        + '" height="' + (L.height - L.axis) + '"/>');
      if (nx < L.width) {
        parts.push('<line class="now" id="now-line" x1="' + nx.toFixed(1) + '" x2="' + nx.toFixed(1) + '" y1="14" y2="'
          + L.height + '"/>');
        parts.push('<text class="now-label" x="' + Math.min(L.width - 24, nx + 3).toFixed(1) + '" y="20">now</text>');
      }
    }
    parts.push('<rect class="hm-anchor" id="hm-anchor" width="0" height="0"/>');
    parts.push('<rect class="hm-focus" id="hm-focus" width="0" height="0"/>');
    parts.push('<rect class="hm-drag" id="hm-drag" width="0" height="0"/>');
    parts.push('</svg>');

    var hadFocus = document.activeElement && document.activeElement.id === 'heatmap-svg';
    root.innerHTML = parts.join('');
    state.focus.row = Math.min(state.focus.row, state.rows.length - 1);
    state.focus.col = Math.min(state.focus.col, cols.length - 1);
    placeFocus(false);
    placeAnchor();
    if (hadFocus) {
      svg().focus();
      describeFocus();
    }
    root.dataset.cellRects = String(drawn);
  }

  function svg() {
    return document.getElementById('heatmap-svg');
  }

  function outages(pool) {
    var words = { QUARANTINED: 'in quarantine', IN_REPAIR: 'in repair' };
    return pool.unhealthy + ' GPUs out of service: ' + pool.outOfService.map(function (o) {
      return o.nodes + (o.nodes === 1 ? ' node ' : ' nodes ') + (words[o.state] || o.state.toLowerCase())
        + (o.reason ? ' (' + o.reason + ')' : '');
    }).join(', ');
  }

  // ---- the agenda (a phone) ------------------------------------------------------------------------------------

  // Below this width the calendar is an agenda instead of the grid: the pools grouped as the grid groups them, each
  // with its next free windows and a bar per day. allot.css hides the one not shown by the same query, so turning a
  // phone or narrowing a window switches at once, and the change listener draws what is now shown.
  var AGENDA_QUERY = '(max-width: 599.98px)';
  var agendaRoot = document.getElementById('agenda');
  var agendaMedia = window.matchMedia && agendaRoot ? window.matchMedia(AGENDA_QUERY) : null;
  // The window whose numbers are shown ("pool@start", as windowKey makes it), and the agenda's last markup (redrawn
  // only when it differs: a live update that changes nothing shown moves nothing under the finger).
  var chosen = null;
  var agendaHtml = '';

  function agenda() {
    return !!(agendaMedia && agendaMedia.matches);
  }

  if (agendaMedia) {
    agendaMedia.addEventListener('change', function () {
      if (state.data) {
        render();
      }
    });
  }

  // A pool's free windows from now on: runs of columns that start at or after now, in each of which at least one
  // whole node is free throughout (by day: all day), with the fewest GPUs free in the run.
  function freeWindows(pool) {
    var cols = state.data.columns;
    var now = Date.parse(state.data.now);
    var windows = [];
    var open = null;
    for (var c = 0; c < cols.length; c++) {
      var free = pool.total > 0 && Date.parse(cols[c].start) >= now && pool.free[c] >= pool.gpusPerNode;
      if (free && open) {
        open.last = c;
        open.free = Math.min(open.free, pool.free[c]);
      } else if (free) {
        open = { first: c, last: c, free: pool.free[c] };
        windows.push(open);
      } else {
        open = null;
      }
    }
    return windows;
  }

  // The view's days, each with the hours in which a node of the pool is free: a day's column, or by the hour the
  // hours of one day (the columns of one group).
  function dayShares(pool) {
    var cols = state.data.columns;
    var daily = state.data.step === 'day';
    var days = [];
    var last = null;
    for (var c = 0; c < cols.length; c++) {
      var name = daily ? cols[c].title : cols[c].group;
      if (!last || last.name !== name) {
        last = { name: name, short: daily ? cols[c].title.replace(/ \d{4}$/, '') : name, hours: 0, free: 0 };
        days.push(last);
      }
      last.hours += hoursOf(cols[c]);
      last.free += Math.min(hoursOf(cols[c]), pool.nodeFreeHours[c]);
    }
    return days;
  }

  // An instant as <time data-local>: allot.js renders it in the browser's zone, the one way the pages show a time.
  // Until then it reads as the server labelled the column that starts then (or in UTC at the view's end).
  function timeOf(iso) {
    var cols = state.data.columns;
    var t = Date.parse(iso);
    var label = null;
    for (var c = 0; c < cols.length && label === null; c++) {
      if (Date.parse(cols[c].start) === t) {
        label = cols[c].title;
      }
    }
    return '<time datetime="' + esc(iso) + '" data-local="datetime">' + esc(label || utc(iso)) + '</time>';
  }

  function windowKey(pool, w) {
    return pool.name + '@' + state.data.columns[w.first].start;
  }

  function windowLength(w) {
    var cols = state.data.columns;
    if (state.data.step === 'day') {
      var days = w.last - w.first + 1;
      return days + (days === 1 ? ' day' : ' days');
    }
    var hours = 0;
    for (var c = w.first; c <= w.last; c++) {
      hours += hoursOf(cols[c]);
    }
    return hours + (hours === 1 ? ' hour' : ' hours');
  }

  // The numbers of a window, in words: as markup, its times as <time>, or as plain text (for the status line), its
  // times as the columns' labels say them.
  function windowWords(pool, w, html) {
    var text = html ? esc : String;
    var cols = state.data.columns;
    var atEnd = w.last === cols.length - 1;
    var nodes = Math.floor(w.free / pool.gpusPerNode);
    var from = html ? timeOf(cols[w.first].start) : cols[w.first].title;
    var to = html ? timeOf(cols[w.last].end) : (atEnd ? utc(cols[w.last].end) : cols[w.last + 1].title);
    return text(pool.name + ': ' + (state.data.step === 'day' ? 'at least ' : '') + w.free + ' of ' + pool.total
      + ' GPUs free (' + nodes + (nodes === 1 ? ' whole node' : ' whole nodes') + ' of ' + pool.gpusPerNode
      + ' GPUs) throughout, from ') + from + ' to ' + (atEnd ? 'at least ' : '') + to
      + text((atEnd ? ' (where this view ends)' : '') + ', ' + windowLength(w) + '.');
  }

  function drawAgenda() {
    var data = state.data;
    var shown = 3;
    var parts = [];
    var chosenFound = false;
    var poolIndex = 0;
    groups(data.pools).forEach(function (group) {
      var open = !state.collapsed[group.key];
      parts.push('<section class="agenda-group" data-group="' + esc(group.key) + '"><h2><button type="button"'
        + ' class="agenda-toggle" data-toggle="' + esc(group.key) + '" aria-expanded="' + open + '">' + (open ? '▾ ' : '▸ ')
        + esc(group.gpuType + ' · ' + group.region + ' (' + group.pools.length
          + (group.pools.length === 1 ? ' pool' : ' pools') + ')') + '</button></h2>');
      if (!open) {
        parts.push('</section>');
        return;
      }
      group.pools.forEach(function (pool) {
        var id = 'agenda-' + (poolIndex++);
        var windows = freeWindows(pool);
        parts.push('<article class="agenda-pool" data-pool="' + esc(pool.name) + '" aria-labelledby="' + id + '-name">');
        parts.push('<h3 id="' + id + '-name">' + esc(pool.name) + ' <small>' + esc(pool.total + ' GPUs, '
          + pool.gpusPerNode + ' per node') + '</small></h3>');
        if (pool.unhealthy > 0) {
          parts.push('<p class="agenda-warn">⚠ ' + esc(outages(pool)) + '</p>');
        }
        parts.push('<p class="agenda-label" id="' + id + '-windows">' + (data.step === 'day'
          ? 'Next free days (a node free all day):' : 'Next free windows (a node free):') + '</p>');
        if (!windows.length) {
          parts.push('<p class="muted agenda-none">No free window in this view.</p>');
        } else {
          var chosenHere = windows.find(function (w) { return chosen !== null && windowKey(pool, w) === chosen; });
          parts.push('<ul class="agenda-windows" aria-labelledby="' + id + '-windows">');
          windows.slice(0, shown).forEach(function (w) {
            var key = windowKey(pool, w);
            var isChosen = chosen !== null && chosen === key;
            parts.push('<li><button type="button" class="agenda-window secondary outline" data-window="' + esc(key)
              + '" data-pool="' + esc(pool.name) + '" data-first="' + w.first + '" data-last="' + w.last
              + '" aria-expanded="' + isChosen + '" aria-controls="' + id + '-numbers">'
              + timeOf(data.columns[w.first].start) + ' – ' + timeOf(data.columns[w.last].end) + '</button></li>');
          });
          parts.push('</ul>');
          if (windows.length > shown) {
            parts.push('<p class="muted agenda-more">' + (windows.length - shown) + ' more later in this view.</p>');
          }
          parts.push('<div class="agenda-numbers" id="' + id + '-numbers"' + (chosenHere ? '' : ' hidden') + '>');
          if (chosenHere) {
            chosenFound = true;
            parts.push('<p class="agenda-words">' + windowWords(pool, chosenHere, true) + '</p>');
            parts.push(data.canBook
              ? '<a class="agenda-book" role="button" href="' + esc(bookUrl(pool.name, chosenHere.first, chosenHere.last))
                + '">Book this window</a>'
              : '<p>Your role does not book.</p>');
          }
          parts.push('</div>');
        }
        parts.push(dayBars(pool));
        parts.push('</article>');
      });
      parts.push('</section>');
    });
    if (chosen !== null && !chosenFound) {
      info('The window chosen is no longer free as it was: choose another.');
      chosen = null;
    }
    var html = parts.join('') || '<p class="muted">No pool matches.</p>';
    if (html === agendaHtml) {
      return;
    }
    var focused = document.activeElement && agendaRoot.contains(document.activeElement)
      ? document.activeElement.getAttribute('data-window') || document.activeElement.getAttribute('data-toggle') : null;
    agendaHtml = html;
    agendaRoot.innerHTML = html;
    if (window.allot && window.allot.renderTimes) {
      window.allot.renderTimes(agendaRoot);
    }
    if (focused) {
      var again = agendaRoot.querySelector('[data-window="' + CSS.escape(focused) + '"], [data-toggle="'
        + CSS.escape(focused) + '"]');
      if (again) {
        again.focus();
      }
    }
  }

  // A bar per day, as long as the share of its hours in which a node of the pool is free; the words say it too.
  function dayBars(pool) {
    var days = dayShares(pool);
    var parts = ['<ul class="agenda-days" aria-label="' + esc(pool.name + ': the share of each day\'s hours with a node free')
      + '">'];
    days.forEach(function (day) {
      var share = day.hours > 0 ? day.free / day.hours : 0;
      parts.push('<li><span class="agenda-day" aria-hidden="true">' + esc(day.short) + '</span><svg class="agenda-bar"'
        + ' role="img" aria-label="' + esc(day.name + ': a node free in ' + day.free + ' of its ' + day.hours + ' hours')
        + '" viewBox="0 0 100 10" preserveAspectRatio="none"><rect class="agenda-bar-all" width="100" height="10"/>'
        + '<rect class="agenda-bar-free" width="' + (100 * share).toFixed(1) + '" height="10"/></svg></li>');
    });
    parts.push('</ul>');
    return parts.join('');
  }

  // A tap (or click, or Enter) on a window shows its numbers, and another on it hides them; booking is the link they
  // come with, a second and separate step. A group's button opens or closes it, as its row does in the grid.
  if (agendaRoot) {
    agendaRoot.addEventListener('click', function (event) {
      var toggler = event.target.closest && event.target.closest('button[data-toggle]');
      if (toggler && state.data) {
        toggle(toggler.getAttribute('data-toggle'));
        return;
      }
      var button = event.target.closest && event.target.closest('button[data-window]');
      if (!button || !state.data) {
        return;
      }
      var key = button.getAttribute('data-window');
      chosen = chosen === key ? null : key;
      render();
      var pool = state.data.pools.find(function (p) { return p.name === button.getAttribute('data-pool'); });
      var w = chosen === null || !pool ? null
        : freeWindows(pool).find(function (each) { return windowKey(pool, each) === chosen; });
      info(w ? windowWords(pool, w, false) + (state.data.canBook ? ' Book this window is the next step.' : '') : ' ');
    });
  }

  // ---- describing a cell ---------------------------------------------------------------------------------------

  function pad(n) {
    return (n < 10 ? '0' : '') + n;
  }

  function utc(iso) {
    var d = new Date(iso);
    return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' '
      + pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ' UTC';
  }

  function describe(r, c) {
    var row = state.rows[r];
    var data = state.data;
    var col = data.columns[c];
    if (!row || !col) {
      return '';
    }
    var daily = data.step === 'day';
    var when = col.title + (col.title.slice(-data.zone.length) === data.zone ? '' : ' (' + data.zone + ')');
    var text;
    if (row.pool) {
      var pool = row.pool;
      text = pool.name + ', ' + when + ': ' + (daily ? 'at least ' : '') + pool.free[c] + ' of ' + pool.total
        + ' GPUs free' + (daily ? ' all day' : '') + ', ' + pool.allocated[c] + ' allocated'
        + (daily ? ', a node free in ' + pool.nodeFreeHours[c] + ' of its ' + hoursOf(col) + ' hours' : '');
      text += pool.unhealthy > 0 ? '; ' + outages(pool) : ', 0 out of service';
      if (pool.mine[c] > 0) {
        text += '; your reservations hold ' + pool.mine[c];
      }
    } else {
      var group = row.group;
      text = group.gpuType + ' in ' + group.region + ', ' + group.pools.length + (group.pools.length === 1 ? ' pool' : ' pools')
        + ', ' + when + ': ' + (daily ? 'at least ' : '') + group.free[c] + ' of ' + group.total + ' GPUs free'
        + (group.mine[c] > 0 ? '; your reservations hold ' + group.mine[c] : '')
        + (state.collapsed[group.key] ? ' (closed: Enter opens)' : ' (Enter closes)');
    }
    return text + '. Starts ' + utc(col.start) + '.';
  }

  function info(text) {
    var line = document.getElementById('cell-info');
    if (line) {
      line.textContent = text;
    }
  }

  function tip(r, c, show) {
    var box = document.getElementById('heatmap-tip');
    if (!box) {
      return;
    }
    if (!show) {
      box.hidden = true;
      return;
    }
    var L = state.layout;
    box.textContent = describe(r, c);
    box.hidden = false;
    // In the box's coordinates: the grid may be scrolled sideways (on a phone).
    var x = L.label + (c + 1) * L.cell + 8 - root.scrollLeft;
    var y = root.offsetTop + L.axis + (r + 1) * L.row + 4;
    if (x + box.offsetWidth > root.clientWidth) {
      x = L.label + c * L.cell - box.offsetWidth - 8 - root.scrollLeft;
    }
    box.style.left = (root.offsetLeft + Math.max(0, Math.min(x, root.clientWidth - box.offsetWidth))) + 'px';
    box.style.top = y + 'px';
  }

  function box(id, r, c) {
    var rect = document.getElementById(id);
    var L = state.layout;
    if (!rect || !L) {
      return;
    }
    rect.setAttribute('x', (L.label + c * L.cell - 1).toFixed(1));
    rect.setAttribute('y', String(L.axis + r * L.row - 1));
    rect.setAttribute('width', (L.cell + 1).toFixed(1));
    rect.setAttribute('height', String(L.row + 1));
  }

  function placeFocus(announce) {
    box('hm-focus', state.focus.row, state.focus.col);
    if (announce) {
      describeFocus();
    }
  }

  function describeFocus() {
    var text = describe(state.focus.row, state.focus.col);
    info(text);
    tip(state.focus.row, state.focus.col, true);
  }

  function placeAnchor() {
    var rect = document.getElementById('hm-anchor');
    if (!rect) {
      return;
    }
    var r = state.anchor ? rowOf(state.anchor.pool) : -1;
    if (r < 0) {
      rect.setAttribute('width', '0');
      return;
    }
    box('hm-anchor', r, state.anchor.col);
  }

  function rowOf(poolName) {
    for (var i = 0; i < state.rows.length; i++) {
      if (state.rows[i].pool && state.rows[i].pool.name === poolName) {
        return i;
      }
    }
    return -1;
  }

  // ---- acting --------------------------------------------------------------------------------------------------

  function bookUrl(pool, first, last) {
    var cols = state.data.columns;
    var params = new URLSearchParams({ pool: pool, start: cols[Math.min(first, last)].start, end: cols[Math.max(first, last)].end });
    return root.dataset.book + '?' + params.toString();
  }

  function activate(r, c, shift) {
    var row = state.rows[r];
    if (!row) {
      return;
    }
    if (row.group && !row.pool) {
      toggle(row.group.key);
      return;
    }
    if (!state.data.canBook) {
      info('Your role does not book. ' + describe(r, c));
      return;
    }
    if (shift) {
      if (state.anchor && state.anchor.pool === row.pool.name) {
        var url = bookUrl(row.pool.name, state.anchor.col, c);
        state.anchor = null;
        window.location.href = url;
        return;
      }
      state.anchor = { pool: row.pool.name, col: c };
      placeAnchor();
      info('Start chosen. Hold Shift and choose the last cell of the range in the same row.');
      return;
    }
    window.location.href = bookUrl(row.pool.name, c, c);
  }

  function toggle(key) {
    if (state.collapsed[key]) {
      delete state.collapsed[key];
    } else {
      state.collapsed[key] = true;
    }
    keepCollapsedInUrl();
    render();
  }

  function keepCollapsedInUrl() {
    var url = new URL(window.location.href);
    var keys = Object.keys(state.collapsed);
    url.searchParams.set('collapsed', keys.length ? keys.join(',') : 'none');
    var note = document.getElementById('collapsed-note');
    if (note) {
      note.hidden = true;
    }
    window.history.replaceState(null, '', url.toString());
  }

  // Another view: a new page (server-driven, and the URL keeps it).
  function go(from, days, step) {
    var url = new URL(root.dataset.page, window.location.href);
    if (from) {
      url.searchParams.set('from', from);
    }
    url.searchParams.set('days', String(days));
    if (step) {
      url.searchParams.set('step', step);
    }
    if (root.dataset.q) {
      url.searchParams.set('q', root.dataset.q);
    }
    var keys = Object.keys(state.collapsed);
    url.searchParams.set('collapsed', keys.length ? keys.join(',') : 'none');
    window.location.href = url.toString();
  }

  function localDate(iso) {
    // en-CA formats as yyyy-mm-dd.
    return new Intl.DateTimeFormat('en-CA', { timeZone: state.data.zone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .format(new Date(iso));
  }

  function addDays(date, days) {
    var d = new Date(date + 'T00:00:00Z');
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().substring(0, 10);
  }

  function daysBetween(a, b) {
    return Math.round((Date.parse(b + 'T00:00:00Z') - Date.parse(a + 'T00:00:00Z')) / 86400000);
  }

  function zoom(direction) {
    var days = state.data.days;
    var next;
    if (direction < 0) {
      next = ZOOMS.filter(function (z) { return z < days; }).pop();
    } else {
      next = ZOOMS.filter(function (z) { return z > days; })[0];
    }
    if (next === undefined) {
      return;
    }
    go(root.dataset.from || null, next, null);
  }

  function move(direction) {
    if (direction === 0) {
      go(null, state.data.days, state.data.step);
      return;
    }
    go(addDays(state.data.from, direction * state.data.days), state.data.days, state.data.step);
  }

  function zoomTo(first, last) {
    var cols = state.data.columns;
    var a = Math.min(first, last);
    var b = Math.max(first, last);
    var from = localDate(cols[a].start);
    var to = localDate(new Date(Date.parse(cols[b].end) - 1).toISOString());
    var days = Math.max(1, Math.min(90, daysBetween(from, to) + 1));
    go(from, days, days <= 14 ? 'hour' : 'day');
  }

  document.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('.zoom button');
    if (!button || !state.data) {
      return;
    }
    if (button.dataset.zoom) {
      zoom(Number(button.dataset.zoom));
    } else if (button.dataset.move) {
      move(Number(button.dataset.move));
    } else if (button.dataset.collapse) {
      state.collapsed = {};
      if (button.dataset.collapse === 'all') {
        groups(state.data.pools).forEach(function (g) { state.collapsed[g.key] = true; });
      }
      keepCollapsedInUrl();
      render();
    }
  });

  // ---- pointer -------------------------------------------------------------------------------------------------

  function hit(event) {
    var L = state.layout;
    var element = svg();
    if (!L || !element) {
      return null;
    }
    var bounds = element.getBoundingClientRect();
    var x = event.clientX - bounds.left;
    var y = event.clientY - bounds.top;
    var r = Math.floor((y - L.axis) / L.row);
    var c = Math.floor((x - L.label) / L.cell);
    var onLabel = x < L.label;
    if (r < 0 || r >= state.rows.length) {
      return null;
    }
    return { row: r, col: Math.max(0, Math.min(state.data.columns.length - 1, c)), onLabel: onLabel, x: x };
  }

  var drag = null;
  // A finger cannot hover: its first tap on a cell shows the cell's numbers, and only a second tap on the same cell
  // books it (the mouse books on the first click, having shown the numbers on hover).
  var pointerType = 'mouse';
  var tapped = null;


  function firstTap(at) {
    if (pointerType !== 'touch' && pointerType !== 'pen') {
      return false;
    }
    var row = state.rows[at.row];
    if (!row || !row.pool || (tapped && tapped.row === at.row && tapped.col === at.col)) {
      tapped = null;
      return false;
    }
    tapped = { row: at.row, col: at.col };
    var text = describe(at.row, at.col) + (state.data.canBook ? '\nTap the cell again to book it.' : '');
    info(text);
    tip(at.row, at.col, true);
    document.getElementById('heatmap-tip').textContent = text;
    return true;
  }

  // Pointer events, not mouse events: a finger's tap is one too, with its pointerType, whether or not the browser
  // also makes mouse events of it.
  root.addEventListener('pointerdown', function (event) {
    pointerType = event.pointerType || 'mouse';
    var at = hit(event);
    if (!at || event.button !== 0) {
      return;
    }
    drag = { start: at, x: at.x, moved: false };
    event.preventDefault();
  });

  root.addEventListener('pointermove', function (event) {
    var at = hit(event);
    if (drag) {
      var col = at ? at.col : drag.start.col;
      if (at && Math.abs(at.x - drag.x) > 5) {
        drag.moved = true;
      }
      if (drag.moved) {
        var L = state.layout;
        var rect = document.getElementById('hm-drag');
        var a = Math.min(col, drag.start.col);
        var b = Math.max(col, drag.start.col);
        rect.setAttribute('x', (L.label + a * L.cell).toFixed(1));
        rect.setAttribute('y', String(L.axis));
        rect.setAttribute('width', ((b - a + 1) * L.cell).toFixed(1));
        rect.setAttribute('height', String(L.height - L.axis));
        drag.col = col;
      }
    }
    if (!at || at.onLabel) {
      tip(0, 0, false);
      return;
    }
    info(describe(at.row, at.col));
    tip(at.row, at.col, true);
  });

  // a finger lifted leaves too: the numbers its tap showed stay
  root.addEventListener('pointerleave', function (event) {
    if (event.pointerType === 'mouse') {
      tip(0, 0, false);
    }
  });

  document.addEventListener('pointerup', function (event) {
    if (!drag) {
      return;
    }
    var started = drag;
    drag = null;
    if (started.moved) {
      zoomTo(started.start.col, started.col === undefined ? started.start.col : started.col);
      return;
    }
    var at = hit(event);
    if (at && at.row === started.start.row) {
      state.focus = { row: at.row, col: at.col };
      placeFocus(false);
      if (at.onLabel && state.rows[at.row].pool) {
        return;
      }
      if (firstTap(at)) {
        return;
      }
      activate(at.row, at.col, event.shiftKey);
    }
  });

  // ---- keyboard ------------------------------------------------------------------------------------------------

  root.addEventListener('keydown', function (event) {
    if (!state.data || event.target.id !== 'heatmap-svg') {
      return;
    }
    var f = state.focus;
    var last = state.data.columns.length - 1;
    var moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (moves[event.key]) {
      f.row = Math.max(0, Math.min(state.rows.length - 1, f.row + moves[event.key][0]));
      f.col = Math.max(0, Math.min(last, f.col + moves[event.key][1]));
    } else if (event.key === 'Home' || event.key === 'End') {
      f.col = event.key === 'Home' ? 0 : last;
    } else if (event.key === 'PageUp' || event.key === 'PageDown') {
      f.row = Math.max(0, Math.min(state.rows.length - 1, f.row + (event.key === 'PageUp' ? -10 : 10)));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate(f.row, f.col, event.shiftKey);
      return;
    } else if (event.key === '+' || event.key === '=') {
      zoom(-1);
    } else if (event.key === '-') {
      zoom(1);
    } else if (event.key === 'Escape') {
      state.anchor = null;
      placeAnchor();
      info('Range cleared.');
      tip(0, 0, false);
      return;
    } else {
      return;
    }
    event.preventDefault();
    placeFocus(true);
  });

  root.addEventListener('focusin', function (event) {
    if (event.target.id === 'heatmap-svg' && state.data) {
      placeFocus(true);
    }
  });

  root.addEventListener('focusout', function () { tip(0, 0, false); });

  var resizing = null;
  window.addEventListener('resize', function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(function () {
      if (state.data) {
        render();
      }
    }, 100);
  });

  // For tests and for people at the console: where a cell is, and what the page says about it.
  window.allotHeatmap = {
    state: state,
    column: function (startIso) {
      var t = Date.parse(startIso);
      return state.data.columns.findIndex(function (c) { return Date.parse(c.start) === t; });
    },
    focusCell: function (pool, startIso) {
      var r = rowOf(pool);
      var c = this.column(startIso);
      if (r < 0 || c < 0) {
        return null;
      }
      state.focus = { row: r, col: c };
      svg().focus();
      placeFocus(true);
      return describe(r, c);
    },
    cellCentre: function (pool, startIso) {
      var r = rowOf(pool);
      var c = this.column(startIso);
      if (r < 0 || c < 0) {
        return null;
      }
      var L = state.layout;
      return { x: Math.round(L.label + (c + 0.5) * L.cell), y: Math.round(L.axis + (r + 0.5) * L.row) };
    },
    loadedAt: function () { return loadedAt; }
  };

  connect();
})();
