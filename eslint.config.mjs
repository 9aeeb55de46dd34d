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
            { sourceTag: 'type:core', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:persistence', onlyDependOnLibsWithTags: ['type:domain', 'type:core'] },
            { sourceTag: 'type:auth', onlyDependOnLibsWithTags: ['type:domain', 'type:core'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:domain', 'type:core', 'type:auth'] },
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
    // Core answers domain errors by their kind; it knows no feature and none of its errors.
    files: ['libs/core/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@petstore/domain',
              allowImportNames: ['DomainError', 'DomainErrorKind'],
              message: "core maps domain errors generically (DomainError's code and kind), never a feature's own error",
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
