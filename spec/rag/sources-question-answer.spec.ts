// QuestionAnswerAdvisor's `emitSources`: the retrieved documents go out as `source` chunks
// before the answer, for the client only: the model, memory and content() never see them;
// call() keeps them in ChatResponse.metadata.sources.
import { defer, from, lastValueFrom, tap, toArray } from 'rxjs';
import {
  aggregate,
  ChatClient,
  documentSource,
  InMemoryVectorStore,
  InvalidOptionsError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  QuestionAnswerAdvisor,
  type ChatChunk,
  type ChatModel,
  type QuestionAnswerAdvisorOptions,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { VocabularyEmbeddingModel } from '../vector/support/vocabulary-embedding-model';

async function setup(options: Partial<QuestionAnswerAdvisorOptions> = { emitSources: true }) {
  const store = new InMemoryVectorStore({ embeddingModel: new VocabularyEmbeddingModel() });
  await lastValueFrom(
    store.add([
      {
        id: 'refunds',
        text: 'A refund takes 5 days.',
        metadata: { title: 'Refunds', filename: 'refunds.md', mediaType: 'text/markdown' },
      },
      {
        id: 'refund-page',
        text: 'Refund and shipping rules.',
        metadata: { url: 'https://shop.example/refunds', title: 'Refund page' },
      },
      { id: 'tea', text: 'Green tea at 80 degrees.', metadata: {} },
    ]),
  );
  const model = MockChatModel.script([{ text: 'Five days.' }], { onExhausted: 'repeat-last' });
  const qa = new QuestionAnswerAdvisor({
    vectorStore: store,
    searchRequest: { topK: 2, similarityThreshold: 0.5 },
    ...options,
  });
  const chatMemory = new MessageWindowChatMemory();
  const client = ChatClient.builder(model)
    .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory, defaultConversationId: 'c0' }), qa)
    .build();
  return { model, client, chatMemory };
}

const REFUNDS_SOURCE = {
  sourceType: 'document',
  id: 'refunds',
  mediaType: 'text/markdown',
  title: 'Refunds',
  filename: 'refunds.md',
};
const PAGE_SOURCE = {
  sourceType: 'url',
  id: 'refund-page',
  url: 'https://shop.example/refunds',
  title: 'Refund page',
};

