import { lastValueFrom, of, toArray } from 'rxjs';
import {
  ChatClient,
  ChatClientDocumentReranker,
  InMemoryVectorStore,
  InvalidOptionsError,
  RetrievalAugmentationAdvisor,
  TopKDocumentPostProcessor,
  VectorStoreDocumentRetriever,
  type ChatChunk,
  type DocumentRetriever,
  type RagRetrieval,
  type ScoredDocument,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { VocabularyEmbeddingModel } from '../vector/support/vocabulary-embedding-model';

const doc = (id: string, text: string, score: number): ScoredDocument => ({
  id,
  text,
  metadata: {},
  score,
});
const A = doc('a', 'Shipping takes 2 days.', 0.9);
const B = doc('b', 'Green tea is served at 80 degrees.', 0.8);
const C = doc('c', 'Refunds take 5 days.', 0.7);

const fixed = (...documents: ScoredDocument[]): DocumentRetriever => ({
  retrieve: () => of(documents),
});
const answer = () =>
  MockChatModel.script([{ text: 'Five days.', usage: { inputTokens: 50, outputTokens: 2 } }]);
const ranking = (text: string) =>
  MockChatModel.script([{ text, usage: { inputTokens: 30, outputTokens: 6 } }]);
const lastUser = (model: MockChatModel, call = 0): string =>
  model.requests[call]?.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';

/** The documents' order in the prompt the answering model got (by their texts). */
function orderInPrompt(model: MockChatModel, documents: readonly ScoredDocument[]): string[] {
  const prompt = lastUser(model);
  return documents
    .filter((d) => prompt.includes(d.text))
    .sort((x, y) => prompt.indexOf(x.text) - prompt.indexOf(y.text))
    .map((d) => d.id);
}

function clientWith(
  reranker: ChatClientDocumentReranker,
  model: MockChatModel,
  records: RagRetrieval[],
) {
  const rag = new RetrievalAugmentationAdvisor({
    documentRetrievers: [fixed(A, B, C)],
    documentPostProcessors: [reranker],
    onRetrieved: (r) => records.push(r),
  });
  return ChatClient.builder(model).defaultAdvisors(rag).build();
}

describe('ChatClientDocumentReranker through RetrievalAugmentationAdvisor', () => {
  it('call mode: the model sees the documents in the ranked order; the ranking call counts in usage', async () => {
    const reranker = ranking('{"ids": [3, 1, 2]}');
    const model = answer();
    const records: RagRetrieval[] = [];
    const client = clientWith(
      new ChatClientDocumentReranker({ chatClient: ChatClient.create(reranker) }),
      model,
      records,
    );

    const response = await lastValueFrom(
      client.prompt('How long do refunds take?').call().chatResponse(),
    );

    expect(response.text).toBe('Five days.');
    expect(response.usage).toMatchObject({ inputTokens: 80, outputTokens: 8, totalTokens: 88 });
    expect(orderInPrompt(model, [A, B, C])).toEqual(['c', 'a', 'b']);
    expect(records[0]?.documents.map((d) => d.id)).toEqual(['c', 'a', 'b']);
    expect(records[0]?.stageUsage).toMatchObject({ inputTokens: 30, outputTokens: 6 });
    // The ranking prompt: the query and the numbered documents; structured output asked for.
    const prompt = lastUser(reranker);
    expect(prompt).toContain('Query: How long do refunds take?');
    expect(prompt).toContain('<document id="1">\nShipping takes 2 days.\n</document>');
    expect(prompt).toContain('<document id="3">\nRefunds take 5 days.\n</document>');
    expect(reranker.requests[0]?.options.responseFormat).toMatchObject({
      type: 'json-schema',
      schema: { type: 'object', required: ['ids'] },
    });
  });

  it('stream mode: the ranking usage is one chunk before the answer, which streams in the ranked context', async () => {
    const reranker = ranking('```json\n[2, 3, 1]\n```');
    const model = answer();
    const client = clientWith(
      new ChatClientDocumentReranker({ chatClient: ChatClient.create(reranker) }),
      model,
      [],
    );

    const chunks = await lastValueFrom(client.prompt('Refunds?').stream().chunks().pipe(toArray()));

    expect(chunks[0]).toEqual({
      type: 'usage',
      usage: { inputTokens: 30, outputTokens: 6, totalTokens: 36 },
    });
    const text = chunks.map((c) => (c.type === 'text-delta' ? c.text : '')).join('');
    expect(text).toBe('Five days.');
    const usage = chunks.filter(
      (c): c is Extract<ChatChunk, { type: 'usage' }> => c.type === 'usage',
    );
    expect(usage.reduce((sum, c) => sum + (c.usage.inputTokens ?? 0), 0)).toBe(80);
    expect(orderInPrompt(model, [A, B, C])).toEqual(['b', 'c', 'a']);
  });

  it.each([
    [
      'unknown and repeated ids are ignored, missing ones appended in order',
      '{"ids": [3, 9, 0, 3, "x"]}',
      ['c', 'a', 'b'],
    ],
    [
      'quoted ids and prose around the JSON are accepted',
      'Sure! {"ids": ["2"]} Hope it helps.',
      ['b', 'a', 'c'],
    ],
    ['an answer without a list keeps the order', 'C is best, then A.', ['a', 'b', 'c']],
    ['an empty list keeps the order', '{"ids": []}', ['a', 'b', 'c']],
    ['a nested or broken list keeps the order', '{"ids": [[3], {"a": 1}', ['a', 'b', 'c']],
  ])('bad model output: %s', async (_name, text, expected) => {
    const reranker = ranking(text);
    const model = answer();
    const records: RagRetrieval[] = [];
    const client = clientWith(
      new ChatClientDocumentReranker({ chatClient: ChatClient.create(reranker) }),
      model,
      records,
    );

    const response = await lastValueFrom(client.prompt('Refunds?').call().chatResponse());

    expect(records[0]?.documents.map((d) => d.id)).toEqual(expected);
    expect(orderInPrompt(model, [A, B, C])).toEqual(expected);
    // Nothing lost, and the ranking call is paid for whatever it answered.
    expect(response.usage.inputTokens).toBe(80);
  });

  it('sends at most maxDocuments, each cut at maxDocumentChars; the rest follow the ranked ones', async () => {
    const reranker = ranking('[2, 1]');
    const model = answer();
    const records: RagRetrieval[] = [];
    const long = doc('long', `${'x'.repeat(9)}😀tail`, 0.95);
    const rag = new RetrievalAugmentationAdvisor({
      documentRetrievers: [fixed(long, A, B, C)],
      documentPostProcessors: [
        new ChatClientDocumentReranker({
          chatClient: ChatClient.create(reranker),
          maxDocuments: 2,
          maxDocumentChars: 10,
        }),
      ],
      onRetrieved: (r) => records.push(r),
    });
    const client = ChatClient.builder(model).defaultAdvisors(rag).build();

    await lastValueFrom(client.prompt('Refunds?').call().content());

    expect(records[0]?.documents.map((d) => d.id)).toEqual(['a', 'long', 'b', 'c']);
    const prompt = lastUser(reranker);
    // 10 units would split the emoji's surrogate pair: it is cut before it.
    expect(prompt).toContain(`<document id="1">\n${'x'.repeat(9)}\n</document>`);
    expect(prompt).toContain('<document id="2">\nShipping t\n</document>');
    expect(prompt).not.toContain('Green tea');
    expect(prompt).not.toContain('tail');
    // The answering model still gets every document, in full.
    expect(lastUser(model)).toContain('😀tail');
  });

  it('nativeStructuredOutput: false sends no responseFormat (the prompt asks for the JSON)', async () => {
    const reranker = ranking('[3]');
    const client = clientWith(
      new ChatClientDocumentReranker({
        chatClient: ChatClient.create(reranker),
        nativeStructuredOutput: false,
      }),
      answer(),
      [],
    );
    await lastValueFrom(client.prompt('Refunds?').call().content());
    expect(reranker.requests[0]?.options.responseFormat).toBeUndefined();
    expect(lastUser(reranker)).toContain('{"ids": [3, 1, 2]}');
  });

  it('calls no model for fewer than two documents', async () => {
    const reranker = ranking('[1]');
    const model = answer();
    const rag = new RetrievalAugmentationAdvisor({
      documentRetrievers: [fixed(C)],
      documentPostProcessors: [
        new ChatClientDocumentReranker({ chatClient: ChatClient.create(reranker) }),
      ],
    });
    const response = await lastValueFrom(
      ChatClient.builder(model)
        .defaultAdvisors(rag)
        .build()
        .prompt('Refunds?')
        .call()
        .chatResponse(),
    );
    expect(reranker.requests).toHaveLength(0);
    expect(response.usage.inputTokens).toBe(50);
    expect(lastUser(model)).toContain('Refunds take 5 days.');
  });

  it("fails the call with the ranking model's error, before the answering model is called", async () => {
    const reranker = MockChatModel.script([{ error: new Error('ranker down') }]);
    const model = answer();
    const client = clientWith(
      new ChatClientDocumentReranker({ chatClient: ChatClient.create(reranker) }),
      model,
      [],
    );
    await expect(lastValueFrom(client.prompt('Refunds?').call().content())).rejects.toThrow(
      'ranker down',
    );
    expect(model.requests).toHaveLength(0);
  });

  it('re-ranks what a real vector store found, then TopKDocumentPostProcessor keeps the top of the new order', async () => {
    const store = new InMemoryVectorStore({ embeddingModel: new VocabularyEmbeddingModel() });
    await lastValueFrom(
      store.add([
        { id: 'refunds', text: 'Refund policy: refunds take 5 days.', metadata: {} },
        { id: 'refund-shipping', text: 'Refund of shipping costs.', metadata: {} },
        { id: 'tea', text: 'Green tea.', metadata: {} },
      ]),
    );
    // The store ranks 'refunds' first (two refund words); the re-ranker prefers the second.
    const reranker = ranking('{"ids": [2, 1]}');
    const model = answer();
    const records: RagRetrieval[] = [];
    const rag = new RetrievalAugmentationAdvisor({
      documentRetrievers: [
        new VectorStoreDocumentRetriever({
          vectorStore: store,
          searchRequest: { topK: 3, similarityThreshold: 0.1 },
        }),
      ],
      documentPostProcessors: [
        new ChatClientDocumentReranker({ chatClient: ChatClient.create(reranker) }),
        new TopKDocumentPostProcessor({ topK: 1 }),
      ],
      onRetrieved: (r) => records.push(r),
    });
    const client = ChatClient.builder(model).defaultAdvisors(rag).build();

    await lastValueFrom(client.prompt('How long does a refund take?').call().content());

    expect(lastUser(reranker)).toContain('<document id="1">\nRefund policy');
    expect(records[0]?.documents.map((d) => d.id)).toEqual(['refund-shipping']);
    expect(lastUser(model)).toContain('Refund of shipping costs.');
    expect(lastUser(model)).not.toContain('Refund policy');
  });

  it('validates its options with InvalidOptionsError', () => {
    const chatClient = ChatClient.create(answer());
    const bad: [string, object][] = [
      ['chatClient', {}],
      ['chatClient', { chatClient: {} }],
      ['maxDocuments', { chatClient, maxDocuments: 0 }],
      ['maxDocuments', { chatClient, maxDocuments: 101 }],
      ['maxDocuments', { chatClient, maxDocuments: 2.5 }],
      ['maxDocumentChars', { chatClient, maxDocumentChars: 0 }],
      ['maxDocumentChars', { chatClient, maxDocumentChars: 100_001 }],
      ['promptTemplate', { chatClient, promptTemplate: 'Rank for {query}' }],
      ['nativeStructuredOutput', { chatClient, nativeStructuredOutput: 'yes' }],
    ];
    for (const [option, options] of bad) {
      let error: unknown;
      try {
        new ChatClientDocumentReranker(options as never);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InvalidOptionsError);
      expect((error as InvalidOptionsError).option).toBe(option);
    }
    expect(
      () =>
        new ChatClientDocumentReranker({
          chatClient,
          maxDocuments: 100,
          maxDocumentChars: 100_000,
        }),
    ).not.toThrow();
  });
});
