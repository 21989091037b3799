import type { Framework } from '../harness/types.js';

/** A module system of a cold-start script. */
export type ModuleKind = 'cjs' | 'esm';

/** What a cold-start script prints: ms since the process started (`performance.now()`). */
export interface ColdStartSample {
  /** Before the first import. */
  started: number;
  /** After the imports. */
  imported: number;
  /** When the first text delta arrived. */
  first: number;
  /** CPU time of the process (all threads, user + system) when the first delta arrived. */
  cpu: number;
  /** Whether the whole text arrived (checked after the clock). */
  ok: boolean;
}

/** How one framework's cold-start script is written, and what it installs. */
export interface W9Adapter {
  readonly framework: Framework;
  readonly label: string;
  /** The packages a user installs (`name@version`); empty for the floor. */
  readonly install: readonly string[];
  /** The package whose own size and dependencies are reported (none for the floors). */
  readonly packageName?: string;
  /**
   * The script's body after `started` is taken: it imports (with `load(specifier)`,
   * `require` or `await import`), sets `imported`, makes the first call and passes every
   * text delta to `onDelta(delta)` (which notes the first one's time); `DELTAS` holds the
   * answer's deltas.
   */
  body(load: (specifier: string) => string): string;
}

/**
 * The whole script for `module`: the framework's body between the shared head (the clock)
 * and tail (the report line on stdout).
 * @param adapter The framework.
 * @param module CommonJS (`.cjs`, `require`) or ESM (`.mjs`, `await import`).
 * @param deltas The answer's text deltas.
 * @returns The source.
 */
export function coldStartScript(
  adapter: W9Adapter,
  module: ModuleKind,
  deltas: readonly string[],
): string {
  const load =
    module === 'cjs'
      ? (specifier: string) => `require(${JSON.stringify(specifier)})`
      : (specifier: string) => `(await import(${JSON.stringify(specifier)}))`;
  const body = adapter.body(load);
  return [
    module === 'cjs' ? `'use strict';` : '',
    `const started = performance.now();`,
    `const DELTAS = ${JSON.stringify(deltas)};`,
    `let imported;`,
    `let first;`,
    `let cpu;`,
    `let text = '';`,
    `function onDelta(delta) {`,
    `  if (first === undefined) {`,
    `    first = performance.now();`,
    `    const usage = process.cpuUsage();`,
    `    cpu = (usage.user + usage.system) / 1000;`,
    `  }`,
    `  text += delta;`,
    `}`,
    module === 'cjs' ? `(async () => {\n${body}\n})().then(report, fail);` : `${body}\nreport();`,
    `function report() {`,
    `  process.stdout.write(JSON.stringify({ started, imported, first, cpu, ok: first !== undefined && text === DELTAS.join('') }) + '\\n');`,
    `}`,
    `function fail(error) { console.error(error); process.exit(1); }`,
  ].join('\n');
}

/** rx-advisors: the root entry point, a `ChatModel` over an array, `stream().content()`. */
export const w9RxAdvisors: W9Adapter = {
  framework: 'rx-advisors',
  label: "require/import 'rx-advisors' + 'rxjs'; ChatClient over a ChatModel streaming an array",
  install: [],
  packageName: 'rx-advisors',
  body: (load) => `
var { ChatClient } = ${load('rx-advisors')};
var { from, lastValueFrom, tap } = ${load('rxjs')};
imported = performance.now();
const chunks = [
  { type: 'metadata', id: 'cold', model: 'cold' },
  ...DELTAS.map((delta) => ({ type: 'text-delta', text: delta })),
  { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
  { type: 'finish', reason: 'stop' },
];
const model = { provider: 'cold', stream: () => from(chunks) };
const client = ChatClient.builder(model).build();
await lastValueFrom(client.prompt('Hi').stream().content().pipe(tap((delta) => {
  onDelta(delta);
})));`,
};

/** The AI SDK: `streamText` over a `LanguageModelV3` object streaming an array. */
export const w9AiSdk: W9Adapter = {
  framework: 'ai-sdk',
  label: "require/import 'ai'; streamText over a LanguageModelV3 object literal, textStream",
  install: ['ai'],
  packageName: 'ai',
  body: (load) => `
var { streamText } = ${load('ai')};
imported = performance.now();
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const parts = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'cold', modelId: 'cold' },
  { type: 'text-start', id: 't' },
  ...DELTAS.map((delta) => ({ type: 'text-delta', id: 't', delta })),
  { type: 'text-end', id: 't' },
  { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
];
const model = {
  specificationVersion: 'v3',
  provider: 'cold',
  modelId: 'cold',
  supportedUrls: {},
  doGenerate: () => Promise.reject(new Error('stream only')),
  doStream: async () => ({
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  }),
};
const result = streamText({ model, prompt: 'Hi' });
for await (const delta of result.textStream) {
  onDelta(delta);
}`,
};

/** LangChain: a `BaseChatModel` subclass streaming an array, `model.stream()`. */
export const w9LangChain: W9Adapter = {
  framework: 'langchain',
  label:
    "require/import '@langchain/core/{language_models/chat_models,messages,outputs}'; a BaseChatModel subclass, model.stream()",
  install: ['@langchain/core'],
  packageName: '@langchain/core',
  body: (load) => `
var { BaseChatModel } = ${load('@langchain/core/language_models/chat_models')};
var { AIMessageChunk } = ${load('@langchain/core/messages')};
var { ChatGenerationChunk } = ${load('@langchain/core/outputs')};
imported = performance.now();
class ColdModel extends BaseChatModel {
  _llmType() { return 'cold'; }
  async _generate() { throw new Error('stream only'); }
  async *_streamResponseChunks() {
    for (const delta of DELTAS) {
      yield new ChatGenerationChunk({ message: new AIMessageChunk({ content: delta }), text: delta });
    }
  }
}
for await (const chunk of await new ColdModel({}).stream('Hi')) {
  if (typeof chunk.content !== 'string' || chunk.content === '') continue;
  onDelta(chunk.content);
}`,
};

/** The floor: rxjs alone (the peer every rx-advisors user has), `from(array)`. */
export const w9FloorRxjs: W9Adapter = {
  framework: 'floor-rxjs',
  label: "require/import 'rxjs' only; from(array)",
  install: [],
  body: (load) => `
var { from, lastValueFrom, tap } = ${load('rxjs')};
imported = performance.now();
await lastValueFrom(from(DELTAS).pipe(tap((delta) => {
  onDelta(delta);
})));`,
};

/** The floor: Node alone, an async generator over the array (no import). */
export const w9FloorAsyncGen: W9Adapter = {
  framework: 'floor-asyncgen',
  label: 'no import; for await over an async generator',
  install: [],
  body: () => `
imported = performance.now();
async function* deltas() { yield* DELTAS; }
for await (const delta of deltas()) {
  onDelta(delta);
}`,
};
