// ESLint for the whole project: typescript-eslint's recommended rules without
// type information (a typed lint would take most of a minute on CI's two
// cores), the project's style (single quotes, semicolons), and a line cap.
// Layers and import cycles are checked by test/architecture/layers.test.ts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/', '**/fixtures/**/*.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly',
        clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', structuredClone: 'readonly',
        AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', performance: 'readonly',
        queueMicrotask: 'readonly', fetch: 'readonly', document: 'readonly', window: 'readonly' },
    },
    rules: {
      'quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: true }],
      'semi': ['error', 'always'],
      // 160: most table rows and quoted spec sentences fit on one line, and diffs
      // stay readable; a longer string is split into pieces joined with +. URLs
      // and regular expressions cannot be split, so lines holding one are exempt.
      'max-len': ['error', { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Terminal colour, XML and evidence sanitising match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Playwright needs a destructuring pattern for a test's fixtures, also an empty one.
    files: ['suites/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // Tests read JSON answers whose shape is what they assert; column-aligned output is matched with its spaces.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-regex-spaces': 'off' },
  },
);
