// The provider test cases as one list, run against every target (a provider behind an
// adapter, with its recorded streams and its wire format). `ai-sdk-provider-suite.spec.ts`
// runs it for @ai-sdk/google and @ai-sdk/mistral through the bridge; a native adapter joins
// by describing itself as a `ProviderTarget` (see docs/providers.md, "One case list").
import { firstValueFrom, lastValueFrom, toArray, type Observable } from 'rxjs';
import type { ChatChunk } from '../../../../lib/core/chat-chunk.js';
import type { ChatModel } from '../../../../lib/core/chat-model.js';
import { ChatRequest } from '../../../../lib/core/chat-request.js';
import type { Usage } from '../../../../lib/core/usage.js';
import { ProviderError } from '../../../../lib/errors/provider-error.js';
import { ProviderIdleTimeoutError } from '../../../../lib/errors/provider-idle-timeout-error.js';
import { UnsupportedMediaError } from '../../../../lib/errors/unsupported-media-error.js';
import { tool } from '../../../../lib/tools/tool-fn.js';
import type {
  RecordedRequest,
  ReplayServer,
  Reply,
  WireJson,
} from '../../support/replay-server.js';

/** A provider behind an adapter, as the shared cases see it. */
export interface ProviderTarget {
  readonly name: string;
  /** The adapter over the provider's real SDK, pointed at the loopback server. */
  model(server: ReplayServer, options?: { idleTimeout?: number }): ChatModel;
  /** The key the SDK sends; it must never appear in an error message. */
  readonly key: string;
  /** A recorded text answer and what it must give. */
  readonly text: {
    reply: () => Reply;
    text: string;
    id: string;
    model: string;
    usage: Usage;
  };
  /** A recorded answer with one tool call. */
  readonly toolCall: { reply: () => Reply; name: string; arguments: unknown };
  /** A recorded answer with reasoning, when the provider streams it. */
  readonly reasoning?: { reply: () => Reply; text: string };
  /** The provider's JSON error body with this message. */
  errorBody(status: number, message: string): unknown;
  /** The key as the SDK sent it (to echo it back in an error). */
  sentKey(request: RecordedRequest): string | undefined;
  /** The JSON schema the wire body asks the answer to follow (native structured output). */
  wireResponseSchema(body: WireJson): WireJson;
  /** The tool names the wire body offers. */
  wireToolNames(body: WireJson): string[];
  /** The inline image of the last user message as the wire body carries it (base64 or a data URL). */
  wireInlineImage(body: WireJson): string;
}

/** One case: it runs against a target whose server starts empty for it. */
export interface ProviderCase {
  readonly name: string;
  /** Whether the case applies (a provider without reasoning skips the reasoning case). */
  readonly appliesTo?: (target: ProviderTarget) => boolean;
  run(target: ProviderTarget, server: ReplayServer): Promise<void>;
}

const hello = (): ChatRequest =>
  ChatRequest.create({ messages: [{ role: 'user', content: 'Hello' }] });

const collect = (chunks$: Observable<ChatChunk>): Promise<ChatChunk[]> =>
  lastValueFrom(chunks$.pipe(toArray()));

async function failure(chunks$: Observable<ChatChunk>): Promise<unknown> {
  try {
    await lastValueFrom(chunks$);
  } catch (error) {
    return error;
  }
  throw new Error('expected the stream to fail, but it completed');
}

const textOf = (chunks: ChatChunk[]): string =>
  chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');

