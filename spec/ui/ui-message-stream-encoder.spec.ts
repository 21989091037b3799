// The 'ai-sdk-ui' protocol, read by the `ai` package's own client (DefaultChatTransport, which
// validates every chunk against the AI SDK's UI message chunk schema, and readUIMessageStream,
// which builds the message useChat would show) over a real HTTP server.
import { createServer, type Server } from 'node:http';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { concat, from, type Observable, of, throwError } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatClient } from '../../lib/client/chat-client';
import { pipeToNodeResponse, toServerSentEvents, type SseErrorMessage } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { tool } from '../../lib/tools/tool-fn';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { close, framesText, listen, parseSse } from '../sse/support/sse-test-kit';

/** Serves `next()`'s chunks as an ai-sdk-ui stream on every POST. */
function uiServer(
  next: () => Observable<ChatChunk>,
  errorMessage: SseErrorMessage = 'safe',
): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      pipeToNodeResponse(next(), res, { protocol: 'ai-sdk-ui', heartbeat: false, errorMessage }),
    );
  });
}

/** Sends a message with the AI SDK's transport; returns the chunks and the final message. */
async function chat(
  url: string,
): Promise<{ chunks: UIMessageChunk[]; message: UIMessage; errors: unknown[] }> {
  const transport = new DefaultChatTransport({ api: `${url}/api/chat` });
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'chat-1',
    messageId: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
    abortSignal: undefined,
  });
  const [forChunks, forMessage] = stream.tee();
  const chunks: UIMessageChunk[] = [];
  const errors: unknown[] = [];
  const reading = (async () => {
    const reader = forChunks.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      chunks.push(value);
    }
  })();
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({
    stream: forMessage,
    onError: (error) => errors.push(error),
  })) {
    message = snapshot;
  }
  await reading;
  return { chunks, message: message!, errors };
}

