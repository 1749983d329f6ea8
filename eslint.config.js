import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      '.data-distributed/**',
      '.tmp/**',
      '.turbo/**',
      'infra/.run/**',
      'infra/kafka/lib/**',
      'bench/results/**',
      '**/drizzle/meta/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // k6 scripts run in k6, which provides __ENV, __VU and __ITER.
  { files: ['infra/k6/**/*.js'], languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly' } } },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  // Issue 17: handlers take their types from the route schemas (the kit's App carries the TypeBox
  // provider) and queries take DbOrTx, so neither a request part nor a transaction is cast. (Tests may.)
  {
    files: ['services/*/src/**/*.ts', 'gateway/src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSAsExpression.expression[typeAnnotation.type="TSUnknownKeyword"]',
          message: '`as unknown as` hides a type error: type the value (DbOrTx, a route schema, a proto schema check) instead.',
        },
        {
          selector: 'TSAsExpression > MemberExpression.expression[object.name=/^(request|req)$/][property.name=/^(body|params|query)$/]',
          message: 'Request parts are typed by the route schema (App has the TypeBox provider): declare the schema, do not cast.',
        },
      ],
    },
  },
);
