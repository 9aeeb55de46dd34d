// The performance issue's targets (part 1) for the service against the Nest floor and the two
// baselines, per case, connection count and table size. deep-page and create-keyed are measured
// but have no target.
const LIST_CASES = new Set(['list20', 'list20-pending', 'list100']);
const CASES_WITH_TARGETS = new Set([...LIST_CASES, 'get', 'create']);

export const TARGETS = {
  /**
   * service req/s ≥ 0.90 of the Nest floor's; and service CPU per request ≤ the floor's plus
   * 1.3 × what the features cost raw Fastify (parity's CPU per request minus bare's).
   */
  floor: { minRpsRatio: 0.9, featureCpuFactor: 1.3 },
  /** service req/s ≥ 0.90 of the parity baseline's, and service p99 ≤ 1.5 × its p99. */
  parity: { minRpsRatio: 0.9, maxP99Ratio: 1.5 },
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
 * The CPU per request (µs) the service may spend: the floor's, plus 1.3 × parity's minus bare's;
 * null when any of the four was skipped.
 */
export function cpuAllowance(row) {
  const cpu = (name) => (row[name]?.skipped ? undefined : row[name]?.cpuUsPerRequest);
  const [floor, parity, bare] = ['floor', 'parity', 'bare'].map(cpu);
  if (floor === undefined || parity === undefined || bare === undefined || cpu('service') === undefined) return null;
  return floor + TARGETS.floor.featureCpuFactor * (parity - bare);
}

/**
 * The p99 check run by run: a repetition runs the servers one after another, so the service's run i
 * met the same moment of the shared cores as the floor's and parity's run i. Counts of those rounds.
 */
function p99Rounds(row, p99VsParity) {
  const [service, floor, parity] = ['service', 'floor', 'parity'].map((name) => row[name]?.runs ?? []);
  const rounds = parity
    .slice(0, Math.min(service.length, floor.length))
    .map((run, i) => ({ service: service[i], floor: floor[i], parity: run }));
  const count = (test) => rounds.filter(test).length;
  return {
    rounds: rounds.length,
    serviceMet: count((round) => p99VsParity(round.service, round.parity).met),
    floorMet: count((round) => p99VsParity(round.floor, round.parity).met),
    serviceNotAboveFloor: count((round) => round.service.p99Ms <= round.floor.p99Ms),
  };
}

/**
 * The targets of one row ({ case, ratios: { floor, parity, bare }, and each target's summary }),
 * each { id, label, value, bound, met } (and `limit`, the row's own bound, when it is worked
 * out per row; on the p99 target, `floor`: the same check of the floor's p99, and `rounds`: both
 * checked run by run); none for a case without targets, and a skipped side counts as missed.
 */
export function checkTargets(row) {
  if (!CASES_WITH_TARGETS.has(row.case)) return [];
  const atLeast = (id, label, value, min) => ({ id, label, value, bound: `≥ ${min.toFixed(2)}`, met: value !== null && value >= min });
  const atMost = (id, label, value, max) => ({ id, label, value, bound: `≤ ${max.toFixed(2)}`, met: value !== null && value <= max });
  const p99VsParity = (server, parity = row.parity) =>
    atMost('parityP99', 'p99 vs parity', ratios(server, parity).p99, TARGETS.parity.maxP99Ratio);
  const limit = cpuAllowance(row);
  const serviceCpu = limit === null ? null : row.service.cpuUsPerRequest;
  return [
    atLeast('floorRps', 'req/s vs floor', row.ratios.floor.rps, TARGETS.floor.minRpsRatio),
    {
      id: 'floorCpu',
      label: 'CPU µs/req',
      value: serviceCpu,
      bound: `≤ floor + ${TARGETS.floor.featureCpuFactor} × (parity − bare)`,
      limit,
      met: limit !== null && serviceCpu <= limit,
    },
    // With the floor's own p99 against the same bound, for reference: how far NestJS alone is from it.
    { ...p99VsParity(row.service), floor: p99VsParity(row.floor), rounds: p99Rounds(row, p99VsParity) },
    atLeast('parityRps', 'req/s vs parity', row.ratios.parity.rps, TARGETS.parity.minRpsRatio),
    atLeast('bareRps', 'req/s vs bare', row.ratios.bare.rps, TARGETS.bare.minRpsRatio(row.case)),
  ];
}
