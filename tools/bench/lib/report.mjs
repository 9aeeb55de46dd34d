// Turns load runs into medians and ratios, and those into the printed report.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median req/s, p50 and p99 over the repetitions (each taken on its own); errors summed. */
export function summarize(runs) {
  const fiveXx = runs.some((run) => run.statuses) ? runs.reduce((sum, run) => sum + (run.statuses?.['5xx'] ?? 0), 0) : null;
  return {
    rps: median(runs.map((run) => run.rps)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    fiveXx,
    runs,
  };
}

/** For each list case and connection count: (service/baseline at the largest size) / (same at the smallest). */
export function scaling(rows, sizes) {
  if (sizes.length < 2) return [];
  const [small, large] = [sizes[0], sizes.at(-1)];
  const ratioOf = (size, row) => rows.find((r) => r.size === size && r.case === row.case && r.connections === row.connections)?.ratio;
  return rows
    .filter((row) => row.list && row.size === small)
    .map((row) => {
      const [atSmall, atLarge] = [ratioOf(small, row), ratioOf(large, row)];
      return { case: row.case, connections: row.connections, atSmall, atLarge, change: atSmall && atLarge ? atLarge / atSmall : null };
    });
}

const sizeLabel = (size) => (size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`);
const num = (value, digits = 2) => (value === null || value === undefined ? '-' : value.toFixed(digits));
const mib = (kib) => (kib ? `${(kib / 1024).toFixed(0)} MiB` : '-');

function side(result) {
  if (result.skipped) return `${`skipped: ${result.skipped}`.padStart(33)}`;
  return [
    Math.round(result.rps).toLocaleString('en-US').padStart(9),
    num(result.p50Ms).padStart(7),
    num(result.p99Ms).padStart(7),
    String(result.errors).padStart(6),
  ].join(' ');
}

export function formatTable(rows) {
  const head = `${'size'.padEnd(5)} ${'case'.padEnd(15)} ${'conns'.padStart(5)} | ${'service'.padEnd(33)} | ${'baseline'.padEnd(33)} | ratio`;
  const sub = `${''.padEnd(27)} | ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(6)} | ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(6)} |`;
  const lines = rows.map(
    (row) =>
      `${sizeLabel(row.size).padEnd(5)} ${row.case.padEnd(15)} ${String(row.connections).padStart(5)} | ${side(row.service)} | ${side(row.baseline)} | ${num(row.ratio).padStart(5)}`,
  );
  const notes = [
    ...new Set(rows.flatMap((row) => [row.service, row.baseline].flatMap((r) => r.runs?.map((run) => run.note) ?? [])).filter(Boolean)),
  ];
  return [head, sub, '-'.repeat(sub.length + 6), ...lines, ...notes.map((note) => `note: ${note}`)].join('\n');
}

/** For each size and connection count: createPet with a fresh Idempotency-Key beside createPet without one, on the service. */
export function idempotencyCost(rows) {
  return rows
    .filter((row) => row.case === 'create' && !row.service.skipped)
    .flatMap((plain) => {
      const keyed = rows.find((row) => row.case === 'create-keyed' && row.size === plain.size && row.connections === plain.connections);
      if (!keyed || keyed.service.skipped) return [];
      const [a, b] = [plain.service, keyed.service];
      return [
        { size: plain.size, connections: plain.connections, plain: a, keyed: b, rpsRatio: b.rps / a.rps, p99Ratio: b.p99Ms / a.p99Ms },
      ];
    });
}

function formatIdempotencyCost(costs) {
  if (costs.length === 0) return [];
  const out = ['createPet with an Idempotency-Key (a new key per request) beside createPet without, service only:'];
  for (const c of costs) {
    out.push(
      `  ${sizeLabel(c.size).padEnd(4)} c${String(c.connections).padEnd(3)} ` +
        `${Math.round(c.plain.rps).toLocaleString('en-US').padStart(7)} → ${Math.round(c.keyed.rps).toLocaleString('en-US').padStart(7)} req/s (× ${num(c.rpsRatio)}), ` +
        `p99 ${num(c.plain.p99Ms)} → ${num(c.keyed.p99Ms)} ms (× ${num(c.p99Ratio)})`,
    );
  }
  return [...out, ''];
}

export function formatReport({ rows, scalingRows, memory, startup, explain, serviceLog, elapsedS, sizes }) {
  const out = ['', formatTable(rows), '', ...formatIdempotencyCost(idempotencyCost(rows))];
  if (scalingRows.length) {
    out.push(
      `Ratio at ${sizeLabel(sizes.at(-1))} / ratio at ${sizeLabel(sizes[0])} (list cases; < 1 means the service loses ground on the larger table):`,
    );
    for (const s of scalingRows)
      out.push(`  ${s.case.padEnd(15)} c${String(s.connections).padEnd(3)} ${num(s.atLarge)} / ${num(s.atSmall)} = ${num(s.change)}`);
    out.push('');
  }
  out.push('RSS (idle after start / peak during the 64-connection list runs):');
  for (const m of memory)
    out.push(
      `  ${sizeLabel(m.size).padEnd(4)} service ${mib(m.service.idleKiB)} / ${mib(m.service.peakKiB)}    baseline ${mib(m.baseline.idleKiB)} / ${mib(m.baseline.peakKiB)}`,
    );
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
  out.push('', `Elapsed: ${elapsedS.toFixed(0)} s`);
  return out.join('\n');
}
