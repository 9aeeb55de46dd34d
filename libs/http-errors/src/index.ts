export * from './lib/api-error-codes';
export * from './lib/api-error-response.decorator';
export * from './lib/api.exception';
export * from './lib/error-body.dto';
export * from './lib/error-body.filter';
export * from './lib/error-code';
export * from './lib/error-metrics';
export * from './lib/error-response';
