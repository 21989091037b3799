// Data chunks from advisors: `data-<name>` parts in the UI stream (read by the `ai` package's
// own transport, which validates every chunk, and readUIMessageStream), a `data` event in our
// protocol, forwarded by the tool loop and invisible to the model.
import { createServer, type Server } from 'node:http';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { concat, from, lastValueFrom, of, toArray, type Observable } from 'rxjs';
import { advisor } from '../../lib/advisor-api/advisor';
import { ChatClient } from '../../lib/client/chat-client';
import { aggregate } from '../../lib/core/aggregate';
import type { ChatChunk, DataChunk } from '../../lib/core/chat-chunk';
import { pipeToNodeResponse, toServerSentEvents } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { tool } from '../../lib/tools/tool-fn';
import { close, framesText, listen, parseSse } from './support/sse-test-kit';

const sources: DataChunk = {
  type: 'data',
  name: 'sources',
  id: 's1',
  data: [{ url: 'https://a.example' }],
};
const status: DataChunk = { type: 'data', name: 'status', data: 'Searching…', transient: true };

/** An advisor that announces a status before every round and sources after the answer. */
const dataAdvisor = advisor({
  name: 'data',
  after: (chunks$) => concat(of<ChatChunk>(status), chunks$, of<ChatChunk>(sources)),
});

function uiServer(next: () => Observable<ChatChunk>): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      pipeToNodeResponse(next(), res, { protocol: 'ai-sdk-ui', heartbeat: false }),
    );
  });
}

async function chat(url: string): Promise<{ chunks: UIMessageChunk[]; message: UIMessage }> {
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
  const reading = (async () => {
    const reader = forChunks.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      chunks.push(value);
    }
  })();
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream: forMessage })) message = snapshot;
  await reading;
  return { chunks, message: message! };
}

describe('data chunks', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server !== undefined) await close(server);
    server = undefined;
  });

  it('reach useChat as data-<name> parts: persistent ones in the message, transient ones only as chunks', async () => {
    const client = ChatClient.builder(
      MockChatModel.script([{ text: 'Found it.' }], { onExhausted: 'repeat-last' }),
    )
      .defaultAdvisors(dataAdvisor)
      .build();
    server = uiServer(() => client.prompt('Hi').stream().chunks());
    const url = await listen(server);

    const { chunks, message } = await chat(url);
    expect(chunks.filter((chunk) => chunk.type.startsWith('data-'))).toEqual([
      { type: 'data-status', data: 'Searching…', transient: true },
      { type: 'data-sources', id: 's1', data: [{ url: 'https://a.example' }] },
    ]);
    expect(message.parts).toContainEqual({
      type: 'data-sources',
      id: 's1',
      data: [{ url: 'https://a.example' }],
    });
    expect(message.parts.some((part) => part.type === 'data-status')).toBe(false);
  });

  it("are one 'data' event each in the rx-advisors protocol", async () => {
    const text = await framesText(
      from<ChatChunk[]>([
        status,
        { type: 'text-delta', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ]).pipe(toServerSentEvents({ protocol: 'rx-advisors', heartbeat: false })),
    );
    const events = parseSse(text).events;
    expect(events.map((event) => event.event)).toEqual(['data', 'text-delta', 'finish', 'done']);
    expect(JSON.parse(events[0].data)).toEqual(status);
  });

  it('pass through the tool loop from an advisor inside it, and never reach the model or the answer', async () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'lookup', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up.',
      parameters: { type: 'object', properties: {} },
      execute: () => 'found',
    });
    const client = ChatClient.builder(model).defaultAdvisors(dataAdvisor).build();

    const chunks = await lastValueFrom(
      client.prompt('Hi').tools(lookup).stream().chunks().pipe(toArray()),
    );
    // The advisor (order 0) runs inside the loop: once per round.
    expect(chunks.filter((chunk) => chunk.type === 'data')).toEqual([
      status,
      sources,
      status,
      sources,
    ]);
    const round2 = model.requests[1];
    expect(JSON.stringify(round2.messages)).not.toContain('Searching');
    expect(JSON.stringify(round2.messages)).not.toContain('a.example');
    const response = await lastValueFrom(from(chunks).pipe(aggregate()));
    expect(response.text).toBe('Done.');
    expect(JSON.stringify(response)).not.toContain('a.example');
  });
});
