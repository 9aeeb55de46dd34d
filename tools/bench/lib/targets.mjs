// The performance issue's targets (part 1) for the service against the two baselines, per case,
// connection count and table size. deep-page is measured but has no target.
const LIST_CASES = new Set(['list20', 'list20-pending', 'list100']);
const CASES_WITH_TARGETS = new Set([...LIST_CASES, 'get', 'create']);

export const TARGETS = {
  /** service req/s ≥ 0.90 of the parity baseline's, and service p99 ≤ 1.3 × its p99. */
  parity: { minRpsRatio: 0.9, maxP99Ratio: 1.3 },
  /** service req/s ≥ 0.85 of the bare baseline's for lists, ≥ 0.80 for get and create. */
  bare: { minRpsRatio: (kase) => (LIST_CASES.has(kase) ? 0.85 : 0.8) },
  /** the service's peak RSS during the 64-connection list runs, on PostgreSQL (part 2). */
  memory: { maxPeakMiB: 180 },
};

/** The memory target for a peak RSS of the service (KiB): { label, value, bound, met }. */
export function checkMemoryTarget(peakKiB) {
  const peakMiB = peakKiB / 1024;
  return {
    label: 'service peak RSS, MiB',
    value: peakMiB,
    bound: `≤ ${TARGETS.memory.maxPeakMiB}`,
    met: peakMiB <= TARGETS.memory.maxPeakMiB,
  };
}

/** Service over baseline: req/s and p99, or nulls when either side was skipped. */
export function ratios(service, baseline) {
  if (!service.rps || !baseline.rps) return { rps: null, p99: null };
  return { rps: service.rps / baseline.rps, p99: service.p99Ms / baseline.p99Ms };
}

/**
 * The targets of one row ({ case, ratios: { parity, bare } }), each { label, value, bound, met };
 * none for a case without targets, and a skipped side counts as missed.
 */
export function checkTargets(row) {
  if (!CASES_WITH_TARGETS.has(row.case)) return [];
  const atLeast = (label, value, min) => ({ label, value, bound: `≥ ${min.toFixed(2)}`, met: value !== null && value >= min });
  const atMost = (label, value, max) => ({ label, value, bound: `≤ ${max.toFixed(2)}`, met: value !== null && value <= max });
  return [
    atLeast('req/s vs parity', row.ratios.parity.rps, TARGETS.parity.minRpsRatio),
    atMost('p99 vs parity', row.ratios.parity.p99, TARGETS.parity.maxP99Ratio),
    atLeast('req/s vs bare', row.ratios.bare.rps, TARGETS.bare.minRpsRatio(row.case)),
  ];
}
