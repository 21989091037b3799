// Retrieved documents on the wire: QuestionAnswerAdvisor with `emitSources` sends them as
// `source` chunks before the answer; a real HTTP server streams them as the AI SDK UI
// message stream's `source-url` / `source-document` parts, read by the `ai` package's own
// transport (which validates every chunk) and readUIMessageStream; our protocol sends one
// `source` event each.
import { createServer, type Server } from 'node:http';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { from, lastValueFrom, toArray, type Observable } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import {
  InMemoryVectorStore,
  QuestionAnswerAdvisor,
  ToolCallingAdvisor,
  type QuestionAnswerAdvisorOptions,
} from '../../lib/index';
import { pipeToNodeResponse, toServerSentEvents, uiMessagesToMessages } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { tool } from '../../lib/tools/tool-fn';
import { VocabularyEmbeddingModel } from '../vector/support/vocabulary-embedding-model';
import { close, framesText, listen, parseSse } from './support/sse-test-kit';

async function qaClient(
  model: MockChatModel,
  options: Partial<QuestionAnswerAdvisorOptions> = { emitSources: true },
): Promise<ChatClient> {
  const store = new InMemoryVectorStore({ embeddingModel: new VocabularyEmbeddingModel() });
  await lastValueFrom(
    store.add([
      {
        id: 'refund-policy',
        text: 'A refund takes 5 days.',
        metadata: { url: 'https://shop.example/refunds', title: 'Refund policy' },
      },
      {
        id: 'refund-faq',
        text: 'Refund questions about shipping: write to billing.',
        metadata: { title: 'Refund FAQ', filename: 'refund-faq.md', mediaType: 'text/markdown' },
      },
      { id: 'tea', text: 'Green tea at 80 degrees.', metadata: {} },
    ]),
  );
  const qa = new QuestionAnswerAdvisor({
    vectorStore: store,
    searchRequest: { topK: 2, similarityThreshold: 0.5 },
    ...options,
  });
  return ChatClient.builder(model).defaultAdvisors(qa).build();
}

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
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'refund?' }] }],
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

const URL_PART = {
  type: 'source-url',
  sourceId: 'refund-policy',
  url: 'https://shop.example/refunds',
  title: 'Refund policy',
};
const DOCUMENT_PART = {
  type: 'source-document',
  sourceId: 'refund-faq',
  mediaType: 'text/markdown',
  title: 'Refund FAQ',
  filename: 'refund-faq.md',
};

describe('sources on the AI SDK UI message stream', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server !== undefined) await close(server);
    server = undefined;
  });

  it('reach readUIMessageStream as source-url / source-document parts before the text', async () => {
    const client = await qaClient(
      MockChatModel.script([{ text: 'Five days.' }], { onExhausted: 'repeat-last' }),
    );
    server = uiServer(() => client.prompt('How long does a refund take?').stream().chunks());
    const url = await listen(server);

    const { chunks, message } = await chat(url);
    expect(chunks.map((c) => c.type).slice(0, 4)).toEqual([
      'start',
      'source-url',
      'source-document',
      'start-step',
    ]);
    const parts = message.parts.map((part) => {
      if (part.type !== 'text') return part;
      return { type: part.type, text: part.text };
    });
    expect(parts).toEqual([
      URL_PART,
      DOCUMENT_PART,
      { type: 'step-start' },
      { type: 'text', text: 'Five days.' },
    ]);
  });

  it('come before the first step of a tool loop, and a posted-back message drops them', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks up an order.',
      parameters: { type: 'object', properties: {} },
      execute: () => 'order 7: paid',
    });
    const client = await qaClient(
      MockChatModel.script([{ toolCalls: [{ name: 'lookup', arguments: {} }] }, { text: 'Paid.' }]),
    );
    server = uiServer(() =>
      client
        .prompt('refund for my order?')
        .advisors(new ToolCallingAdvisor({ emitToolEvents: true }))
        .tools(lookup)
        .stream()
        .chunks(),
    );
    const url = await listen(server);

    const { message } = await chat(url);
    const types = message.parts.map((part) => part.type);
    expect(types).toEqual([
      'source-url',
      'source-document',
      'step-start',
      'tool-lookup',
      'step-start',
      'text',
    ]);

    // The conversation the client posts next: the sources are for the user, not the model.
    const messages = uiMessagesToMessages({
      messages: [
        { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'refund for my order?' }] },
        message,
      ],
    });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: 'Paid.' });
    expect(JSON.stringify(messages)).not.toMatch(/shop\.example|Refund FAQ|refund-faq/);
  });

  it('are not sent unless the advisor is asked (emitSources defaults to false)', async () => {
    const client = await qaClient(MockChatModel.script([{ text: 'Five days.' }]), {});
    server = uiServer(() => client.prompt('How long does a refund take?').stream().chunks());
    const url = await listen(server);

    const { chunks, message } = await chat(url);
    expect(chunks.some((c) => c.type.startsWith('source'))).toBe(false);
    expect(message.parts.map((part) => part.type)).toEqual(['step-start', 'text']);
  });

  it('leave out an absent title or filename rather than sending undefined', async () => {
    const text = await framesText(
      from<ChatChunk[]>([
        { type: 'source', sourceType: 'url', id: 'u', url: 'https://a.example' },
        { type: 'source', sourceType: 'document', id: 'd', mediaType: 'text/plain', title: 'D' },
        { type: 'text-delta', text: 'ok' },
        { type: 'finish', reason: 'stop' },
      ]).pipe(toServerSentEvents({ protocol: 'ai-sdk-ui', heartbeat: false })),
    );
    const data = parseSse(text).events.map((event) => event.data);
    expect(data.slice(0, 3)).toEqual([
      '{"type":"start"}',
      '{"type":"source-url","sourceId":"u","url":"https://a.example"}',
      '{"type":"source-document","sourceId":"d","mediaType":"text/plain","title":"D"}',
    ]);
  });
});

describe("sources in the 'rx-advisors' protocol", () => {
  it('are one source event each, before the first text-delta', async () => {
    const client = await qaClient(MockChatModel.script([{ text: 'Five days.' }]));
    const text = await framesText(
      client
        .prompt('How long does a refund take?')
        .stream()
        .chunks()
        .pipe(toServerSentEvents({ protocol: 'rx-advisors', heartbeat: false })),
    );
    const events = parseSse(text).events;
    const names = events.map((event) => event.event);
    expect(names.slice(0, 2)).toEqual(['source', 'source']);
    expect(names.lastIndexOf('source')).toBeLessThan(names.indexOf('text-delta'));
    expect(names.filter((name) => name === 'source')).toHaveLength(2);
    expect(events.slice(0, 2).map((event) => JSON.parse(event.data) as unknown)).toEqual([
      {
        type: 'source',
        sourceType: 'url',
        id: 'refund-policy',
        url: 'https://shop.example/refunds',
        title: 'Refund policy',
      },
      {
        type: 'source',
        sourceType: 'document',
        id: 'refund-faq',
        mediaType: 'text/markdown',
        title: 'Refund FAQ',
        filename: 'refund-faq.md',
      },
    ]);
  });

  it('are the same chunks stream() emits (no copy per protocol)', async () => {
    const client = await qaClient(MockChatModel.script([{ text: 'Five days.' }]));
    const chunks = await lastValueFrom(client.prompt('refund?').stream().chunks().pipe(toArray()));
    expect(chunks.filter((c) => c.type === 'source').map((c) => c.id)).toEqual([
      'refund-policy',
      'refund-faq',
    ]);
  });
});
