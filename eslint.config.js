// Lint: typescript-eslint's recommended rules, plus the module boundaries the design depends on.
// The engine knows no HTTP and no tools; everything outside it uses only its public entry
// (engine/index.ts); and no module reaches itself through its imports.
import tseslint from 'typescript-eslint';
import projectRules from './lint/no-import-cycles.js';

const KOA = ['koa', 'koa-*', '@koa/*'];
const ENGINE_INTERNALS = {
  group: ['**/engine/**', '!**/engine/index.ts'],
  message: 'Use the engine through its public entry, engine/index.ts.',
};

const ENGINE_OUTWARD = [
  { group: ['**/server/**', '**/mcp/**', '**/tools/**', '**/docs-site/**', '**/bench/**'], message: 'The engine imports nothing from the service, the MCP server, the tools or the docs.' },
  { group: KOA, message: 'The engine knows no HTTP.' },
];
const NOT_RUN = { group: ['**/run/**'], message: 'Reports and traces are written from what a run recorded (engine/trace/record.ts); only run/ uses them, never the other way.' };
const NOT_REPORT = { group: ['**/report/**'], message: 'A trace is written without report templates: report/ uses trace/, never the other way.' };

// Folders of the service, each importing only those below it: contract/ (the API as data) at the
// bottom; http/ (the request frame), limits/ and process/ (boot, listen, drain, fleet, logs,
// metrics) above it; the routes' folders (catalog/, docs/, calculate/) above those; app.ts,
// services.ts and main.ts at the top, assembling them.
const SERVER_TOP = { group: ['**/app.ts', '**/services.ts', '**/main.ts'], message: 'Only the routes use the services (services.ts); only the entry point uses the application (app.ts).' };
const SERVER_APP = { group: ['**/app.ts', '**/main.ts'], message: 'Routes are registered by app.ts; they never import it.' };
const SERVER_ROUTES = { group: ['**/calculate/*', '**/catalog/*', '**/docs/*'], message: 'The request frame, the limits and the process know no route: routes are registered by app.ts.' };
const serverLayer = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [ENGINE_INTERNALS, ...patterns] }] });

export default tseslint.config(
  // test/fixtures/lint holds deliberately broken modules that test/lint lints on purpose.
  // .tmp/ is scratch space, ignored by git: the docs' client examples are written there while they run.
  { ignores: ['node_modules/**', 'dist/**', 'packages/*/dist/**', '**/*.d.ts', 'test/fixtures/lint/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.js'],
    plugins: { 'tax-rules-api': projectRules },
    rules: {
      // import-x/no-cycle cannot follow type-only imports; this rule follows every import.
      'tax-rules-api/no-import-cycles': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON answers whose shape they assert at run time.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['engine/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ENGINE_OUTWARD }] },
  },
  {
    // Layers inside the engine: json/ writes values, trace/ writes a run's trace, report/ compiles
    // report templates, run/ plans and runs calculators with all three. None reaches a layer above it.
    files: ['engine/report/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...ENGINE_OUTWARD, NOT_RUN] }] },
  },
  {
    files: ['engine/trace/**', 'engine/json/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...ENGINE_OUTWARD, NOT_RUN, NOT_REPORT] }] },
  },
  {
    files: ['server/**', 'mcp/**', 'tools/**', 'docs-site/**', 'bench/**', 'bin/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ENGINE_INTERNALS] }],
    },
  },
  {
    files: ['server/contract/**'],
    rules: serverLayer(SERVER_TOP, SERVER_ROUTES, { group: ['**/http/*', '**/limits/*', '**/process/*'], message: 'The contract is data: it imports nothing else of the service.' }),
  },
  { files: ['server/http/**', 'server/limits/**', 'server/process/**'], rules: serverLayer(SERVER_TOP, SERVER_ROUTES) },
  {
    files: ['server/catalog/**'],
    rules: serverLayer(SERVER_APP, { group: ['**/calculate/*', '**/docs/*'], message: 'A route folder uses no other route folder (only calculate/ finds calculators through catalog/).' }),
  },
  {
    files: ['server/docs/**'],
    rules: serverLayer(SERVER_APP, { group: ['**/calculate/*', '**/catalog/*'], message: 'A route folder uses no other route folder (only calculate/ finds calculators through catalog/).' }),
  },
  {
    files: ['server/calculate/**'],
    rules: serverLayer(SERVER_APP, { group: ['**/docs/*'], message: 'Calculations know nothing of the documentation routes.' }),
  },
  {
    // A boot serves the docs from the build's snapshot; the compiler behind docs-site/index.ts (the
    // Markdown parser, a megabyte of code) is loaded with import() only when a boot must compile.
    // Likewise the MCP server and its SDK (which brings its own web frameworks): only when served.
    files: ['server/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/docs-site/index.ts'], allowTypeImports: true, message: 'The service imports docs-site/snapshot.ts; the docs compiler (docs-site/index.ts) only through import().' },
          { group: ['**/mcp/**', '@modelcontextprotocol/*'], allowTypeImports: true, message: 'The service loads the MCP server (mcp/) only through import(), when API_EXTENSIONS names mcp.' },
        ],
      }],
    },
  },
);