/** The cases every adapter passes. */
export const PROVIDER_CASES: readonly ProviderCase[] = [
  {
    name: 'streams text, with metadata first and one usage then one finish last',
    async run(target, server) {
      server.enqueue(target.text.reply());
      const chunks = await collect(target.model(server).stream(hello()));
      expect(textOf(chunks)).toBe(target.text.text);
      expect(chunks[0]).toEqual({ type: 'metadata', id: target.text.id, model: target.text.model });
      expect(chunks.slice(-2)).toEqual([
        { type: 'usage', usage: target.text.usage },
        { type: 'finish', reason: 'stop' },
      ]);
      expect(chunks.filter((chunk) => chunk.type === 'usage')).toHaveLength(1);
    },
  },
  {
    name: 'streams a tool call as deltas (id and name first) and one complete call',
    async run(target, server) {
      server.enqueue(target.toolCall.reply());
      const chunks = await collect(target.model(server).stream(hello()));
      const deltas = chunks.filter((chunk) => chunk.type === 'tool-call-delta');
      expect(deltas[0]).toMatchObject({ index: 0, name: target.toolCall.name });
      expect(typeof (deltas[0] as { id?: unknown }).id).toBe('string');
      const streamed = deltas.map((delta) => delta.argumentsDelta).join('');
      expect(JSON.parse(streamed)).toEqual(target.toolCall.arguments);
      const calls = chunks.filter((chunk) => chunk.type === 'tool-call');
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ name: target.toolCall.name, id: deltas[0]?.id });
      expect(JSON.parse(calls[0]?.type === 'tool-call' ? calls[0].arguments : '')).toEqual(
        target.toolCall.arguments,
      );
      expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
    },
  },
  {
    name: 'streams reasoning apart from the text',
    appliesTo: (target) => target.reasoning !== undefined,
    async run(target, server) {
      const reasoning = target.reasoning!;
      server.enqueue(reasoning.reply());
      const chunks = await collect(target.model(server).stream(hello()));
      const thought = chunks
        .map((chunk) => (chunk.type === 'reasoning-delta' ? chunk.text : ''))
        .join('');
      expect(thought).toBe(reasoning.text);
      expect(textOf(chunks)).not.toContain(reasoning.text);
    },
  },
  {
    name: 'reports HTTP 429 as a retryable ProviderError with status and Retry-After',
    async run(target, server) {
      server.enqueue({
        kind: 'json',
        status: 429,
        json: target.errorBody(429, 'Resource has been exhausted'),
        headers: { 'retry-after': '7' },
      });
      const error = await failure(target.model(server).stream(hello()));
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ status: 429, retryable: true, retryAfter: 7000 });
      expect((error as Error).message).toContain('Resource has been exhausted');
    },
  },
  {
    name: 'reports HTTP 400 as a ProviderError that is not retryable',
    async run(target, server) {
      server.enqueue({ kind: 'json', status: 400, json: target.errorBody(400, 'Bad schema') });
      const error = await failure(target.model(server).stream(hello()));
      expect(error).toMatchObject({ status: 400, retryable: false, retryAfter: undefined });
      expect((error as Error).message).toContain('Bad schema');
    },
  },
  {
    name: 'never shows the key in an error message, even when the server echoes it',
    async run(target, server) {
      server.enqueue({
        kind: 'echo',
        status: 401,
        json: (request) => target.errorBody(401, `invalid key ${target.sentKey(request)}`),
      });
      const error = await failure(target.model(server).stream(hello()));
      expect(target.sentKey(server.requests[0])).toBe(target.key);
      expect((error as Error).message).toContain('invalid key');
      expect((error as Error).message).not.toContain(target.key);
    },
  },
  {
    name: 'aborts the HTTP request when the subscriber unsubscribes',
    async run(target, server) {
      // The first two frames (an Azure stream opens with a frame that carries no chunk).
      const body = (target.text.reply() as { body: string }).body;
      const end = body.indexOf('\n\n', body.indexOf('\n\n') + 2) + 2;
      server.enqueue({ kind: 'sse', body: body.slice(0, end), hold: true });
      const closed = server.nextClientClose();
      const first = await firstValueFrom(target.model(server).stream(hello()));
      expect(first.type).toBe('metadata');
      await closed; // firstValueFrom unsubscribed: the connection closes
    },
  },
  {
    name: 'sends nothing before subscription and one request per subscription',
    async run(target, server) {
      const chunks$ = target.model(server).stream(hello());
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(server.requests).toHaveLength(0);
      server.enqueue(target.text.reply(), target.text.reply());
      await collect(chunks$);
      await collect(chunks$);
      expect(server.requests).toHaveLength(2);
    },
  },
  {
    name: 'fails a stalled call with a retryable ProviderIdleTimeoutError and closes it',
    async run(target, server) {
      server.enqueue({ kind: 'stall' });
      const closed = server.nextClientClose();
      const error = await failure(target.model(server, { idleTimeout: 100 }).stream(hello()));
      expect(ProviderIdleTimeoutError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ retryable: true });
      await closed;
    },
  },
  {
    name: 'fails a dropped connection with a retryable ProviderError',
    async run(target, server) {
      const body = (target.text.reply() as { body: string }).body;
      server.enqueue({ kind: 'sse', body, dropAfterBytes: body.indexOf('\n\n') + 2 });
      const error = await failure(target.model(server).stream(hello()));
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ retryable: true });
    },
  },
  {
    name: 'asks for native structured output with the JSON schema of responseFormat',
    async run(target, server) {
      server.enqueue(target.text.reply());
      const schema = {
        type: 'object',
        properties: { city: { type: 'string' }, temperature: { type: 'number' } },
        required: ['city', 'temperature'],
        additionalProperties: false,
      };
      const request = hello().withOptions({
        responseFormat: { type: 'json-schema', schema, name: 'weather' },
      });
      await collect(target.model(server).stream(request));
      const wire = target.wireResponseSchema(server.requests[0].body);
      expect(wire).toMatchObject({ properties: { city: { type: 'string' } } });
      expect(wire.required).toEqual(['city', 'temperature']);
    },
  },
  {
    name: 'offers the request tools by name',
    async run(target, server) {
      server.enqueue(target.text.reply());
      const request = hello().withTools([
        tool({
          name: 'weather',
          description: 'The weather in a city',
          parameters: { type: 'object', properties: { location: { type: 'string' } } },
          execute: () => 'sunny',
        }),
      ]);
      await collect(target.model(server).stream(request));
      expect(target.wireToolNames(server.requests[0].body)).toEqual(['weather']);
    },
  },
  {
    name: 'sends an inline image of a user message',
    async run(target, server) {
      server.enqueue(target.text.reply());
      const png = 'iVBORw0KGgo=';
      const request = ChatRequest.create({
        messages: [
          {
            role: 'user',
            content: 'What is this?',
            media: [
              {
                mediaType: 'image/png',
                data: { bytes: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]) },
              },
            ],
          },
        ],
      });
      await collect(target.model(server).stream(request));
      const wire = target.wireInlineImage(server.requests[0].body);
      expect([png, `data:image/png;base64,${png}`]).toContain(wire);
      expect(JSON.stringify(server.requests[0].body)).toContain('What is this?');
    },
  },
  {
    name: 'refuses a malformed media part with an UnsupportedMediaError, sending nothing',
    async run(target, server) {
      const request = ChatRequest.create({
        messages: [
          { role: 'user', content: 'Hi', media: [{ mediaType: 'png', data: { base64: 'AAAA' } }] },
        ],
      });
      const error = await failure(target.model(server).stream(request));
      expect(UnsupportedMediaError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ mediaType: 'png', role: 'user' });
      expect(server.requests).toHaveLength(0);
    },
  },
];
