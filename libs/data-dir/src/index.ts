export * from './lib/private-data-dir';
