// Runs the built service in N Node cluster workers sharing one port (the primary hands out
// connections round-robin): BENCH_WORKERS, default 2.
import cluster from 'node:cluster';

const MAIN = new URL('../../../dist/apps/api/src/main.js', import.meta.url);

if (cluster.isPrimary) {
  const workers = Number(process.env.BENCH_WORKERS ?? 2);
  for (let i = 0; i < workers; i++) cluster.fork();
  const stopWorkers = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.once('SIGTERM', stopWorkers);
  process.once('SIGINT', stopWorkers);
  cluster.on('exit', () => {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
} else {
  await import(MAIN.href);
}
