export * from './lib/app-config';
