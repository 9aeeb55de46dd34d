import { Injectable } from '@nestjs/common';
import {
  type ApiKeyRecord,
  type ApiKeyRef,
  ApiKeyRepository,
  type ApiKeyRevocation,
  parseInt64,
  type StoredApiKey,
} from '@petstore/domain';
import { Database } from './database';
import { Statement } from './named-statement';

const COLUMNS = `id::text AS id, name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

const INSERT: Statement = Statement.named(
  'api_keys_insert',
  `INSERT INTO api_keys (name, prefix, secret_sha256) VALUES ($1, $2, $3) ON CONFLICT (prefix) DO NOTHING RETURNING ${COLUMNS}`,
);
// Runs for each presented key not seen in the last second: named, so it is parsed once per connection.
const FIND_BY_PREFIX: Statement = Statement.named(
  'api_keys_find_by_prefix',
  `SELECT ${COLUMNS}, secret_sha256 AS "secretSha256" FROM api_keys WHERE prefix = $1`,
);
const LIST: Statement = Statement.named('api_keys_list', `SELECT ${COLUMNS} FROM api_keys ORDER BY id`);
// Locked and read before the update: of two revocations at once exactly one is first, and its time is kept.
const revokeWhere = (name: string, column: 'id' | 'prefix'): Statement =>
  Statement.named(
    name,
    `WITH previous AS (SELECT id AS key_id, revoked_at AS previously_revoked_at FROM api_keys WHERE ${column} = $1 FOR UPDATE)
     UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) FROM previous WHERE id = key_id
     RETURNING ${COLUMNS}, previously_revoked_at IS NOT NULL AS "alreadyRevoked"`,
  );
const REVOKE_BY_ID = revokeWhere('api_keys_revoke_by_id', 'id');
const REVOKE_BY_PREFIX = revokeWhere('api_keys_revoke_by_prefix', 'prefix');
const TOUCH: Statement = Statement.named('api_keys_touch', `UPDATE api_keys SET last_used_at = now() WHERE id = $1`);

type StoredRow = Omit<StoredApiKey, 'secretSha256'> & { secretSha256: string };
type RevokedRow = ApiKeyRecord & { alreadyRevoked: boolean };

/** The ApiKeyRepository port on PostgreSQL (or PGlite): one SQL statement per call. */
@Injectable()
export class SqlApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly database: Database) {
    super();
    database.declare([INSERT, FIND_BY_PREFIX, LIST, REVOKE_BY_ID, REVOKE_BY_PREFIX, TOUCH]);
  }

  async insert(key: { name: string; prefix: string; secretSha256: Buffer }): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.database.query<ApiKeyRecord>(INSERT, [key.name, key.prefix, key.secretSha256.toString('hex')]);
    return row;
  }

  async findByPrefix(prefix: string): Promise<StoredApiKey | undefined> {
    const [row] = await this.database.query<StoredRow>(FIND_BY_PREFIX, [prefix]);
    return row && { ...row, secretSha256: Buffer.from(row.secretSha256, 'hex') };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.database.query<ApiKeyRecord>(LIST, []);
  }

  async revoke(ref: ApiKeyRef): Promise<ApiKeyRevocation | undefined> {
    if (!('id' in ref)) return revocationOf(await this.database.query<RevokedRow>(REVOKE_BY_PREFIX, [ref.prefix]));
    // Not an int64: no key has it, and PostgreSQL would refuse the parameter.
    const id = parseInt64(ref.id);
    return id === undefined ? undefined : revocationOf(await this.database.query<RevokedRow>(REVOKE_BY_ID, [id.toString()]));
  }

  async touch(id: string): Promise<void> {
    await this.database.query(TOUCH, [id]);
  }
}

function revocationOf([row]: RevokedRow[]): ApiKeyRevocation | undefined {
  if (!row) return undefined;
  const { alreadyRevoked, ...key } = row;
  return { key, alreadyRevoked };
}
