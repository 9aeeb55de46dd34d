import { Injectable } from '@nestjs/common';
import { PetRepository, type NewPet, type Pet, type PetQuery, type PetStatus } from '@petstore/domain';
import { Database, type Statement } from './database';
import { toPet, type PetRow } from './pet.mapper';

const COLUMNS = `id, name, category_id AS "categoryId", status`;

// Keyset pages: an index range scan from `after`, whatever the depth (no OFFSET, no count).
const LIST: Statement = { name: 'pets_list', text: `SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2` };
// Not named: a generic plan for "status = $1" cannot know how rare the status is and walks the
// primary key filtering rows, a cliff for a rare status in a large table. Planned per call, it
// uses the (status, id) index; planning is PostgreSQL's CPU, not the service's.
const LIST_BY_STATUS: Statement = { text: `SELECT ${COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3` };
// Identity ids start at 1, so "after 0" is the first page.
const FIRST_PAGE = '0';
const FIND_BY_ID: Statement = { name: 'pets_find_by_id', text: `SELECT ${COLUMNS} FROM pets WHERE id = $1` };
const INSERT: Statement = {
  name: 'pets_insert',
  text: `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
};

/** The PetRepository port on PostgreSQL (or PGlite): one SQL statement per call. */
@Injectable()
export class TypeOrmPetRepository extends PetRepository {
  constructor(private readonly database: Database) {
    super();
  }

  async list(query: PetQuery): Promise<Pet[]> {
    const after = query.after?.toString() ?? FIRST_PAGE;
    const rows = query.status
      ? await this.database.query<PetRow>(LIST_BY_STATUS, [query.status, after, query.limit])
      : await this.database.query<PetRow>(LIST, [after, query.limit]);
    return rows.map(toPet);
  }

  async findById(id: bigint): Promise<Pet | undefined> {
    const [row] = await this.database.query<PetRow>(FIND_BY_ID, [id.toString()]);
    return row ? toPet(row) : undefined;
  }

  async create(pet: NewPet & { readonly status: PetStatus }): Promise<Pet> {
    const [row] = await this.database.query<PetRow>(INSERT, [pet.name, pet.categoryId.toString(), pet.status]);
    return toPet(row);
  }
}
