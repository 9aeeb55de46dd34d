// Asking a running service needs only the admin socket's client: Nest, the key store and the
// database are loaded when the CLI opens the database itself.
import { keyAdminSocketPath, type KeyCommand, KeyCommandError, type KeyCommandResult, sendKeyCommand } from '@petstore/auth/key-commands';
import { InvalidConfigError, loadDatabaseConfig } from '@petstore/config';
import type { ApiKeyRecord } from '@petstore/domain';
import { parseCommand, USAGE, UsageError } from './command-line';

async function execute(command: KeyCommand): Promise<KeyCommandResult> {
  const config = loadDatabaseConfig(process.env);
  if (!config.databaseUrl) {
    try {
      return await sendKeyCommand(keyAdminSocketPath(config.dataDir), command);
    } catch (error) {
      // No service runs on this data directory: open the database ourselves (under its lock).
      if (!['ENOENT', 'ECONNREFUSED'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
  const { executeOnDatabase } = await import('./on-database');
  return executeOnDatabase(config, command);
}

function report(result: KeyCommandResult): void {
  if ('created' in result) {
    const key = result.created;
    console.error(`Created key ${key.id} "${key.name}" (${key.prefix}). Store it now: it is shown this once and kept nowhere.`);
    process.stdout.write(`${result.token}\n`);
  } else if ('keys' in result) {
    process.stdout.write(formatTable(result.keys));
  } else if (result.alreadyRevoked) {
    const key = result.revoked;
    process.stdout.write(
      `Key ${key.id} "${key.name}" (${key.prefix}) was already revoked on ${timestamp(key.revokedAt)}; nothing changed.\n`,
    );
  } else {
    const key = result.revoked;
    process.stdout.write(`Revoked key ${key.id} "${key.name}" (${key.prefix}) at ${timestamp(key.revokedAt)}.\n`);
  }
}

function formatTable(keys: readonly ApiKeyRecord[]): string {
  const rows = [
    ['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'REVOKED'],
    ...keys.map((key) => [key.id, key.name, key.prefix, timestamp(key.createdAt), timestamp(key.lastUsedAt), timestamp(key.revokedAt)]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map(
      (row) =>
        `${row
          .map((cell, column) => cell.padEnd(widths[column]))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}

/** Dates arrive as Date from the database and as ISO strings through the admin socket. */
function timestamp(value: Date | string | null): string {
  return value === null ? '-' : new Date(value).toISOString();
}

async function main(argv: string[]): Promise<number> {
  // TypeORM and Nest log to stdout; keep stdout for the results (a created key is piped into secrets):
  // console.log goes to stderr.
  console.log = console.error;
  try {
    report(await execute(parseCommand(argv)));
    return 0;
  } catch (error) {
    if (error instanceof UsageError && error.requested) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (error instanceof UsageError) {
      console.error(`keys: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    const known = error instanceof KeyCommandError || error instanceof InvalidConfigError;
    console.error(known ? error.message : `The key command failed: ${String(error)}`);
    return 1;
  }
}

// main answers every failure with an exit code: nothing is left to catch.
void main(process.argv.slice(2)).then((code) => process.exit(code));