describe("the 'ai-sdk-ui' protocol", () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server !== undefined) await close(server);
    server = undefined;
  });

  it('a text answer: start, one step with a text part, finish with usage, [DONE]', async () => {
    const client = ChatClient.create(
      MockChatModel.script(
        [{ text: 'Hello there', reasoning: 'Think', usage: { inputTokens: 4, outputTokens: 2 } }],
        { onExhausted: 'repeat-last' },
      ),
    );
    server = uiServer(() => client.prompt('Hi').stream().chunks());
    const url = await listen(server);

    const response = await fetch(`${url}/raw`, { method: 'POST' });
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const raw = parseSse(await response.text()).events;
    expect(
      raw.map((event) =>
        event.data.startsWith('{') ? (JSON.parse(event.data) as { type: string }).type : event.data,
      ),
    ).toEqual([
      'start',
      'start-step',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
      '[DONE]',
    ]);
    expect(raw.map((event) => Number(event.id))).toEqual(raw.map((_event, index) => index + 1));

    const { chunks, message, errors } = await chat(url);
    expect(errors).toEqual([]);
    expect(chunks.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: {
        usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 },
        model: 'mock-model',
      },
    });
    expect(message.role).toBe('assistant');
    expect(message.metadata).toEqual({
      usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 },
      model: 'mock-model',
    });
    expect(message.parts).toEqual([
      { type: 'step-start' },
      {
        type: 'reasoning',
        id: 'reasoning-1',
        text: 'Think',
        state: 'done',
        providerMetadata: undefined,
      },
      { type: 'text', text: 'Hello there', state: 'done', providerMetadata: undefined },
    ]);
  });

  it('streamed tool-call deltas become tool-input-start/-delta/-available (hand-built chunks)', async () => {
    // Hand-built: a raw model round, as an advisor inside the tool loop would see it.
    const chunks: ChatChunk[] = [
      { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'getTime', argumentsDelta: '{"ci' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'ty":"Paris"}' },
      { type: 'tool-call-delta', index: 1, id: 'call_2', name: 'broken', argumentsDelta: '{oops' },
      { type: 'tool-call', id: 'call_1', name: 'getTime', arguments: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'call_2', name: 'broken', arguments: '{oops' },
      { type: 'finish', reason: 'tool-calls' },
    ];
    server = uiServer(() => from(chunks), 'raw');
    const { chunks: ui, message, errors } = await chat(await listen(server));
    expect(errors).toEqual([]);
    expect(ui).toEqual([
      { type: 'start' },
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'getTime' },
      { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '{"ci' },
      { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: 'ty":"Paris"}' },
      { type: 'tool-input-start', toolCallId: 'call_2', toolName: 'broken' },
      { type: 'tool-input-delta', toolCallId: 'call_2', inputTextDelta: '{oops' },
      {
        type: 'tool-input-available',
        toolCallId: 'call_1',
        toolName: 'getTime',
        input: { city: 'Paris' },
      },
      {
        type: 'tool-input-error',
        toolCallId: 'call_2',
        toolName: 'broken',
        input: '{oops',
        errorText: 'The tool arguments are not valid JSON.',
      },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'tool-calls' },
    ]);
    expect(message.parts[1]).toMatchObject({
      type: 'tool-getTime',
      state: 'input-available',
      input: { city: 'Paris' },
    });
    expect(message.parts[2]).toMatchObject({ type: 'tool-broken', state: 'output-error' });
  });

  it('the ai reader accepts a two-round tool conversation from ChatClient + ToolCallingAdvisor', async () => {
    const getTime = tool({
      name: 'getTime',
      description: 'The current time in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => `12:00 in ${city}`,
    });
    const failing = tool({
      name: 'usersOn',
      description: 'Users registered on a date',
      parameters: { type: 'object', properties: { date: { type: 'string' } }, required: ['date'] },
      execute: (): string => {
        throw new Error('database down');
      },
    });
    const model = MockChatModel.script([
      {
        text: 'Let me check.',
        toolCalls: [
          { id: 'c1', name: 'getTime', arguments: { city: 'Paris' } },
          { id: 'c2', name: 'usersOn', arguments: { date: '2026-01-01' } },
        ],
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      { text: 'It is noon in Paris.', usage: { inputTokens: 20, outputTokens: 7 } },
    ]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
      .defaultTools(getTime, failing)
      .build();
    server = uiServer(() => client.prompt('What time is it in Paris?').stream().chunks());

    const { chunks, message, errors } = await chat(await listen(server));

    expect(errors).toEqual([]);
    const types = chunks.map((chunk) => chunk.type);
    expect(types).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
      'text-delta',
      'text-delta',
      // With emitToolEvents the loop forwards the input as the model types it.
      'tool-input-start',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-available',
      'tool-input-available',
      'text-end',
      'tool-output-available',
      'tool-output-error',
      'finish-step',
      'start-step',
      'text-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(chunks.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 }, rounds: 2 },
    });
    expect(message.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 'Let me check.', state: 'done' },
      expect.objectContaining({
        type: 'tool-getTime',
        toolCallId: 'c1',
        state: 'output-available',
        input: { city: 'Paris' },
        output: '12:00 in Paris',
      }),
      expect.objectContaining({
        type: 'tool-usersOn',
        toolCallId: 'c2',
        state: 'output-error',
        input: { date: '2026-01-01' },
        // errorMessage 'safe' (the default): the tool's error text stays on the server.
        errorText: 'The tool failed.',
      }),
      { type: 'step-start' },
      { type: 'text', text: 'It is noon in Paris.', state: 'done' },
    ]);
    expect(JSON.stringify(chunks)).not.toContain('database down');
    expect(model.calls).toBe(2);
  });

  it('a tool result whose call was never sent still reaches the reader as a tool part', async () => {
    // (Results before the stream's first step are a resumed round's: see ui-approval.spec.ts.)
    const chunks: ChatChunk[] = [
      { type: 'round-start', round: 1 },
      { type: 'tool-result', id: 'c9', name: 'getTime', content: 'noon' },
      { type: 'tool-result', id: 'c8', name: 'getTime', content: 'no such city', isError: true },
      { type: 'finish', reason: 'return-direct' },
    ];
    server = uiServer(() => from(chunks), 'raw');
    const { chunks: ui, message, errors } = await chat(await listen(server));
    expect(errors).toEqual([]);
    expect(ui.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(message.parts).toEqual([
      { type: 'step-start' },
      expect.objectContaining({
        type: 'tool-getTime',
        toolCallId: 'c9',
        state: 'output-available',
        output: 'noon',
      }),
      expect.objectContaining({
        type: 'tool-getTime',
        toolCallId: 'c8',
        state: 'output-error',
        errorText: 'no such city',
      }),
    ]);
  });

  it('a tool input never carries a __proto__ key to the browser, however the model escaped it', async () => {
    const text = await framesText(
      from<ChatChunk[]>([
        {
          type: 'tool-call',
          id: 'call_1',
          name: 'merge',
          arguments: '{"\\u005f_proto__":{"polluted":true},"a":1}',
        },
        { type: 'finish', reason: 'tool-calls' },
      ]).pipe(toServerSentEvents({ protocol: 'ai-sdk-ui', heartbeat: false })),
    );
    const available = parseSse(text)
      .events.map((event) => event.data)
      .find((data) => data.includes('tool-input-available'));
    expect(available).toBeDefined();
    expect(available).not.toContain('__proto__');
    expect(JSON.parse(available!)).toMatchObject({ input: { a: 1 } });
  });

  it('an error becomes an error part with a safe message, then [DONE]', async () => {
    const source$ = concat(
      of<ChatChunk[]>({ type: 'text-delta', text: 'Hal' }),
      throwError(() => new Error('upstream said sk-secret')),
    );
    const text = await framesText(
      source$.pipe(toServerSentEvents({ protocol: 'ai-sdk-ui', heartbeat: false })),
    );
    expect(text).not.toContain('sk-secret');
    server = uiServer(() => source$);
    const { chunks, errors } = await chat(await listen(server));
    expect(chunks.slice(-1)).toEqual([
      { type: 'error', errorText: 'The stream failed on the server.' },
    ]);
    expect(errors).toEqual([new Error('The stream failed on the server.')]);
    expect(parseSse(text).events.at(-1)!.data).toBe('[DONE]');
  });

  it('a retry closes the attempt and marks it with a data-retry part', async () => {
    const chunks: ChatChunk[] = [
      { type: 'text-delta', text: 'not json' },
      { type: 'retry', attempt: 2, reason: 'invalid JSON', advisor: 'structured-output' },
      { type: 'text-delta', text: '{"ok":' },
      { type: 'retry', attempt: 3, reason: 'rate limited', advisor: 'retry', delay: 250 },
      { type: 'text-delta', text: '{"ok":true}' },
      { type: 'finish', reason: 'stop' },
    ];
    server = uiServer(() => from(chunks), 'raw');
    const { message, errors } = await chat(await listen(server));
    expect(errors).toEqual([]);
    expect(message.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: 'not json', state: 'done' },
      {
        type: 'data-retry',
        data: { attempt: 2, reason: 'invalid JSON', advisor: 'structured-output' },
      },
      { type: 'step-start' },
      { type: 'text', text: '{"ok":', state: 'done' },
      {
        type: 'data-retry',
        data: { attempt: 3, reason: 'rate limited', advisor: 'retry', delay: 250 },
      },
      { type: 'step-start' },
      { type: 'text', text: '{"ok":true}', state: 'done' },
    ]);
  });

  it('an empty source is still one complete message: start, one step, finish, [DONE]', async () => {
    const { events } = parseSse(
      await framesText(
        from<ChatChunk[]>([]).pipe(toServerSentEvents({ protocol: 'ai-sdk-ui', heartbeat: false })),
      ),
    );
    expect(events.map((event) => event.data)).toEqual([
      '{"type":"start"}',
      '{"type":"start-step"}',
      '{"type":"finish-step"}',
      '{"type":"finish"}',
      '[DONE]',
    ]);
  });

  it('a forged frame in the model text stays text', async () => {
    const attack = '\n\ndata: {"type":"finish"}\n\ndata: [DONE]\r\n\r\n';
    server = uiServer(() =>
      from<ChatChunk[]>([
        { type: 'text-delta', text: attack },
        { type: 'finish', reason: 'stop' },
      ]),
    );
    const { message, errors } = await chat(await listen(server));
    expect(errors).toEqual([]);
    expect(message.parts).toEqual([
      { type: 'step-start' },
      { type: 'text', text: attack, state: 'done' },
    ]);
  });
});
