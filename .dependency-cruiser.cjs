// @ts-check
/**
 * The layers of lib/, enforced by `npm run lint` (docs/architecture.md draws them).
 * Each folder may import only the folders listed for it; type-only imports count; no cycles.
 */

/** Folder of lib/ → the folders of lib/ it may import (besides itself). */
const LAYERS = {
  errors: [],
  core: ['errors'],
  schema: ['core', 'errors'],
  'advisor-api': ['core', 'errors'],
  tools: ['advisor-api', 'schema', 'core', 'errors'],
  output: ['advisor-api', 'schema', 'core', 'errors'],
  // sqlite/: what the SQLite stores share (the failure reasons from SQLite's codes, the
  // database check, the setup retried on a new file's race); no entry point.
  sqlite: ['errors'],
  // redis/, postgres/: what the Redis and the PostgreSQL stores share (the client check, the
  // option rules), memory and run journal alike; no entry point.
  redis: ['core', 'errors'],
  postgres: ['core', 'errors'],
  memory: ['advisor-api', 'core', 'errors'],
  'memory/sqlite': ['sqlite', 'memory', 'advisor-api', 'core', 'errors'],
  'memory/redis': ['redis', 'memory', 'advisor-api', 'core', 'errors'],
  'memory/postgres': ['postgres', 'memory', 'advisor-api', 'core', 'errors'],
  // memory/vector/: VectorStoreChatMemoryAdvisor, chat memory kept in a vector store.
  'memory/vector': ['memory', 'vector', 'advisor-api', 'core', 'errors'],
  client: ['tools', 'output', 'memory', 'advisor-api', 'schema', 'core', 'errors'],
  advisor: [
    'guardrails',
    'client',
    'tools',
    'output',
    'memory',
    'advisor-api',
    'schema',
    'core',
    'errors',
  ],
  // vector/: documents, embeddings, vector stores; rag/: the retrieval advisors (above
  // client/: the RAG stages that call a model take a ChatClient; vector memory reads the
  // memory advisors' conversation id).
  vector: ['core', 'errors'],
  // vector/sqlite/: SqliteVectorStore (rx-advisors/vector/sqlite; the only importer of sqlite-vec).
  'vector/sqlite': ['sqlite', 'vector', 'core', 'errors'],
  // rag/index.ts (rx-advisors/rag) also re-exports VectorStoreChatMemoryAdvisor from memory/vector/.
  rag: ['client', 'memory/vector', 'vector', 'advisor-api', 'core', 'errors'],
  providers: ['vector', 'schema', 'core', 'errors'],
  // sse/: the transport (the operator, HTTP responses, resumable streams); it names the
  // built-in protocols, so it may import ui/. sse/encoder/: the protocol contract every
  // encoder implements (SseEncoder, the error policy, the frame writer), below both.
  sse: ['ui', 'schema', 'core', 'errors'],
  'sse/encoder': ['core', 'errors'],
  // ui/: the AI SDK UI protocol: the UI message stream encoder, its parts, UiMessage and
  // uiMessagesToMessages (useChat's request to our messages).
  ui: ['sse/encoder', 'schema', 'core', 'errors'],
  testing: ['core', 'errors'],
  // A tool source (MCP) beside tools/, and telemetry as an observing advisor.
  mcp: ['tools', 'advisor-api', 'schema', 'core', 'errors'],
  otel: ['advisor-api', 'core', 'errors'],
  // run/: durable runs (the journal contract, its in-memory store, the durable run advisor);
  // run/sqlite/, run/redis/, run/postgres/: the shared journal stores, each standing alone.
  run: ['tools', 'advisor-api', 'schema', 'core', 'errors'],
  'run/sqlite': ['sqlite', 'run', 'core', 'errors'],
  'run/redis': ['redis', 'run', 'core', 'errors'],
  'run/postgres': ['postgres', 'run', 'core', 'errors'],
  // agents/: a ChatClient as a tool, handoffs (docs/agents.md); above client/.
  agents: ['client', 'tools', 'output', 'memory', 'advisor-api', 'schema', 'core', 'errors'],
  // guardrails/: input, output and tool guardrails, PII redaction (docs/guardrails.md); the
  // model judge takes a ChatClient, so above client/.
  guardrails: ['client', 'advisor-api', 'core', 'errors'],
  // budget/: BudgetAdvisor, a run's budget through the model-call and tool-call seams.
  budget: ['advisor-api', 'core', 'errors'],
};

/**
 * Store folders: each stands alone, like the providers (shared code lives in the parent
 * folder, e.g. lib/memory/message-row.ts). One rule per folder: it never imports another.
 */
const STORES = [
  'memory/sqlite',
  'memory/redis',
  'memory/postgres',
  'memory/vector',
  'vector/sqlite',
  'sse/redis',
  'run/sqlite',
  'run/redis',
  'run/postgres',
];

const folders = Object.keys(LAYERS);
const alternation = (names) => names.join('|');
/** The folders of LAYERS nested in `folder` (`vector/sqlite` in `vector`): they have their own rule. */
const nestedIn = (folder) => folders.filter((f) => f.startsWith(`${folder}/`));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...folders.map((folder) => ({
      name: `layer-${folder}`,
      comment: `lib/${folder}/ may import only ${LAYERS[folder].length === 0 ? 'itself' : LAYERS[folder].map((f) => `lib/${f}/`).join(', ')} (see docs/architecture.md).`,
      severity: 'error',
      from: {
        path: `^lib/${folder}/`,
        ...(nestedIn(folder).length > 0 && { pathNot: `^lib/(${alternation(nestedIn(folder))})/` }),
      },
      to: { path: '^lib/', pathNot: `^lib/(${alternation([folder, ...LAYERS[folder]])})/` },
    })),
    {
      name: 'layer-unknown-folder',
      comment:
        'Every folder of lib/ has a place in the layers: add it to LAYERS in .dependency-cruiser.cjs and to docs/architecture.md.',
      severity: 'error',
      from: { path: '^lib/[^/]+/', pathNot: `^lib/(${alternation(folders)})/` },
      to: {},
    },
    ...STORES.map((store) => ({
      name: `store-${store.replace('/', '-')}-stands-alone`,
      comment: `lib/${store}/ is a store that stands alone: it never imports another store folder (${STORES.filter((s) => s !== store).join(', ')}); shared code goes in its parent folder.`,
      severity: 'error',
      from: { path: `^lib/${store}/` },
      to: { path: `^lib/(${alternation(STORES.filter((s) => s !== store))})/` },
    })),
    {
      name: 'store-unknown-folder',
      comment:
        'A folder inside lib/memory/ is a store (or a memory that needs another layer): add it to STORES in .dependency-cruiser.cjs so it stands alone.',
      severity: 'error',
      from: { path: '^lib/memory/[^/]+/', pathNot: `^lib/(${alternation(STORES)})/` },
      to: {},
    },
    {
      name: 'providers-independent',
      comment:
        'A provider imports its own folder and the provider kit through its index (the public rx-advisors/provider-kit), never another provider or a kit file.',
      severity: 'error',
      from: { path: '^lib/providers/([^/]+)/', pathNot: '^lib/providers/kit/' },
      to: { path: '^lib/providers/', pathNot: '^lib/providers/($1/|kit/index[.]ts$)' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every relative import of lib/ resolves to a file.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-entry-imports-inside-lib',
      comment:
        'Code in lib/ imports files, not the entry points (lib/index.ts and the subpath index files).',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/index\\.ts$' },
      to: { path: '^lib/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^lib/.*\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
      // Resolve package subpaths through "exports" (@modelcontextprotocol/sdk has no other way).
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
