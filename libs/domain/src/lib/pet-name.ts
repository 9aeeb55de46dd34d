/** Limits on a pet's name, counted in Unicode code points as PostgreSQL's char_length does. */
export const PET_NAME_MIN_LENGTH = 1;
export const PET_NAME_MAX_LENGTH = 255;

/** No control characters (C0, DEL, C1): invisible, and PostgreSQL text cannot hold NUL. Fastify checks it (docs/decisions/0007). */
export const PET_NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';
