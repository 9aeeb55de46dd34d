import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist', '**/node_modules', '**/.nx', '**/tmp', '**/.data', '**/coverage'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          banTransitiveDependencies: true,
          // The key CLI (tools/keys) imports its database half only when no service answers it: the
          // libs that half loads are lazy there, and static in the CLI's other modules.
          checkDynamicDependenciesExceptions: ['@petstore/auth', '@petstore/auth/key-commands', '@petstore/persistence'],
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
            { sourceTag: 'type:http', onlyDependOnLibsWithTags: ['type:http-errors'] },
            { sourceTag: 'type:observability', onlyDependOnLibsWithTags: ['type:http-errors', 'type:http'] },
            { sourceTag: 'type:persistence', onlyDependOnLibsWithTags: ['type:domain', 'type:config', 'type:data-dir'] },
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
    // The shared libs answer domain errors by their kind; they know no feature and none of its errors.
    files: ['libs/{config,data-dir,http-errors,http,observability}/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@petstore/domain',
              allowImportNames: ['DomainError', 'DomainErrorKind'],
              message: "a shared lib maps domain errors generically (DomainError's code and kind), never a feature's own error",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
