// ESLint flat config: typescript-eslint's recommended rules for TS/TSX, React hooks rules for
// the app, and Node globals for the build scripts.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import nicsim from './web/scripts/eslint-feature-boundaries.mjs';

const nodeGlobals = {
  console: 'readonly',
  process: 'readonly',
  Buffer: 'readonly',
  URL: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
  setInterval: 'readonly',
  clearInterval: 'readonly',
  performance: 'readonly',
};

// A trace is named trace, tr, t or *trace*/*Trace* (idx.trace, traceA, …) throughout web/.
const TRACE_NAME = '/^(t|tr|.*[tT]race.*)$/';
const COLUMN = '/^[a-e]$/';
const POSITIONAL =
  'Read the field by name: the generated accessors in web/trace/records.gen.ts (e.g. DmaQueued.purpose(trace, i)), or KINDS[k].fields / roleValue for any kind.';
const POSITIONAL_FIELD_SELECTORS = [
  // trace.a[i], tr.b[i]
  `MemberExpression[computed=false][property.name=${COLUMN}][object.name=${TRACE_NAME}]`,
  // idx.trace.c[i]
  `MemberExpression[computed=false][property.name=${COLUMN}][object.property.name=${TRACE_NAME}]`,
  // trace['d'][i]
  `MemberExpression[computed=true][property.value=${COLUMN}][object.name=${TRACE_NAME}]`,
  `MemberExpression[computed=true][property.value=${COLUMN}][object.property.name=${TRACE_NAME}]`,
  // const { a, b } = trace
  `VariableDeclarator[init.name=${TRACE_NAME}] > ObjectPattern > Property[key.name=${COLUMN}]`,
  `VariableDeclarator[init.property.name=${TRACE_NAME}] > ObjectPattern > Property[key.name=${COLUMN}]`,
].map((selector) => ({ selector, message: POSITIONAL }));

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'build/',
      'web/engine/wasm/',
      'web/trace/*.gen.ts',
      'test-results/',
      'playwright-report/',
      'e2e/artifacts/',
      'shared/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Trace records are read by field name through the accessors generated from
    // core-cpp/trace/trace_kinds.json (web/trace/records.gen.ts), never by column (.a … .e): a
    // column means something different for every kind. Only the decoder and web/trace/ see the
    // columns; tests may build and read traces by column.
    files: ['web/**/*.{ts,tsx}'],
    ignores: ['web/trace/trace.ts', 'web/trace/**', 'web/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', ...POSITIONAL_FIELD_SELECTORS],
    },
  },
  {
    // web/ is organised by feature: another folder uses a feature only through its index.ts, and
    // trace/, kit/ and engine/ use no feature (web/scripts/eslint-feature-boundaries.mjs).
    files: ['web/**/*.{ts,tsx}'],
    plugins: { nicsim },
    rules: { 'nicsim/feature-boundaries': 'error' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: nodeGlobals },
  },
);
