#!/bin/sh
# `npm run migration:generate -- <name>` (docs/development.md, "Migrations"), after `npm run build
# --no-bundle`: TypeORM's CLI writes libs/persistence/src/lib/migrations/<timestamp>-<name>.ts from
# what it finds to change for the entities, on the DataSource of migration-data-source.ts as swc
# compiled it (TypeORM's CLI loads TypeScript only through ts-node, which the workspace does not use).
set -eu
name=${1:?the name of the migration, in kebab case: npm run migration:generate -- <name>}
migrations=libs/persistence/src/lib/migrations
typeorm migration:generate --dataSource dist/libs/persistence/src/migration-data-source.js "$migrations/$name"
prettier --write --log-level warn "$migrations"
echo "Next: add its class to MIGRATIONS ($migrations/index.ts), and read it (docs/development.md, \"Migrations\")."
