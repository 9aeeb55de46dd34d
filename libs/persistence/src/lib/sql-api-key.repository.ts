import { Injectable } from '@nestjs/common';
import { type ApiKeyRecord, type ApiKeyRef, ApiKeyRepository, type StoredApiKey } from '@petstore/domain';
import { parseInt64 } from '@petstore/domain';
import { Database, type Statement } from './database';
import { namedStatement } from './named-statement';

const COLUMNS = `id::text AS id, name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

const INSERT: Statement = namedStatement(
  'api_keys_insert',
  `INSERT INTO api_keys (name, prefix, secret_sha256) VALUES ($1, $2, $3) ON CONFLICT (prefix) DO NOTHING RETURNING ${COLUMNS}`,
);
// Runs for each presented key not seen in the last second: named, so it is parsed once per connection.
const FIND_BY_PREFIX: Statement = namedStatement(
  'api_keys_find_by_prefix',
  `SELECT ${COLUMNS}, secret_sha256 AS "secretSha256" FROM api_keys WHERE prefix = $1`,
  { readOnly: true },
);
const LIST: Statement = namedStatement('api_keys_list', `SELECT ${COLUMNS} FROM api_keys ORDER BY id`, { readOnly: true });
// A second revocation keeps the time of the first.
const REVOKE_BY_ID: Statement = namedStatement(
  'api_keys_revoke_by_id',
  `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
);
const REVOKE_BY_PREFIX: Statement = namedStatement(
  'api_keys_revoke_by_prefix',
  `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE prefix = $1 RETURNING ${COLUMNS}`,
);
const TOUCH: Statement = namedStatement('api_keys_touch', `UPDATE api_keys SET last_used_at = now() WHERE id = $1`);

type StoredRow = Omit<StoredApiKey, 'secretSha256'> & { secretSha256: string };

/** The ApiKeyRepository port on PostgreSQL (or PGlite): one SQL statement per call. */
@Injectable()
export class SqlApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly database: Database) {
    super();
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

  async revoke(ref: ApiKeyRef): Promise<ApiKeyRecord | undefined> {
    if (!('id' in ref)) return (await this.database.query<ApiKeyRecord>(REVOKE_BY_PREFIX, [ref.prefix]))[0];
    // Not an int64: no key has it, and PostgreSQL would refuse the parameter.
    const id = parseInt64(ref.id);
    return id === undefined ? undefined : (await this.database.query<ApiKeyRecord>(REVOKE_BY_ID, [id.toString()]))[0];
  }

  async touch(id: string): Promise<void> {
    await this.database.query(TOUCH, [id]);
  }
}
