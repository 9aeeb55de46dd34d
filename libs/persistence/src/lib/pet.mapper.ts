import { isPetStatus, type Pet } from '@petstore/domain';
import type { PetEntity } from './entities';

/** A `pets` row as a driver returns it: the entity, with int8 as string or bigint and text unnarrowed (toPet checks it). */
export type PetRow = {
  readonly [Column in keyof PetEntity]: PetEntity[Column] extends bigint
    ? string | bigint
    : PetEntity[Column] extends string
      ? string
      : PetEntity[Column];
};

/** Turns a row into a domain Pet; a status the domain does not know means the data is corrupt. */
export function toPet(row: PetRow): Pet {
  if (!isPetStatus(row.status)) throw new Error(`Pet ${row.id} has an unknown status`);
  return { id: BigInt(row.id), name: row.name, categoryId: BigInt(row.categoryId), status: row.status };
}