describe('QuestionAnswerAdvisor emitSources', () => {
  it('sends each retrieved document as a source chunk, before any chunk of the answer', async () => {
    const { client } = await setup();
    const chunks = await lastValueFrom(
      client.prompt('How long does a refund take?').stream().chunks().pipe(toArray()),
    );
    expect(chunks.slice(0, 2)).toEqual([
      { type: 'source', ...REFUNDS_SOURCE },
      { type: 'source', ...PAGE_SOURCE },
    ]);
    expect(chunks.slice(2).some((c) => c.type === 'source')).toBe(false);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('has the sources reach the caller before the model is called', async () => {
    const store = new InMemoryVectorStore({ embeddingModel: new VocabularyEmbeddingModel() });
    await lastValueFrom(store.add([{ id: 'r', text: 'refund', metadata: {} }]));
    const seen: ChatChunk[] = [];
    let seenWhenModelCalled = -1;
    const model: ChatModel = {
      provider: 'probe',
      stream: () =>
        defer(() => {
          seenWhenModelCalled = seen.length;
          return from<ChatChunk[]>([
            { type: 'text-delta', text: 'ok' },
            { type: 'finish', reason: 'stop' },
          ]);
        }),
    };
    const client = ChatClient.builder(model)
      .defaultAdvisors(new QuestionAnswerAdvisor({ vectorStore: store, emitSources: true }))
      .build();
    await lastValueFrom(
      client
        .prompt('refund?')
        .stream()
        .chunks()
        .pipe(tap((chunk) => seen.push(chunk))),
    );
    expect(seenWhenModelCalled).toBe(1);
    expect(seen[0]).toEqual({
      type: 'source',
      sourceType: 'document',
      id: 'r',
      mediaType: 'text/plain',
      title: 'r',
    });
  });

  it('keeps content() text-only', async () => {
    const { client } = await setup();
    const deltas = await lastValueFrom(
      client.prompt('How long does a refund take?').stream().content().pipe(toArray()),
    );
    expect(deltas.join('')).toBe('Five days.');
    const text = await lastValueFrom(client.prompt('refund?').call().content());
    expect(text).toBe('Five days.');
  });

  it('keeps the sources in ChatResponse.metadata.sources (call mode)', async () => {
    const { client } = await setup();
    const response = await lastValueFrom(
      client.prompt('How long does a refund take?').call().chatResponse(),
    );
    expect(response.text).toBe('Five days.');
    expect(response.message).toEqual({ role: 'assistant', content: 'Five days.' });
    expect(response.metadata.sources).toEqual([REFUNDS_SOURCE, PAGE_SOURCE]);
  });

  it('never shows the sources to the model or to memory', async () => {
    const { client, model, chatMemory } = await setup();
    await lastValueFrom(
      client.prompt('refund?').advisorParams({ conversationId: 'c1' }).call().content(),
    );
    await lastValueFrom(
      client.prompt('and shipping?').advisorParams({ conversationId: 'c1' }).call().content(),
    );
    const secondRequest = JSON.stringify(model.requests[1]?.messages);
    expect(secondRequest).not.toMatch(/shop\.example|refunds\.md|Refund page/);
    expect(await chatMemory.get('c1')).toEqual([
      { role: 'user', content: 'refund?' },
      { role: 'assistant', content: 'Five days.' },
      { role: 'user', content: 'and shipping?' },
      { role: 'assistant', content: 'Five days.' },
    ]);
  });

  it('sends nothing by default, and nothing when no document is found', async () => {
    const quiet = await setup({}); // emitSources left out
    const chunks = await lastValueFrom(
      quiet.client.prompt('refund?').stream().chunks().pipe(toArray()),
    );
    expect(chunks.some((c) => c.type === 'source')).toBe(false);
    expect(
      (await lastValueFrom(quiet.client.prompt('refund?').call().chatResponse())).metadata,
    ).not.toHaveProperty('sources');

    const { client } = await setup();
    const none = await lastValueFrom(client.prompt('coffee?').stream().chunks().pipe(toArray()));
    expect(none.some((c) => c.type === 'source')).toBe(false);
  });

  it('maps documents with a function; undefined leaves one out', async () => {
    const { client } = await setup({
      emitSources: (d) =>
        d.id === 'tea' || d.id === 'refund-page'
          ? undefined
          : { sourceType: 'url', id: d.id, url: `https://kb.example/${d.id}` },
    });
    const response = await lastValueFrom(client.prompt('refund?').call().chatResponse());
    expect(response.metadata.sources).toEqual([
      { sourceType: 'url', id: 'refunds', url: 'https://kb.example/refunds' },
    ]);
  });

  it('fails the call before the model call when the mapping throws', async () => {
    const { client, model } = await setup({
      emitSources: () => {
        throw new Error('no sources today');
      },
    });
    await expect(lastValueFrom(client.prompt('refund?').call().content())).rejects.toThrow(
      'no sources today',
    );
    expect(model.requests).toHaveLength(0);
  });

  it('refuses an emitSources that is neither a boolean nor a function', () => {
    const store = new InMemoryVectorStore({ embeddingModel: new VocabularyEmbeddingModel() });
    expect(
      () =>
        new QuestionAnswerAdvisor({
          vectorStore: store,
          emitSources: 'yes' as unknown as boolean,
        }),
    ).toThrow(InvalidOptionsError);
  });
});

describe('documentSource', () => {
  it('makes an http(s) url a URL source and anything else a document source', () => {
    expect(
      documentSource({ id: 'a', text: 'x', metadata: { url: 'https://a.example/x' } }),
    ).toEqual({ sourceType: 'url', id: 'a', url: 'https://a.example/x' });
    expect(
      documentSource({ id: 'b', text: 'x', metadata: { url: 'javascript:alert(1)', title: 'B' } }),
    ).toEqual({ sourceType: 'document', id: 'b', mediaType: 'text/plain', title: 'B' });
    expect(
      documentSource({ id: 'c', text: 'secret text', metadata: { filename: 'c.txt' } }),
    ).toEqual({
      sourceType: 'document',
      id: 'c',
      mediaType: 'text/plain',
      title: 'c.txt',
      filename: 'c.txt',
    });
    expect(documentSource({ id: 'd', text: 'x', metadata: { title: 7 } })).toEqual({
      sourceType: 'document',
      id: 'd',
      mediaType: 'text/plain',
      title: 'd',
    });
  });
});

describe('aggregate() and sources', () => {
  it('keeps one source per id, in first-seen order, across a retry', async () => {
    const response = await lastValueFrom(
      from<ChatChunk[]>([
        { type: 'source', sourceType: 'url', id: 'a', url: 'https://a.example' },
        { type: 'source', sourceType: 'document', id: 'b', mediaType: 'text/plain', title: 'B' },
        { type: 'text-delta', text: 'first try' },
        { type: 'retry', attempt: 2, reason: 'bad', advisor: 'retry' },
        { type: 'source', sourceType: 'url', id: 'a', url: 'https://a.example', title: 'A' },
        { type: 'text-delta', text: 'second' },
        { type: 'finish', reason: 'stop' },
      ]).pipe(aggregate()),
    );
    expect(response.text).toBe('second');
    expect(response.metadata.sources).toEqual([
      { sourceType: 'url', id: 'a', url: 'https://a.example', title: 'A' },
      { sourceType: 'document', id: 'b', mediaType: 'text/plain', title: 'B' },
    ]);
  });
});
