import { parse, parseNumberAndBigInt } from 'lossless-json';
import { ApiException } from '../errors/api.exception';
import { ErrorCode } from '../errors/error-code';

/**
 * Parses a JSON request body without losing precision: integer literals become
 * bigint (so int64 ids above 2^53 survive), other numbers become number.
 * A key repeated with another value is ambiguous and rejected; a "__proto__" key stays a plain own property.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') {
    throw new ApiException(ErrorCode.MalformedJson, 400, 'Request body is empty; expected a JSON object');
  }
  try {
    return parse(text, null, parseNumberAndBigInt);
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message}` : '';
    throw new ApiException(ErrorCode.MalformedJson, 400, `Request body is not valid JSON${reason}`);
  }
}
