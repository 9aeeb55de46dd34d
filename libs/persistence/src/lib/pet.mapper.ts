import { isPetStatus, type Pet } from '@petstore/domain';

/** A `pets` row as a driver returns it, field for field the domain Pet: int8 as string (pg) or bigint (PGlite), text as string. */
export type PetRow = { readonly [Field in keyof Pet]: Pet[Field] extends bigint ? string | bigint : string };

/** Turns a row into a domain Pet; a status the domain does not know means the data is corrupt. */
export function toPet(row: PetRow): Pet {
  if (!isPetStatus(row.status)) throw new Error(`Pet ${row.id} has an unknown status`);
  return { id: BigInt(row.id), name: row.name, categoryId: BigInt(row.categoryId), status: row.status };
}
