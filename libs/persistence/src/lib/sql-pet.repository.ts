import { Injectable } from '@nestjs/common';
import {
  type CreateOnceResult,
  type IdempotencyRecordRepository,
  type IdempotentRequest,
  isPetStatus,
  PetRepository,
  type NewPet,
  type Pet,
  type PetQuery,
  type PetStatus,
} from '@petstore/domain';
import { Database } from './database';
import { Statement } from './named-statement';
import type { PetEntity } from './entities';

const COLUMNS = `id, name, category_id AS "categoryId", status`;

// Keyset pages: an index range scan from `after`, whatever the depth (no OFFSET, no count).
const LIST: Statement = Statement.named('pets_list', `SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`);
// Not prepared: a generic plan cannot know a status is rare and walks the primary key; planned per call, it uses (status, id).
const LIST_BY_STATUS: Statement = Statement.named(
  'pets_list_by_status',
  `SELECT ${COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
  { prepare: false },
);
// Identity ids start at 1, so "after 0" is the first page.
const FIRST_PAGE = '0';
const FIND_BY_ID: Statement = Statement.named('pets_find_by_id', `SELECT ${COLUMNS} FROM pets WHERE id = $1`);
const INSERT: Statement = Statement.named(
  'pets_insert',
  `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
);

// One statement, so one transaction: docs/contract.md, "Safe retries (Idempotency-Key)". ' ' occurs in neither key (visible
// ASCII), so distinct pairs hash distinct texts. The primary key arbitrates: it sees a record committed after the snapshot.
const CREATE_ONCE: Statement = Statement.named(
  'pets_create_once',
  `
    WITH claim AS (
      SELECT pg_try_advisory_xact_lock(hashtextextended($1::text || ' ' || $2::text, 0)) AS free
    ), allocated AS (
      SELECT nextval('pets_id_seq') AS id FROM claim WHERE free
    ), record AS (
      INSERT INTO idempotency_records AS r (api_key_id, idempotency_key, request_sha256, pet_id, response_body, expires_at)
      SELECT $1, $2, $3, id, jsonb_build_object('id', id, 'name', $5::text, 'categoryId', $6::bigint, 'status', $7::text),
             now() + $4::integer * interval '1 second'
      FROM allocated
      ON CONFLICT (api_key_id, idempotency_key) DO UPDATE
        SET request_sha256 = excluded.request_sha256, pet_id = excluded.pet_id, response_body = excluded.response_body,
            created_at = excluded.created_at, expires_at = excluded.expires_at
        WHERE r.expires_at <= now()
      RETURNING pet_id
    ), pet AS (
      INSERT INTO pets (id, name, category_id, status) OVERRIDING SYSTEM VALUE
      SELECT pet_id, $5::text, $6::bigint, $7::text FROM record
      RETURNING ${COLUMNS}
    )
    SELECT claim.free, pet.* FROM claim LEFT JOIN pet ON true`,
);
// Its own statement, whose snapshot sees a record committed while the claim ran; expired or not, it was current a moment ago.
const FIND_RECORD: Statement = Statement.named(
  'idempotency_records_find',
  `
    SELECT request_sha256 = $3 AS "sameRequest", response_body->>'id' AS id, response_body->>'name' AS name,
           response_body->>'categoryId' AS "categoryId", response_body->>'status' AS status
    FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2`,
);
// A bounded batch by ctid (a TID scan, no second index walk); rows a create is overwriting are skipped, never waited for.
const DELETE_EXPIRED: Statement = Statement.named(
  'idempotency_records_delete_expired',
  `
    DELETE FROM idempotency_records WHERE ctid = ANY (ARRAY(
      SELECT ctid FROM idempotency_records WHERE expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED))
    RETURNING 1`,
);
/** How often createOnce claims a key: a second time only if the record it met vanished before it was read. */
const CREATE_ONCE_ATTEMPTS = 2;

type ClaimRow = { readonly free: boolean } & ({ readonly id: null } | PetRow);
type RecordRow = PetRow & { readonly sameRequest: boolean };

/** The PetRepository and IdempotencyRecordRepository ports on PostgreSQL (or PGlite): one SQL statement per call. */
@Injectable()
export class SqlPetRepository extends PetRepository implements IdempotencyRecordRepository {
  constructor(private readonly database: Database) {
    super();
    database.declare([LIST, LIST_BY_STATUS, FIND_BY_ID, INSERT, CREATE_ONCE, FIND_RECORD, DELETE_EXPIRED]);
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

  /** One statement when the key is new; a second, to read the record, when it is not. */
  async createOnce(
    request: IdempotentRequest,
    pet: NewPet & { readonly status: PetStatus },
    lifetimeSeconds: number,
  ): Promise<CreateOnceResult> {
    const { principal, key, fingerprint } = request;
    for (let attempt = 0; attempt < CREATE_ONCE_ATTEMPTS; attempt++) {
      const values = [principal, key, fingerprint, lifetimeSeconds, pet.name, pet.categoryId.toString(), pet.status];
      const [claim] = await this.database.query<ClaimRow>(CREATE_ONCE, values);
      if (!claim.free) return { outcome: 'in-progress' };
      if (claim.id !== null) return { outcome: 'created', pet: toPet(claim) };
      const [record] = await this.database.query<RecordRow>(FIND_RECORD, [principal, key, fingerprint]);
      // Gone already: it expired and was swept between the two statements, so the key is free again.
      if (!record) continue;
      return record.sameRequest ? { outcome: 'replayed', pet: toPet(record) } : { outcome: 'mismatch' };
    }
    return { outcome: 'in-progress' };
  }

  async deleteExpiredIdempotencyRecords(limit: number): Promise<number> {
    const rows = await this.database.query(DELETE_EXPIRED, [limit]);
    return rows.length;
  }
}

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
