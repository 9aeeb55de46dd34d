// Turns load runs into medians and ratios, and those into the printed report.

import { checkMemoryTarget, cpuAllowance, TARGETS } from './targets.mjs';

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
 * to the largest, against each baseline: { case, connections, floor: {...}, parity: {...}, bare: {...} }.
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
    .map((row) => ({
      case: row.case,
      connections: row.connections,
      ...Object.fromEntries(BASELINES.map((name) => [name, change(row, name)])),
    }));
}

const sizeLabel = (size) => (size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`);
const num = (value, digits = 2) => (value === null || value === undefined ? '-' : value.toFixed(digits));
const mib = (kib) => (kib ? `${(kib / 1024).toFixed(0)} MiB` : '-');
// The four servers, in the order each repetition runs them, and the three the service is held against.
const TARGET_NAMES = ['service', 'floor', 'parity', 'bare'];
const BASELINES = TARGET_NAMES.slice(1);

function side(result) {
  if (result.skipped) return `skip: ${result.skipped}`.slice(0, 17).padStart(17);
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
  const target = Object.fromEntries(row.targets.map((t) => [t.id, t]));
  const errors = TARGET_NAMES.map((name) => (row[name].skipped ? '-' : String(row[name].errors))).join('/');
  const cells = [
    rowKey(sizeLabel(row.size), row.case, String(row.connections)),
    ...TARGET_NAMES.map((name) => side(row[name])),
    errors.padStart(10),
    ratioCell(row.ratios.floor.rps, target.floorRps).padEnd(15),
    `${ratioCell(row.ratios.parity.rps, target.parityRps)} ${ratioCell(row.ratios.parity.p99, target.parityP99)}`,
    ratioCell(row.ratios.bare.rps, target.bareRps),
  ];
  return cells.join(' | ').trimEnd();
}

function tableHead() {
  const units = `${'req/s'.padStart(9)} ${'p99 ms'.padStart(7)}`;
  const names = [''.padEnd(27), ...TARGET_NAMES.map((name) => name.padEnd(17)), 'errors'.padStart(10)];
  const subs = [rowKey('size', 'case', 'conns'), ...TARGET_NAMES.map(() => units), 's/f/p/b'.padStart(10)];
  names.push('service / floor', 'service / parity'.padEnd(25), 'service / bare');
  subs.push('req/s'.padEnd(15), `${'req/s'.padEnd(12)} p99`.padEnd(25), 'req/s');
  return [names.join(' | '), subs.join(' | ')];
}

export function formatTable(rows) {
  const head = tableHead();
  const notesOf = (row) => TARGET_NAMES.flatMap((name) => row[name].runs?.map((run) => run.note) ?? []);
  const notes = [...new Set(rows.flatMap(notesOf).filter(Boolean))];
  return [...head, '-'.repeat(head[1].length), ...rows.map(tableLine), ...notes.map((note) => `note: ${note}`)].join('\n');
}

/** Adds each count of `b` to `a`'s (null: none yet). */
function sumCounts(a, b) {
  return Object.fromEntries(Object.entries(b).map(([key, value]) => [key, (a?.[key] ?? 0) + value]));
}

/** Per target, how many rows meet it and which miss it, by how much. */
export function formatTargets(rows) {
  const byLabel = new Map();
  for (const row of rows) {
    for (const target of row.targets) {
      const entry = byLabel.get(target.label) ?? { bounds: new Set(), met: 0, missed: [], floorMet: 0, floorMeasured: 0, rounds: null };
      entry.bounds.add(target.bound);
      // A bound worked out per row (CPU) is shown beside the value that missed it.
      const value = target.limit === undefined ? num(target.value) : `${num(target.value, 0)} > ${num(target.limit, 0)}`;
      if (target.met) entry.met += 1;
      else entry.missed.push(`${sizeLabel(row.size)} ${row.case} c${row.connections} (${value})`);
      // A skipped floor (no value) is not counted.
      if (target.floor && target.floor.value !== null) {
        entry.floorMeasured += 1;
        if (target.floor.met) entry.floorMet += 1;
      }
      if (target.rounds) entry.rounds = sumCounts(entry.rounds, target.rounds);
      byLabel.set(target.label, entry);
    }
  }
  const out = ['Targets (service against the floor and each baseline, every case with a target):'];
  for (const [label, { bounds, met, missed, floorMet, floorMeasured, rounds }] of byLabel) {
    const misses = missed.length ? `; missed: ${missed.join(', ')}` : '';
    const floor = floorMeasured ? ` (the floor itself: ${floorMet} of ${floorMeasured})` : '';
    out.push(`  ${`${label} ${[...bounds].join(' / ')}`.padEnd(44)} met ${met} of ${met + missed.length}${floor}${misses}`);
    if (rounds?.rounds) {
      const { rounds: n, serviceMet, floorMet: floorRoundsMet, serviceNotAboveFloor } = rounds;
      out.push(
        `  ${'  run by run, the same rounds'.padEnd(44)} the service ${serviceMet} of ${n}, the floor ${floorRoundsMet} of ${n}; the service's p99 at most the floor's in ${serviceNotAboveFloor} of ${n}`,
      );
    }
  }
  return out.join('\n');
}

/**
 * For each size and connection count: createPet with a fresh Idempotency-Key beside createPet
 * without one, on each target: { size, connections, service: { plain, keyed, rpsRatio, p99Ratio }, floor, parity, bare }
 * (null for a target that skipped either case: the floor, which has no Idempotency-Key).
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
    // The floor has no Idempotency-Key: it makes no keyed creates.
    const measured = TARGET_NAMES.filter((name) => name === 'service' || c[name]);
    out.push(
      `  ${sizeLabel(c.size).padEnd(4)} c${String(c.connections).padEnd(3)} ${measured.map((name) => `${name} ${cell(c[name])}`).join('   ')}`,
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
    out.push(
      `  ${s.case.padEnd(15)} c${String(s.connections).padEnd(3)} ${BASELINES.map((name) => `${name} ${change(s[name])}`).join('   ')}`,
    );
  }
  return [...out, ''];
}

/**
 * CPU time each target's process spent per answer (user + system, /proc's 10 ms ticks over each
 * run), median of the runs, and what the service may spend: floor + 1.3 × (parity − bare).
 */
function formatCpu(rows) {
  const cell = (result) => (result.skipped ? '-' : num(result.cpuUsPerRequest, 0)).padStart(7);
  const out = ['CPU µs per request (user + system of each server process, median of the runs):'];
  const bound = `service ≤ floor + ${TARGETS.floor.featureCpuFactor} × (parity − bare)`;
  out.push(`  ${rowKey('size', 'case', 'conns')} ${TARGET_NAMES.map((name) => name.padStart(7)).join(' ')}   ${bound}`);
  for (const row of rows) {
    // A case without targets shows the bound in parentheses, unmarked.
    const target = row.targets.find((t) => t.id === 'floorCpu');
    const allowance = cpuAllowance(row);
    const limit = target
      ? `≤ ${num(target.limit, 0)} ${target.met ? 'met' : 'MISSED'}`
      : allowance === null
        ? ''
        : `(≤ ${num(allowance, 0)})`;
    out.push(
      `  ${rowKey(sizeLabel(row.size), row.case, String(row.connections))} ${TARGET_NAMES.map((name) => cell(row[name])).join(' ')}   ${limit}`.trimEnd(),
    );
  }
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
