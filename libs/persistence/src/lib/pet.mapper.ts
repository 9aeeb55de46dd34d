import { isPetStatus, type Pet } from '@petstore/domain';

/** A `pets` row as a driver returns it: int8 as string (pg) or bigint (PGlite). */
export interface PetRow {
  readonly id: string | bigint;
  readonly name: string;
  readonly categoryId: string | bigint;
  readonly status: string;
}

/** Turns a row into a domain Pet; a status the domain does not know means the data is corrupt. */
export function toPet(row: PetRow): Pet {
  if (!isPetStatus(row.status)) throw new Error(`Pet ${row.id} has an unknown status`);
  return { id: BigInt(row.id), name: row.name, categoryId: BigInt(row.categoryId), status: row.status };
}
