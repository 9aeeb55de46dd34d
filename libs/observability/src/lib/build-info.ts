import { Gauge, type Registry } from 'prom-client';

/** What build is running, as a dashboard shows it beside the other series. */
export interface BuildInfo {
  readonly version: string;
  readonly commit: string;
  readonly node: string;
}

/** `petstore_build_info{version,commit,node} 1`: the usual info metric, joined on by dashboards and alerts. */
export function registerBuildInfo(registry: Registry, info: BuildInfo): void {
  new Gauge({
    name: 'petstore_build_info',
    help: 'The running build: its version, the commit it was built from and the Node.js version; always 1',
    labelNames: ['version', 'commit', 'node'] as const,
    registers: [registry],
  }).set({ ...info }, 1);
}
