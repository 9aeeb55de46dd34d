import { DECORATORS } from '@nestjs/swagger';
import { ApiRefusal } from './api-error-response.decorator';
import { ApiException } from './api.exception';
import { HttpErrorCode } from './error-code';

const slowDown = () => new ApiException(HttpErrorCode.RateLimited, 429, 'Slow down', { 'retry-after': '1' });
const RETRY_AFTER = { description: 'Seconds to wait', schema: { type: 'integer' as const } };

/** The answers documented on a handler decorated with `decorator`. */
function documentedAnswers(decorator: MethodDecorator): Record<string, { example?: unknown; headers?: object }> {
  const handler = () => undefined;
  decorator({}, 'handler', { value: handler });
  return Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) as Record<string, { example?: unknown; headers?: object }>;
}

describe('ApiRefusal', () => {
  it('documents the refusal as the service sends it: its status, its Error body as the example, its headers', () => {
    const answers = documentedAnswers(ApiRefusal(slowDown(), 'Too many', { 'Retry-After': RETRY_AFTER }));
    expect(answers['429']).toMatchObject({
      example: { code: HttpErrorCode.RateLimited, message: 'Slow down', status: 429 },
      headers: { 'Retry-After': RETRY_AFTER },
    });
  });

  it('is refused where it is written when the refusal sends a header it does not document, naming the fix', () => {
    expect(() => ApiRefusal(slowDown(), 'Too many')).toThrow(
      'The 429 RATE_LIMITED refusal sends retry-after, which its ApiRefusal does not document: pass it in the headers argument',
    );
  });
});
