import type {
  LanguageModelV3,
  LanguageModelV3Middleware,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { TOOL_NAME } from '../harness/chunks.js';
import type { BenchAdapter, Gate, TextFixture } from '../harness/types.js';
import { asyncNoop, asyncNoopArgs } from './w2-async-tool.js';

const USAGE = {
  inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 34, text: 34, reasoning: undefined },
};

const textCache = new WeakMap<TextFixture, LanguageModelV3StreamPart[]>();

/** The V3 stream parts of one answer, built once per fixture and shared. */
function textParts(fixture: TextFixture): LanguageModelV3StreamPart[] {
  let parts = textCache.get(fixture);
  if (parts === undefined) {
    parts = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'bench-1', modelId: 'bench-model' },
      { type: 'text-start', id: 't' },
    ];
    for (const delta of fixture.deltas) parts.push({ type: 'text-delta', id: 't', delta });
    parts.push({ type: 'text-end', id: 't' });
    parts.push({ type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } });
    textCache.set(fixture, parts);
  }
  return parts;
}

function toolParts(round: number): LanguageModelV3StreamPart[] {
  const id = `call_${round}`;
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-input-start', id, toolName: TOOL_NAME },
    { type: 'tool-input-delta', id, delta: '{}' },
    { type: 'tool-input-end', id },
    { type: 'tool-call', toolCallId: id, toolName: TOOL_NAME, input: '{}' },
    { type: 'finish', usage: USAGE, finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
  ];
}

/** A middleware whose stream passes every part through an identity TransformStream. */
const passThroughMiddleware: LanguageModelV3Middleware = {
  specificationVersion: 'v3',
  wrapStream: async ({ doStream }) => {
    const result = await doStream();
    return {
      ...result,
      stream: result.stream.pipeThrough(
        new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            controller.enqueue(part);
          },
        }),
      ),
    };
  },
};

function textModel(fixture: TextFixture, advisors: number): LanguageModelV3 {
  const parts = textParts(fixture);
  const model = new MockLanguageModelV3({
    doStream: async () => Promise.resolve({ stream: convertArrayToReadableStream(parts) }),
  });
  if (advisors === 0) return model;
  return wrapLanguageModel({
    model,
    middleware: Array.from({ length: advisors }, () => passThroughMiddleware),
  });
}

async function collect(textStream: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const delta of textStream) text += delta;
  return text;
}

const models = new Map<string, LanguageModelV3>();

function cachedModel(fixture: TextFixture, advisors: number): LanguageModelV3 {
  const key = `${fixture.deltas.length}:${fixture.text.length}:${advisors}`;
  let model = models.get(key);
  if (model === undefined) {
    model = textModel(fixture, advisors);
    models.set(key, model);
  }
  if (model instanceof MockLanguageModelV3) model.doStreamCalls.length = 0;
  return model;
}

function gatedStream(
  parts: readonly LanguageModelV3StreamPart[],
  parkAfter: number,
  gate: Gate,
): ReadableStream<LanguageModelV3StreamPart> {
  let index = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      if (index === parkAfter) {
        gate.arrive();
        await gate.opened;
      }
      if (index < parts.length) controller.enqueue(parts[index++]);
      else controller.close();
    },
  });
}

const parkedModels = new WeakMap<Gate, MockLanguageModelV3>();

/** The Vercel AI SDK: `streamText` over `ai/test`'s `MockLanguageModelV3`. */
export const aiSdkAdapter: BenchAdapter = {
  framework: 'ai-sdk',
  passThroughLabel: '5 × wrapLanguageModel middleware (wrapStream + identity TransformStream)',
  toolLoopLabel: 'streamText with tools + stopWhen: stepCountIs(K + 1)',

  stream(fixture, advisors) {
    const result = streamText({ model: cachedModel(fixture, advisors), prompt: 'Hi' });
    return collect(result.textStream);
  },

  toolLoop(rounds, fixture, kind = 'sync') {
    const final = textParts(fixture);
    let call = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => {
        call++;
        const parts = call <= rounds ? toolParts(call) : final;
        return Promise.resolve({ stream: convertArrayToReadableStream(parts) });
      },
    });
    const result = streamText({
      model,
      prompt: 'Hi',
      tools: {
        [TOOL_NAME]:
          kind === 'sync'
            ? tool({
                description: 'Does nothing',
                inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
                execute: () => 'ok',
              })
            : tool({ description: 'Does nothing', inputSchema: asyncNoopArgs, execute: asyncNoop }),
      },
      stopWhen: stepCountIs(rounds + 1),
    });
    return collect(result.textStream);
  },

  parked(fixture, parkAt, gate) {
    let model = parkedModels.get(gate);
    if (model === undefined) {
      const parts = textParts(fixture);
      // stream-start, response-metadata and text-start come before the first delta.
      const parkAfter = 3 + parkAt;
      model = new MockLanguageModelV3({
        doStream: async () => Promise.resolve({ stream: gatedStream(parts, parkAfter, gate) }),
      });
      parkedModels.set(gate, model);
    }
    return collect(streamText({ model, prompt: 'Hi' }).textStream);
  },

  /** The mock records every call's options; drop them so W3 counts only the streams. */
  beforeHeapSnapshot(gate) {
    const model = parkedModels.get(gate);
    if (model !== undefined) model.doStreamCalls.length = 0;
  },

  async firstChunk(fixture) {
    const model = cachedModel(fixture, 0);
    let first = -1;
    let text = '';
    const start = performance.now();
    for await (const delta of streamText({ model, prompt: 'Hi' }).textStream) {
      if (first < 0) first = performance.now();
      text += delta;
    }
    if (text !== fixture.text) throw new Error('ai-sdk W4 text mismatch');
    return (first - start) * 1000;
  },
};
