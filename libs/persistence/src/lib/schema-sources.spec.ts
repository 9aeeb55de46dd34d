import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** What the files of a folder whose names match export: each value with its name and file. */
async function exportsOf(dir: string, files: RegExp): Promise<{ name: string; file: string; value: unknown }[]> {
  const modules = readdirSync(dir)
    .filter((file) => files.test(file))
    .map(async (file) => ({ file, exports: (await import(join(dir, file))) as Record<string, unknown> }));
  return (await Promise.all(modules)).flatMap(({ file, exports }) =>
    Object.entries(exports).map(([name, value]) => ({ name, file, value })),
  );
}

// The DataSource runs the migrations and knows the entities it is given in lists (a list, not a glob
// over the folder, also works in the bundle: docs/decisions/0005-entities-and-migrations.md).
describe("the DataSource's lists", () => {
  it('MIGRATIONS (migrations/index.ts) holds every migration in the folder: one left out would never run', async () => {
    const listed = new Set<unknown>(MIGRATIONS);
    const migrations = await exportsOf(join(__dirname, 'migrations'), /^\d+-[\w-]+\.ts$/);
    expect(migrations.length).toBeGreaterThan(0);
    // To add: the class, imported from its file.
    expect(migrations.filter(({ value }) => !listed.has(value)).map(({ name, file }) => `${name} from ./${file}`)).toEqual([]);
  });

  it('ENTITIES (entities/index.ts) holds every entity in the folder: one left out would be a table no migration makes', async () => {
    const listed = new Set<unknown>(ENTITIES);
    const entities = await exportsOf(join(__dirname, 'entities'), /^[\w-]+\.entity\.ts$/);
    expect(entities.length).toBeGreaterThan(0);
    // To add: the class, imported from its file.
    expect(entities.filter(({ value }) => !listed.has(value)).map(({ name, file }) => `${name} from ./${file}`)).toEqual([]);
  });
});
