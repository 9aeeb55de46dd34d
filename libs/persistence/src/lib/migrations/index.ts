import { CreatePets1763900000000 } from './1763900000000-create-pets';

/** Every migration, in order; new ones are appended here. */
export const MIGRATIONS = [CreatePets1763900000000];
