import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist', '**/node_modules', '**/.nx', '**/tmp', '**/.data', '**/coverage'] },
  // Type-checked: every TypeScript file of the workspace is in tsconfig.json (apps, libs, tools), which
  // the project service finds for it as tsc's `npm run typecheck` does.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // The client's consumer programs (.mts, .cts) are compiled outside the workspace by the e2e
          // test, so no tsconfig of the workspace holds them: they take tsconfig.json's options.
          allowDefaultProject: ['apps/api-e2e/src/client-consumer/*.mts', 'apps/api-e2e/src/client-consumer/*.cts'],
          defaultProject: 'tsconfig.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      // Errors in recommendedTypeChecked already; named here as rules this workspace relies on.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          banTransitiveDependencies: true,
          // The key CLI (tools/keys) imports its database half only when no service answers it: the
          // libs that half loads are lazy there, and static in the CLI's other modules.
          checkDynamicDependenciesExceptions: ['@petstore/auth/key-store', '@petstore/auth/key-commands', '@petstore/persistence'],
          depConstraints: [
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: [],
              // The domain is plain TypeScript: no framework, no ORM, no validation library.
              bannedExternalImports: [
                '@nestjs/*',
                'typeorm',
                'typeorm-*',
                'pg',
                '@electric-sql/*',
                'class-validator',
                'class-transformer',
                'fastify',
                '@fastify/*',
                'passport*',
              ],
            },
            // The shared libs (scope:shared) know no feature: they import each other and the domain only,
            // each within its own constraint below.
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'type:domain'] },
            { sourceTag: 'type:config', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:data-dir', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:http-errors', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:http', onlyDependOnLibsWithTags: ['type:http-errors', 'type:domain'] },
            { sourceTag: 'type:observability', onlyDependOnLibsWithTags: ['type:http-errors', 'type:http'] },
            {
              sourceTag: 'type:persistence',
              onlyDependOnLibsWithTags: ['type:domain', 'type:config', 'type:data-dir', 'type:observability'],
            },
            { sourceTag: 'type:auth', onlyDependOnLibsWithTags: ['type:domain', 'scope:shared'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:domain', 'scope:shared', 'type:auth'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['*'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:client'] },
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:tools', onlyDependOnLibsWithTags: ['*'] },
          ],
        },
      ],
    },
  },
  {
    // Public APIs only (docs/decisions/0006-database-access-public-api.md): no undocumented field of TypeORM's
    // driver (its pools, query runners, connections) nor of node-postgres's client (the backend's cancel key,
    // its socket) or pool (pg-pool's `_`-fields), read or destructured. The cancel's adapter is the one exception.
    files: ['**/*.ts'],
    ignores: ['libs/persistence/src/lib/pg-cancel.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...privateDriverFields()],
    },
  },
  {
    // The shared libs answer domain errors by their kind; they know no feature and none of its errors. The store's two
    // errors, which any statement of any operation can meet, are documented on every operation (standard answers); an
    // identifier's int64 rule is every input's.
    files: ['libs/{config,data-dir,http-errors,http,observability}/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@petstore/domain',
              allowImportNames: [
                'DomainError',
                'DomainErrorKind',
                'StoreUnavailableError',
                'WriteOutcomeUnknownError',
                'INT64_MAX',
                'INT64_MIN',
                'parseInt64',
              ],
              message:
                "a shared lib takes of the domain its errors, mapped generically (DomainError's code and kind), and the int64 rule; never a feature's own error or rule",
            },
          ],
        },
      ],
    },
  },
  {
    // Persistence records its durations in observability's histograms and imports nothing else of that lib.
    files: ['libs/persistence/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@petstore/observability', message: 'persistence imports BoundHistogram from @petstore/observability/histogram' },
          ],
        },
      ],
    },
  },
  {
    // Tests (and their helpers). Jest's asymmetric matchers (expect.any(), expect.objectContaining(), ...)
    // are typed `any`, in an expected value and as a matcher's argument (toThrow(expect.objectContaining(...))).
    // A test double stands in for an async API with `async` methods that await nothing: `async` gives
    // it the real one's contract, a throw becoming a rejection.
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'apps/api/src/testing/**/*.ts', 'apps/api-e2e/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  // Plain JavaScript (tools' scripts, jest configs) has no types to check.
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

/** Selectors of the driver's private fields, for no-restricted-syntax, each with its message. */
function privateDriverFields() {
  const typeorm = 'master|slaves|postgres|connectedQueryRunners|databaseConnection';
  const pg = 'processID|secretKey|_clients|_idle|_pendingQueue|_connecting|_connected|_ending|_ended|_queryable|_queryQueue|_activeQuery';
  const message = (what) =>
    `${what} is not public API: use TypeORM's DataSource or the application's pool (createPool, data-source.ts); only pg-cancel.ts reaches into pg`;
  return [
    {
      selector: `MemberExpression[object.property.name='driver'][property.name=/^(${typeorm})$/]`,
      message: message("TypeORM's driver field"),
    },
    {
      selector: `MemberExpression[property.name=/^(master|slaves|connectedQueryRunners|databaseConnection)$/]`,
      message: message("TypeORM's driver field"),
    },
    { selector: `MemberExpression[property.name=/^(${pg})$/]`, message: message("node-postgres's internal field") },
    {
      selector: `ObjectPattern > Property[key.name=/^(${typeorm}|${pg})$/]`,
      message: message('A private field of TypeORM or node-postgres'),
    },
    { selector: `MemberExpression[object.property.name='connection'][property.name='stream']`, message: message("node-postgres's socket") },
    { selector: `MemberExpression[object.name='connection'][property.name='stream']`, message: message("node-postgres's socket") },
  ];
}
