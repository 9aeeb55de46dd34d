// Turns load runs into medians and ratios, and those into the printed report.

import { checkMemoryTarget } from './targets.mjs';

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median req/s, p50, p99 and CPU per request over the repetitions (each taken on its own); errors summed. */
export function summarize(runs) {
  const fiveXx = runs.some((run) => run.statuses) ? runs.reduce((sum, run) => sum + (run.statuses?.['5xx'] ?? 0), 0) : null;
  return {
    rps: median(runs.map((run) => run.rps)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    cpuUsPerRequest: median(runs.map((run) => run.cpuUsPerRequest)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    fiveXx,
    runs,
  };
}

/**
 * For each list case and connection count, how service/baseline moves from the smallest table
 * to the largest, against each baseline: { case, connections, parity: {...}, bare: {...} }.
 */
export function scaling(rows, sizes) {
  if (sizes.length < 2) return [];
  const [small, large] = [sizes[0], sizes.at(-1)];
  const rowAt = (size, row) => rows.find((r) => r.size === size && r.case === row.case && r.connections === row.connections);
  const change = (row, baseline) => {
    const [atSmall, atLarge] = [rowAt(small, row)?.ratios[baseline].rps, rowAt(large, row)?.ratios[baseline].rps];
    return { atSmall, atLarge, change: atSmall && atLarge ? atLarge / atSmall : null };
  };
  return rows
    .filter((row) => row.list && row.size === small)
    .map((row) => ({ case: row.case, connections: row.connections, parity: change(row, 'parity'), bare: change(row, 'bare') }));
}

const sizeLabel = (size) => (size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`);
const num = (value, digits = 2) => (value === null || value === undefined ? '-' : value.toFixed(digits));
const mib = (kib) => (kib ? `${(kib / 1024).toFixed(0)} MiB` : '-');
const TARGET_NAMES = ['service', 'parity', 'bare'];

function side(result) {
  if (result.skipped) return `skipped: ${result.skipped}`.slice(0, 17).padStart(17);
  return `${Math.round(result.rps).toLocaleString('en-US').padStart(9)} ${num(result.p99Ms).padStart(7)}`;
}

/** A ratio and, when the case has a target for it, whether it is met. */
function ratioCell(value, target) {
  return `${num(value).padStart(5)} ${target ? (target.met ? 'met' : 'MISSED') : ''}`.padEnd(12);
}

/** The three leading columns: size, case, connections. */
const rowKey = (size, kase, connections) => `${size.padEnd(5)} ${kase.padEnd(15)} ${connections.padStart(5)}`;

function tableLine(row) {
  // No targets for this case: no met/MISSED marks.
  const [rpsParity, p99Parity, rpsBare] = row.targets;
  const errors = TARGET_NAMES.map((name) => (row[name].skipped ? '-' : String(row[name].errors))).join('/');
  const cells = [
    rowKey(sizeLabel(row.size), row.case, String(row.connections)),
    ...TARGET_NAMES.map((name) => side(row[name])),
    errors.padStart(8),
    `${ratioCell(row.ratios.parity.rps, rpsParity)} ${ratioCell(row.ratios.parity.p99, p99Parity)}`,
    ratioCell(row.ratios.bare.rps, rpsBare),
  ];
  return cells.join(' | ').trimEnd();
}

function tableHead() {
  const units = `${'req/s'.padStart(9)} ${'p99 ms'.padStart(7)}`;
  const names = [''.padEnd(27), ...TARGET_NAMES.map((name) => name.padEnd(17)), 'errors'.padStart(8)];
  const subs = [rowKey('size', 'case', 'conns'), ...TARGET_NAMES.map(() => units), 's/p/b'.padStart(8)];
  names.push('service / parity'.padEnd(25), 'service / bare');
  subs.push(`${'req/s'.padEnd(12)} p99`.padEnd(25), 'req/s');
  return [names.join(' | '), subs.join(' | ')];
}

export function formatTable(rows) {
  const head = tableHead();
  const notesOf = (row) => TARGET_NAMES.flatMap((name) => row[name].runs?.map((run) => run.note) ?? []);
  const notes = [...new Set(rows.flatMap(notesOf).filter(Boolean))];
  return [...head, '-'.repeat(head[1].length), ...rows.map(tableLine), ...notes.map((note) => `note: ${note}`)].join('\n');
}

/** Per target, how many rows meet it and which miss it, by how much. */
export function formatTargets(rows) {
  const byLabel = new Map();
  for (const row of rows) {
    for (const target of row.targets) {
      const entry = byLabel.get(target.label) ?? { bounds: new Set(), met: 0, missed: [] };
      entry.bounds.add(target.bound);
      if (target.met) entry.met += 1;
      else entry.missed.push(`${sizeLabel(row.size)} ${row.case} c${row.connections} (${num(target.value)})`);
      byLabel.set(target.label, entry);
    }
  }
  const out = ['Targets (service against each baseline, every case with a target):'];
  for (const [label, { bounds, met, missed }] of byLabel) {
    const misses = missed.length ? `; missed: ${missed.join(', ')}` : '';
    out.push(`  ${`${label} ${[...bounds].join(' / ')}`.padEnd(32)} met ${met} of ${met + missed.length}${misses}`);
  }
  return out.join('\n');
}

/**
 * For each size and connection count: createPet with a fresh Idempotency-Key beside createPet
 * without one, on each target: { size, connections, service: { plain, keyed, rpsRatio, p99Ratio }, parity, bare }.
 */
export function idempotencyCost(rows) {
  return rows
    .filter((row) => row.case === 'create')
    .flatMap((plain) => {
      const keyed = rows.find((row) => row.case === 'create-keyed' && row.size === plain.size && row.connections === plain.connections);
      if (!keyed) return [];
      const cost = (name) => {
        const [a, b] = [plain[name], keyed[name]];
        if (!a || !b || a.skipped || b.skipped) return null;
        return { plain: a, keyed: b, rpsRatio: b.rps / a.rps, p99Ratio: b.p99Ms / a.p99Ms };
      };
      const costs = Object.fromEntries(TARGET_NAMES.map((name) => [name, cost(name)]));
      return costs.service ? [{ size: plain.size, connections: plain.connections, ...costs }] : [];
    });
}

function formatIdempotencyCost(costs) {
  if (costs.length === 0) return [];
  const out = ['createPet with an Idempotency-Key (a new key per request) beside createPet without, req/s and p99 (keyed / plain):'];
  const cell = (c) =>
    c
      ? `${Math.round(c.plain.rps).toLocaleString('en-US').padStart(7)} -> ${Math.round(c.keyed.rps).toLocaleString('en-US').padStart(7)} req/s (x${num(c.rpsRatio)}), p99 x${num(c.p99Ratio)}`
      : 'skipped';
  for (const c of costs) {
    out.push(
      `  ${sizeLabel(c.size).padEnd(4)} c${String(c.connections).padEnd(3)} ${TARGET_NAMES.map((name) => `${name} ${cell(c[name])}`).join('   ')}`,
    );
  }
  return [...out, ''];
}

const loadLabel = (load) => load.map((value) => value.toFixed(2)).join(' ');

function formatScaling(scalingRows, sizes) {
  const change = (c) => `${num(c.atSmall)} -> ${num(c.atLarge)} (x${num(c.change)})`;
  const [small, large] = [sizeLabel(sizes[0]), sizeLabel(sizes.at(-1))];
  const out = [`service/baseline req/s at ${small} -> at ${large} (list cases; x < 1: the service loses ground on the larger table):`];
  for (const s of scalingRows) {
    out.push(`  ${s.case.padEnd(15)} c${String(s.connections).padEnd(3)} parity ${change(s.parity)}   bare ${change(s.bare)}`);
  }
  return [...out, ''];
}

/** CPU time each target's process spent per answer (user + system, /proc's 10 ms ticks over each run), median of the runs. */
function formatCpu(rows) {
  const cell = (result) => (result.skipped ? '-' : num(result.cpuUsPerRequest, 0)).padStart(6);
  const out = [`CPU µs per request (${TARGET_NAMES.join(' / ')}):`];
  for (const row of rows)
    out.push(
      `  ${rowKey(sizeLabel(row.size), row.case, String(row.connections))} ${TARGET_NAMES.map((name) => cell(row[name])).join(' ')}`,
    );
  return [...out, ''];
}

export function formatReport({ rows, scalingRows, memory, startup, explain, serviceLog, elapsedS, sizes, loadAverage }) {
  const out = ['', formatTable(rows), '', formatTargets(rows), '', ...formatCpu(rows), ...formatIdempotencyCost(idempotencyCost(rows))];
  if (scalingRows.length) out.push(...formatScaling(scalingRows, sizes));
  out.push('RSS (idle after start / peak during the 64-connection list runs):');
  const rss = (m, name) => `${name} ${mib(m[name].idleKiB)} / ${mib(m[name].peakKiB)}`;
  for (const m of memory) {
    const target = checkMemoryTarget(m.service.peakKiB);
    const verdict = `(target ${target.bound} MiB: ${target.met ? 'met' : 'missed'})`;
    out.push(`  ${sizeLabel(m.size).padEnd(4)} ${TARGET_NAMES.map((name) => rss(m, name)).join('    ')}    ${verdict}`);
  }
  out.push('', 'Start-up, spawn to the first 200 on /v1/pets:');
  for (const s of startup) out.push(`  ${s.what.padEnd(52)} ${num(s.ms, 0).padStart(6)} ms`);
  for (const log of serviceLog) {
    out.push(
      '',
      `Service log at ${sizeLabel(log.size)} (LOG_LEVEL=warn; last ${Math.min(log.lines.length, 10)} of ${log.lines.length} lines kept):`,
    );
    out.push(...log.lines.slice(-10).map((line) => `  ${line.slice(0, 300)}`));
  }
  for (const e of explain)
    out.push('', `EXPLAIN (ANALYZE, BUFFERS) — ${e.name}`, `  ${e.sql}`, ...e.plan.split('\n').map((line) => `    ${line}`));
  out.push('', `Load average (1, 5, 15 min): ${loadLabel(loadAverage.start)} at the start, ${loadLabel(loadAverage.end)} at the end`);
  out.push(`Elapsed: ${elapsedS.toFixed(0)} s`);
  return out.join('\n');
}
