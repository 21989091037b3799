// Issue 20, point 6, end to end: a tool loop with emitToolEvents served as the 'ai-sdk-ui'
// protocol over real HTTP and read by the `ai` package's own reader (readUIMessageStream, what
// useChat runs): the tool input shows while the model types it, an Observable tool's values
// show as preliminary output, then the final output; the model sees only the final value.
import { createServer, type Server } from 'node:http';
import {
  parseJsonEventStream,
  readUIMessageStream,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { concat, finalize, interval, map, of, timer, type Observable } from 'rxjs';
import { z } from 'zod';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ToolMessage } from '../../lib/core/message';
import { pipeToNodeResponse } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';
import { close, listen } from '../sse/support/sse-test-kit';

function uiServer(next: () => Observable<ChatChunk>): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      pipeToNodeResponse(next(), res, { protocol: 'ai-sdk-ui', heartbeat: false }),
    );
  });
}

/** The UI message chunks of one POST, parsed by the `ai` package's own SSE parsing. */
async function post(url: string, signal?: AbortSignal): Promise<ReadableStream<UIMessageChunk>> {
  const response = await fetch(url, { method: 'POST', body: '{}', signal: signal ?? null });
  return parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(part, controller) {
        if (!part.success) throw part.error;
        controller.enqueue(part.value);
      },
    }),
  );
}

type ToolPartSnapshot = { state: string; input?: unknown; output?: unknown; preliminary?: boolean };

/** Every state the message's `tool-search` part went through, as readUIMessageStream built it. */
async function toolPartStates(
  stream: ReadableStream<UIMessageChunk>,
): Promise<{ states: ToolPartSnapshot[]; message: UIMessage; chunks: UIMessageChunk[] }> {
  const chunks: UIMessageChunk[] = [];
  const tapped = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  const states: ToolPartSnapshot[] = [];
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream: tapped })) {
    message = snapshot;
    const part = snapshot.parts.find((p) => p.type === 'tool-search') as
      (ToolPartSnapshot & { type: string }) | undefined;
    if (part === undefined) continue;
    const copy: ToolPartSnapshot = { state: part.state };
    if (part.input !== undefined) copy.input = structuredClone(part.input);
    if (part.output !== undefined) copy.output = part.output;
    if (part.preliminary !== undefined) copy.preliminary = part.preliminary;
    const last = states.at(-1);
    if (JSON.stringify(last) !== JSON.stringify(copy)) states.push(copy);
  }
  return { states, message: message!, chunks };
}

describe('ai-sdk-ui: tool progress and streamed tool input, read by the ai package', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server !== undefined) await close(server);
    server = undefined;
  });

  it('shows the input as typed, each value of an Observable tool as preliminary output, then the output', async () => {
    const search = tool({
      name: 'search',
      description: 'Searches the docs',
      parameters: z.object({ query: z.string() }),
      // Asynchronous on purpose: the values go out while the tool still runs.
      execute: ({ query }) =>
        concat(
          of(`searching "${query}"`),
          timer(5).pipe(map(() => '2 hits so far')),
          timer(5).pipe(map(() => '3 hits')),
        ),
    });
    const model = MockChatModel.script(
      [
        { toolCalls: [{ id: 'c1', name: 'search', arguments: { query: 'refunds' } }] },
        { text: 'There are 3 pages about refunds.' },
      ],
      { onExhausted: 'repeat-last' },
    );
    const client = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
      .defaultTools(search)
      .build();
    server = uiServer(() => client.prompt('Refunds?').stream().chunks());
    const url = await listen(server);

    const { states, message, chunks } = await toolPartStates(await post(url));

    // The input while the model types it, then whole; the progress, then the output.
    expect(states[0].state).toBe('input-streaming');
    expect(states.filter((s) => s.state === 'input-streaming').at(-1)).toEqual({
      state: 'input-streaming',
      input: { query: 'refunds' },
    });
    expect(states.filter((s) => s.state !== 'input-streaming')).toEqual([
      { state: 'input-available', input: { query: 'refunds' } },
      {
        state: 'output-available',
        input: { query: 'refunds' },
        output: 'searching "refunds"',
        preliminary: true,
      },
      {
        state: 'output-available',
        input: { query: 'refunds' },
        output: '2 hits so far',
        preliminary: true,
      },
      {
        state: 'output-available',
        input: { query: 'refunds' },
        output: '3 hits',
        preliminary: true,
      },
      { state: 'output-available', input: { query: 'refunds' }, output: '3 hits' },
    ]);
    const deltas = chunks.filter((c) => c.type === 'tool-input-delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(
      deltas.map((c) => (c.type === 'tool-input-delta' ? c.inputTextDelta : '')).join(''),
    ).toBe('{"query":"refunds"}');
    // Every tool chunk comes before the next step starts.
    const types = chunks.map((c) => c.type);
    expect(types.lastIndexOf('tool-output-available')).toBeLessThan(
      types.lastIndexOf('start-step'),
    );
    expect(message.parts.at(-1)).toMatchObject({
      type: 'text',
      text: 'There are 3 pages about refunds.',
    });
    // The model never saw the progress.
    const sent = model.requests[1].messages.filter((m): m is ToolMessage => m.role === 'tool');
    expect(sent.map((m) => m.content)).toEqual(['3 hits']);
  });

  it('a client that goes away while an Observable tool reports progress stops the tool', async () => {
    let stopped!: () => void;
    const toolStopped = new Promise<void>((resolve) => (stopped = resolve));
    const signals: AbortSignal[] = [];
    const watch = tool({
      name: 'search',
      description: 'Reports forever',
      parameters: z.object({}),
      execute: (_args, { signal }) => {
        signals.push(signal);
        return interval(5).pipe(
          map((n) => `tick ${n}`),
          finalize(() => stopped()),
        );
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ id: 'c1', name: 'search', arguments: {} }] },
    ]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
      .defaultTools(watch)
      .build();
    server = uiServer(() => client.prompt('Go').stream().chunks());
    const url = await listen(server);

    const controller = new AbortController();
    const reader = (await post(url, controller.signal)).getReader();
    const seen: UIMessageChunk[] = [];
    while (!seen.some((c) => c.type === 'tool-output-available')) {
      const { value } = await reader.read();
      if (value !== undefined) seen.push(value);
    }
    expect(seen.find((c) => c.type === 'tool-output-available')).toMatchObject({
      output: 'tick 0',
      preliminary: true,
    });
    controller.abort();
    await reader.cancel().catch(() => undefined);

    await toolStopped;
    expect(signals.map((s) => s.aborted)).toEqual([true]);
    // Only the first model call ran: nothing went on after the client left.
    expect(model.requests).toHaveLength(1);
  });
});
