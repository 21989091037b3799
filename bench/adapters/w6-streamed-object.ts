import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { jsonSchema, Output, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { ChatClient } from 'rx-advisors';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { textChunks } from '../harness/chunks.js';
import type { Framework } from '../harness/types.js';
import { W6_SCHEMA, type ObjectFixture, type W6Answer } from '../workloads/w6-object-fixture.js';

/** What one W6 run saw: the last value (the complete answer) and how many values came. */
export interface W6Result {
  final: unknown;
  partials: number;
}

/** W6: one call streaming `fixture` (a JSON answer), read as partial objects. */
export interface W6Adapter {
  readonly framework: Framework;
  readonly label: string;
  stream(fixture: ObjectFixture): Promise<W6Result>;
}

const clients = new WeakMap<ObjectFixture, ChatClient>();

/**
 * One rx-advisors W6 run: `stream().entity(schema)` on the fixture's client (made once per
 * fixture), counting the partials. Both rx-advisors rows run it (one schema object, a new
 * one per call).
 */
export function rxAdvisorsEntity(
  fixture: ObjectFixture,
  schema: typeof W6_SCHEMA,
): Promise<W6Result> {
  let client = clients.get(fixture);
  if (client === undefined) {
    const chunks = textChunks(fixture);
    client = ChatClient.builder(new BenchChatModel({ script: () => chunks })).build();
    clients.set(fixture, client);
  }
  const chat = client;
  return new Promise((resolve, reject) => {
    let final: unknown;
    let partials = 0;
    chat
      .prompt('Hi')
      .stream()
      .entity(schema)
      .subscribe({
        next: (value) => {
          final = value;
          partials++;
        },
        error: reject,
        complete: () => resolve({ final, partials }),
      });
  });
}

/** rx-advisors: `stream().entity(schema)`, the last value validated by ajv. */
export const w6RxAdvisorsAdapter: W6Adapter = {
  framework: 'rx-advisors',
  label: 'client.prompt().stream().entity(jsonSchema): partials, then the validated entity',
  stream: (fixture) => rxAdvisorsEntity(fixture, W6_SCHEMA),
};

const USAGE = {
  inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 34, text: 34, reasoning: undefined },
};
const aiParts = new WeakMap<ObjectFixture, LanguageModelV3StreamPart[]>();

function aiSdkParts(fixture: ObjectFixture): LanguageModelV3StreamPart[] {
  let parts = aiParts.get(fixture);
  if (parts === undefined) {
    parts = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'bench-1', modelId: 'bench-model' },
      { type: 'text-start', id: 't' },
      ...fixture.deltas.map((delta): LanguageModelV3StreamPart => ({
        type: 'text-delta',
        id: 't',
        delta,
      })),
      { type: 'text-end', id: 't' },
      { type: 'finish', usage: USAGE, finishReason: { unified: 'stop', raw: 'stop' } },
    ];
    aiParts.set(fixture, parts);
  }
  return parts;
}

// The same schema object; the AI SDK's JSONSchema7 type wants mutable arrays.
const aiOutput = Output.object({
  schema: jsonSchema<W6Answer>(W6_SCHEMA as unknown as Parameters<typeof jsonSchema>[0]),
});

/** The AI SDK: `streamText` with `output: Output.object`, `partialOutputStream`, then `output`. */
export const w6AiSdkAdapter: W6Adapter = {
  framework: 'ai-sdk',
  label:
    'streamText({ output: Output.object({ schema: jsonSchema(…) }) }): partialOutputStream, then await output (validated)',
  async stream(fixture) {
    const parts = aiSdkParts(fixture);
    const model = new MockLanguageModelV3({
      doStream: async () => Promise.resolve({ stream: convertArrayToReadableStream(parts) }),
    });
    const result = streamText({ model, prompt: 'Hi', output: aiOutput });
    let partials = 0;
    for await (const partial of result.partialOutputStream) {
      if (partial !== undefined) partials++;
    }
    const final: unknown = await result.output;
    return { final, partials: partials + 1 };
  },
};
