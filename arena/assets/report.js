// The tournament report: draws the standings (with confidence-interval bars), the crosstable
// heat map, chips over time, faults and the list of matches from the JSON embedded in the
// page (`standings` as in standings.json, `matches` as in results.jsonl plus each replay
// page's relative link). Charts are SVG, drawn here; nothing is fetched.
(function () {
  'use strict';

  const SVG_NS = 'http://www.w3.org/2000/svg';
  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f', '#393b79', '#637939'];

  // ---------------------------------------------------------------- helpers

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    for (const child of children || []) node.append(child);
    return node;
  }

  function svg(tag, attrs, children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    for (const child of children || []) node.append(child);
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === 'class') node.setAttribute('class', value);
      else if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
  }

  // `x` with its sign; BigInts (integers beyond 2^53, see exact_json.js) exactly.
  function signed(x, digits) {
    if (typeof x === 'bigint') return (x > 0n ? '+' : '') + x.toString();
    const text = x.toFixed(digits);
    return x > 0 || (x === 0 && !text.startsWith('-')) ? '+' + text : text;
  }

  function signClass(x) {
    return x > 0 ? 'pos' : x < 0 ? 'neg' : '';
  }

  function totalFaults(faults) {
    return Object.values(faults || {}).reduce((a, b) => window.ArenaJson.add(a, b), 0);
  }

  // Round numbers for axis ticks covering [lo, hi].
  function niceTicks(lo, hi, count) {
    if (lo === hi) return [lo];
    const raw = (hi - lo) / Math.max(1, count);
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) || 10 * power;
    const ticks = [];
    for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
    return ticks;
  }

  function formatTick(x) {
    const abs = Math.abs(x);
    if (abs >= 1e6) return (x / 1e6).toFixed(abs >= 1e7 ? 0 : 1) + 'M';
    if (abs >= 1e4) return (x / 1e3).toFixed(0) + 'k';
    return String(Math.round(x * 1000) / 1000);
  }

  function linear(domain, range) {
    const [d0, d1] = domain;
    const [r0, r1] = range;
    return (x) => (d1 === d0 ? (r0 + r1) / 2 : r0 + ((x - d0) / (d1 - d0)) * (r1 - r0));
  }

  // ---------------------------------------------------------------- header

  function describeTournament(data) {
    const t = data.tournament;
    const s = data.standings;
    const parts = [];
    if (t) {
      parts.push(t.settings.variant, t.format, t.seats + ' seats', t.hands + ' hands a match', t.rounds + (t.rounds === 1 ? ' round' : ' rounds'));
      if (t.duplicate) parts.push('duplicate deals');
      parts.push('seed ' + t.seed);
    }
    parts.push(s.matches + ' matches', s.blocks + ' duplicate blocks', s.bots.length + ' bots');
    return parts.join(' \u00b7 ');
  }

  // ---------------------------------------------------------------- standings

  // The common scale of every CI bar: all intervals, all means and zero.
  function ciDomain(bots) {
    let lo = 0;
    let hi = 0;
    for (const b of bots) {
      lo = Math.min(lo, b.chips_per_hand, b.ci ? b.ci.low : Infinity);
      hi = Math.max(hi, b.chips_per_hand, b.ci ? b.ci.high : -Infinity);
    }
    const pad = (hi - lo) * 0.06 || 1;
    return [lo - pad, hi + pad];
  }

  // CI bars and their axis are drawn in percentages of the cell's width: no distortion.
  function pct(x) {
    return x.toFixed(2) + '%';
  }

  function ciAxis(domain) {
    const x = linear(domain, [0, 100]);
    const ticks = niceTicks(domain[0], domain[1], 5);
    return svg('svg', { 'aria-hidden': 'true' },
      ticks.map((t) => svg('text', { x: pct(x(t)), y: 12, 'text-anchor': 'middle', 'font-size': 10, fill: '#5f6b73', text: formatTick(t) })));
  }

  function ciBar(bot, domain, colour) {
    const x = linear(domain, [0, 100]);
    const parts = [svg('line', { x1: pct(x(0)), x2: pct(x(0)), y1: 0, y2: 26, stroke: '#9c978b', 'stroke-dasharray': '3 3' })];
    if (bot.ci) {
      const width = Math.max(0.3, x(bot.ci.high) - x(bot.ci.low));
      parts.push(svg('rect', { x: pct(x(bot.ci.low)), y: 8, width: pct(width), height: 10, rx: 4, fill: colour, 'fill-opacity': 0.25, stroke: colour }));
    } else {
      parts.push(svg('line', { x1: '0%', x2: '100%', y1: 13, y2: 13, stroke: colour, 'stroke-dasharray': '2 3' }));
    }
    parts.push(svg('circle', { cx: pct(x(bot.chips_per_hand)), cy: 13, r: 5, fill: colour, stroke: '#fff', 'stroke-width': 1.5 }));
    const title = bot.ci ? '95% CI [' + signed(bot.ci.low, 3) + ', ' + signed(bot.ci.high, 3) + ']' : '95% CI unbounded (one duplicate block)';
    parts.push(svg('title', { text: bot.name + ': ' + signed(bot.chips_per_hand, 3) + ' chips/hand, ' + title }));
    return svg('svg', { 'data-testid': 'ci-bar', role: 'img' }, parts);
  }

  function ciText(bot) {
    return bot.ci ? '[' + signed(bot.ci.low, 3) + ', ' + signed(bot.ci.high, 3) + ']' : 'unbounded';
  }

  function ratingText(bot) {
    return signed(bot.rating, 0) + ' \u00b1 ' + (bot.rating_error === null ? 'inf' : bot.rating_error.toFixed(0));
  }

  function standingsRow(bot, domain, colour) {
    const cell = (col, text, cls) => el('td', { 'data-col': col, class: cls || 'num', text });
    return el('tr', { 'data-testid': 'standings-row', 'data-bot': bot.name }, [
      cell('rank', bot.rank),
      cell('tier', bot.tier === undefined ? '' : bot.tier),
      el('td', { 'data-col': 'name', class: 'bot' }, [el('span', { class: 'swatch', style: 'background:' + colour }), bot.name]),
      cell('chips_per_hand', signed(bot.chips_per_hand, 3), 'num ' + signClass(bot.chips_per_hand)),
      el('td', { 'data-col': 'ci', class: 'ci-cell', 'data-low': bot.ci ? bot.ci.low : '', 'data-high': bot.ci ? bot.ci.high : '' }, [
        ciBar(bot, domain, colour),
        el('div', { class: 'ci-text', text: ciText(bot) }),
      ]),
      cell('chips', signed(bot.chips, 0), 'num ' + signClass(bot.chips)),
      cell('wld', bot.won + '-' + bot.lost + '-' + bot.drawn),
      cell('rating', ratingText(bot)),
      cell('hands', bot.hands),
      cell('faults', totalFaults(bot.faults), 'num' + (totalFaults(bot.faults) > 0 ? ' neg' : '')),
    ]);
  }

  function renderStandings(data, colours) {
    const bots = data.standings.bots;
    const domain = ciDomain(bots);
    $('ci-axis').replaceChildren(ciAxis(domain));
    $('standings-body').replaceChildren(...bots.map((b) => standingsRow(b, domain, colours.get(b.name))));
    $('standings-note').textContent = bots.length === 0
      ? 'No finished matches yet.'
      : data.gauntlet
        ? 'A gauntlet: per-bot totals, not a ranking (the reference bots played only the candidates, never each other; the gauntlet table above ranks the candidates). Bars: 95% confidence interval over duplicate blocks (dot: the mean; dashed line: zero).'
        : 'Ordered by chips per hand. Bars: 95% confidence interval over duplicate blocks (dot: the mean; dashed line: zero).';
  }

  // ---------------------------------------------------------------- crosstable

  function heatColour(edge, maxAbs) {
    const t = Math.min(1, Math.abs(edge) / (maxAbs || 1));
    const [r, g, b] = edge >= 0 ? [27, 127, 75] : [179, 38, 30];
    const mix = (c) => Math.round(255 + (c - 255) * (0.12 + 0.78 * t));
    return 'rgb(' + mix(r) + ',' + mix(g) + ',' + mix(b) + ')';
  }

  function crossCell(entry, maxAbs) {
    const mark = entry.mark === '+' ? '+' : entry.mark === '-' ? '\u2212' : '';
    const ci = entry.ci ? ' [' + signed(entry.ci.low, 3) + ', ' + signed(entry.ci.high, 3) + ']' : ' (interval unbounded)';
    const strong = Math.abs(entry.edge_per_hand) / (maxAbs || 1) > 0.55;
    return el('td', {
      'data-testid': 'crosstable-cell',
      'data-bot': entry.bot,
      'data-opponent': entry.opponent,
      'data-edge': entry.edge_per_hand,
      'data-mark': entry.mark,
      class: entry.mark ? 'sig' : '',
      style: 'background:' + heatColour(entry.edge_per_hand, maxAbs) + (strong ? ';color:#fff' : ''),
      title: entry.bot + ' vs ' + entry.opponent + ': edge ' + signed(entry.edge_per_hand, 3) + '/hand' + ci + ', ' + entry.matches + ' matches, ' + entry.hands + ' hands',
      text: signed(entry.edge_per_hand, 2) + mark,
    });
  }

  function renderCrosstable(data) {
    const bots = data.standings.bots;
    const cells = new Map(data.standings.crosstable.map((e) => [e.bot + '\u0000' + e.opponent, e]));
    const maxAbs = Math.max(0, ...data.standings.crosstable.map((e) => Math.abs(e.edge_per_hand)));
    const head = el('tr', {}, [el('th', { text: 'row \\ column' })].concat(bots.map((b) => el('th', { title: b.name, text: b.rank + '. ' + b.name }))));
    const rows = bots.map((row) =>
      el('tr', {}, [el('th', { class: 'row', text: row.rank + '. ' + row.name })].concat(bots.map((col) => {
        if (row.name === col.name) return el('td', { class: 'self', text: '\u2014' });
        const entry = cells.get(row.name + '\u0000' + col.name);
        return entry ? crossCell(entry, maxAbs) : el('td', { class: 'none', text: '\u00b7', title: 'never met' });
      }))));
    const table = el('table', { class: 'heat', 'data-testid': 'crosstable' }, [el('thead', {}, [head]), el('tbody', {}, rows)]);
    $('crosstable').replaceChildren(bots.length ? table : el('p', { class: 'muted', text: 'No matches yet.' }));
  }

  // ---------------------------------------------------------------- chips over time

  // series[bot] = cumulative chips after each of the matches (in index order), from 0.
  function chipSeries(data) {
    const names = data.standings.bots.map((b) => b.name);
    const totals = new Map(names.map((n) => [n, 0]));
    const series = new Map(names.map((n) => [n, [0]]));
    for (const m of data.matches) {
      m.seats.forEach((name, seat) => totals.set(name, window.ArenaJson.add(totals.get(name) || 0, m.net[seat] || 0)));
      for (const name of names) series.get(name).push(totals.get(name));
    }
    return series;
  }

  const CHART = { width: 640, height: 300, left: 58, right: 14, top: 10, bottom: 30 };

  function chartAxes(xScale, yScale, xTicks, yTicks) {
    const c = CHART;
    const grid = svg('g', { class: 'grid' });
    for (const t of yTicks) {
      grid.append(svg('line', { x1: c.left, x2: c.width - c.right, y1: yScale(t), y2: yScale(t) }));
      grid.append(svg('text', { x: c.left - 6, y: yScale(t) + 4, 'text-anchor': 'end', text: formatTick(t) }));
    }
    for (const t of xTicks) {
      grid.append(svg('text', { x: xScale(t), y: c.height - c.bottom + 16, 'text-anchor': 'middle', text: formatTick(t) }));
    }
    grid.append(svg('text', { x: (c.left + c.width - c.right) / 2, y: c.height - 2, 'text-anchor': 'middle', text: 'matches played' }));
    return grid;
  }

  function renderChipsChart(data, colours) {
    const series = chipSeries(data);
    const c = CHART;
    const count = data.matches.length;
    const values = [0];
    for (const points of series.values()) values.push(...points.map(Number)); // the chart's scale needs no exactness
    const [lo, hi] = [Math.min(...values), Math.max(...values)];
    const pad = (hi - lo) * 0.05 || 1;
    const xScale = linear([0, Math.max(1, count)], [c.left, c.width - c.right]);
    const yScale = linear([lo - pad, hi + pad], [c.height - c.bottom, c.top]);
    const chart = svg('svg', { viewBox: '0 0 ' + c.width + ' ' + c.height, 'data-testid': 'chips-chart', role: 'img', 'aria-label': 'Cumulative chips per bot' }, [
      chartAxes(xScale, yScale, niceTicks(0, Math.max(1, count), 8).filter((t) => Number.isInteger(t)), niceTicks(lo - pad, hi + pad, 6)),
      svg('line', { class: 'zero', x1: c.left, x2: c.width - c.right, y1: yScale(0), y2: yScale(0) }),
    ]);
    for (const [name, points] of series) {
      const coords = points.map((v, i) => xScale(i).toFixed(1) + ',' + yScale(Number(v)).toFixed(1)).join(' ');
      chart.append(svg('polyline', { points: coords, stroke: colours.get(name), 'data-testid': 'chips-line', 'data-bot': name, 'data-final': points[points.length - 1] }, [
        svg('title', { text: name + ': ' + signed(points[points.length - 1], 0) + ' chips after ' + count + ' matches' }),
      ]));
    }
    $('chips-chart').replaceChildren(chart);
    $('chips-legend').replaceChildren(...[...series.keys()].map((name) =>
      el('span', {}, [el('span', { class: 'swatch', style: 'background:' + colours.get(name) }), name + ' ' + signed(series.get(name).slice(-1)[0], 0)])));
  }

  // ---------------------------------------------------------------- faults

  function renderFaults(data) {
    const bots = data.standings.bots;
    const kinds = [...new Set(bots.flatMap((b) => Object.keys(b.faults)))].sort();
    const max = Math.max(1, ...bots.map((b) => totalFaults(b.faults)));
    const head = el('tr', {}, [el('th', { text: 'Bot' })].concat(kinds.map((k) => el('th', { class: 'num', text: k.replace(/_/g, ' ') })), [el('th', { class: 'num', text: 'Total' }), el('th', { class: 'bar-cell', text: '' })]));
    const rows = bots.map((b) => {
      const total = totalFaults(b.faults);
      return el('tr', { 'data-testid': 'faults-row', 'data-bot': b.name }, [el('td', { class: 'bot', text: b.name })].concat(
        kinds.map((k) => el('td', { class: 'num', 'data-kind': k, text: b.faults[k] || 0 })),
        [
          el('td', { class: 'num' + (total ? ' neg' : ''), 'data-col': 'total', text: total }),
          el('td', { class: 'bar-cell' }, [el('div', { class: 'bar' + (total ? '' : ' zero'), style: 'width:' + (100 * total) / max + '%' })]),
        ],
      ));
    });
    const note = kinds.length === 0 ? [el('p', { class: 'note', text: 'No bot faulted in this tournament.' })] : [];
    $('faults').replaceChildren(...note, el('table', { class: 'faults-table', 'data-testid': 'faults-table' }, [el('thead', {}, [head]), el('tbody', {}, rows)]));
  }

  // ---------------------------------------------------------------- matches

  function matchRow(m) {
    const faults = m.faults.reduce((sum, f) => window.ArenaJson.add(sum, totalFaults(f)), 0);
    const seats = el('td', {}, m.seats.map((name, i) =>
      el('span', { class: 'seat-net' }, [name + ' ', el('span', { class: signClass(m.net[i] || 0), text: signed(m.net[i] || 0, 0) })])));
    const replay = m.page
      ? el('a', { href: m.page, 'data-testid': 'replay-link', 'data-index': m.index, text: 'replay' })
      : m.omitted
        ? el('span', { class: 'muted', 'data-testid': 'replay-omitted', title: 'left out of this report (arena report --replays)', text: 'not included' })
        : el('span', { class: 'muted', text: m.replay ? 'missing' : '\u2014' });
    return el('tr', { 'data-testid': 'match-row', 'data-index': m.index, 'data-bots': window.ArenaJson.stringify(m.seats), class: faults ? 'has-faults' : '' }, [
      el('td', { class: 'num', text: m.index }),
      el('td', { class: 'num', text: m.block }),
      seats,
      el('td', { class: 'num', text: m.hands }),
      el('td', { class: 'num faults', text: faults }),
      el('td', {}, [replay]),
    ]);
  }

  function renderMatches(data) {
    const rows = data.matches.map(matchRow);
    $('matches-body').replaceChildren(...rows);
    const filter = $('match-filter');
    filter.replaceChildren(el('option', { value: '', text: 'all bots' }), ...data.standings.bots.map((b) => el('option', { value: b.name, text: b.name })));
    const apply = () => {
      let shown = 0;
      rows.forEach((row, i) => {
        const visible = !filter.value || data.matches[i].seats.includes(filter.value);
        row.hidden = !visible;
        if (visible) shown += 1;
      });
      $('match-count').textContent = shown + ' of ' + rows.length + ' matches';
    };
    filter.addEventListener('change', apply);
    apply();
  }

  // ---------------------------------------------------------------- sprt

  // The verdict of an SPRT tournament (standings.sprt), in words, with its numbers.
  function renderSprt(data) {
    const v = data.standings.sprt;
    if (!v) return;
    const panel = $('sprt-panel');
    panel.hidden = false;
    panel.dataset.decision = v.decision;
    $('sprt-verdict').textContent = v.verdict;
    const llr = typeof v.llr === 'number' ? v.llr.toFixed(2) : v.llr;
    $('sprt-details').replaceChildren(
      el('li', { text: v.h0 }),
      el('li', { text: v.h1 }),
      el('li', { text: 'LLR ' + llr + ' in [' + v.lower.toFixed(2) + ', ' + v.upper.toFixed(2) + '] after ' + v.blocks + ' duplicate blocks (decisions from ' + v.min_blocks + ' blocks on, at most ' + v.max_blocks + '); alpha ' + v.alpha + ', beta ' + v.beta }),
    );
    // Directories from before the estimator existed have none: they were scored plain.
    if (v.estimator) {
      const revision = v.estimator_revision ? '. Estimator revision ' + v.estimator_revision : '';
      $('sprt-details').append(el('li', { text: "Each block's observation: " + v.estimator + revision + '.' }));
    }
    // Set when the verdict is the one the run saved, not this arena's own computation.
    if (v.caveat) {
      $('sprt-details').append(el('li', { text: 'Note: ' + v.caveat, 'data-testid': 'sprt-caveat' }));
    }
    if (v.uncorrected_blocks) {
      $('sprt-details').append(el('li', { text: v.uncorrected_blocks + ' blocks were scored without the luck correction (their replays could not be read).' }));
    }
  }

  // ---------------------------------------------------------------- page

  function main() {
    const data = window.ArenaJson.parse($('report-data').textContent);
    const colours = new Map(data.standings.bots.map((b, i) => [b.name, PALETTE[i % PALETTE.length]]));
    $('report-info').textContent = describeTournament(data);
    renderSprt(data);
    renderStandings(data, colours);
    renderCrosstable(data);
    renderChipsChart(data, colours);
    renderFaults(data);
    renderMatches(data);
    $('footer').textContent = 'Definitions: chips per hand, intervals, W-L-D, ratings, tiers and the crosstable as in arena standings (arena/src/standings/compute.rs).';
    document.body.dataset.ready = 'true';
  }

  main();
})();
