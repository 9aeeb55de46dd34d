/** Limits on a pet's name, counted in Unicode code points as PostgreSQL's char_length does. */
export const PET_NAME_MIN_LENGTH = 1;
export const PET_NAME_MAX_LENGTH = 255;

// C0 controls (NUL included), DEL and C1 controls: invisible, and NUL cannot be stored in PostgreSQL text.
const CONTROL_CHARACTER = /\p{Cc}/u;

/** The same rule as a JSON Schema pattern, for clients: no control characters. */
export const PET_NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

/** Why a name breaks the rules, or undefined when it is acceptable. */
export function petNameProblem(name: string): string | undefined {
  if (!name.isWellFormed()) return 'must be valid Unicode (no lone surrogates)';
  if (CONTROL_CHARACTER.test(name)) return 'must not contain control characters';
  const length = [...name].length;
  if (length < PET_NAME_MIN_LENGTH || length > PET_NAME_MAX_LENGTH) {
    return `must be ${PET_NAME_MIN_LENGTH} to ${PET_NAME_MAX_LENGTH} characters long`;
  }
  return undefined;
}
