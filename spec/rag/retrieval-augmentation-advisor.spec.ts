import { lastValueFrom, of, toArray } from 'rxjs';
import {
  advisor,
  ChatClient,
  CompressionQueryTransformer,
  ContextualQueryAugmenter,
  EmbeddingError,
  EmptyQuestionError,
  FilterExpressionError,
  InMemoryVectorStore,
  InvalidOptionsError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  Order,
  MultiQueryExpander,
  QuestionAnswerAdvisor,
  ReciprocalRankFusionDocumentJoiner,
  RetrievalAugmentationAdvisor,
  RewriteQueryTransformer,
  TranslationQueryTransformer,
  VectorStoreDocumentRetriever,
  type ChatChunk,
  type Message,
  type RagRetrieval,
  type RetrievalAugmentationAdvisorOptions,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { VocabularyEmbeddingModel } from '../vector/support/vocabulary-embedding-model';

async function storeWith(
  documents: { id: string; text: string; topic?: string }[],
  embeddingModel = new VocabularyEmbeddingModel(),
) {
  const store = new InMemoryVectorStore({ embeddingModel });
  await lastValueFrom(
    store.add(
      documents.map(({ id, text, topic }) => ({ id, text, metadata: { topic: topic ?? 'x' } })),
    ),
  );
  return { store, embeddingModel };
}

const DOCS = [
  { id: 'refunds', text: 'Refunds take 5 days.', topic: 'billing' },
  { id: 'shipping', text: 'Shipping takes 2 days.', topic: 'billing' },
  { id: 'tea', text: 'Green tea is served at 80 degrees.', topic: 'drinks' },
];

const answer = (text = 'Five days.') =>
  MockChatModel.script([{ text, usage: { inputTokens: 50, outputTokens: 2 } }]);

const lastUser = (model: MockChatModel, call = 0): string =>
  model.requests[call]?.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';

const HISTORY: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'I bought a kettle.' },
  { role: 'assistant', content: 'Nice kettle!' },
];

describe('RetrievalAugmentationAdvisor: the full pipeline through ChatClient', () => {
  it('call mode: compresses, expands, retrieves for every query, joins, augments; usage counts the stages', async () => {
    const { store, embeddingModel } = await storeWith(DOCS);
    const helper = MockChatModel.script([
      { text: 'How long does a kettle refund take?', usage: { inputTokens: 30, outputTokens: 8 } },
      {
        text: '1. refund duration\n2. shipping time\n- refund duration',
        usage: { inputTokens: 20, outputTokens: 9 },
      },
    ]);
    const helperClient = ChatClient.create(helper);
    const model = answer();
    const records: RagRetrieval[] = [];
    const rag = new RetrievalAugmentationAdvisor({
      queryTransformers: [new CompressionQueryTransformer({ chatClient: helperClient })],
      queryExpander: new MultiQueryExpander({ chatClient: helperClient, numberOfQueries: 2 }),
      documentRetrievers: [
        new VectorStoreDocumentRetriever({ vectorStore: store, searchRequest: { topK: 1 } }),
      ],
      onRetrieved: (r) => records.push(r),
    });
    const client = ChatClient.builder(model).defaultAdvisors(rag).build();
    embeddingModel.calls.length = 0;

    const response = await lastValueFrom(
      client
        .prompt()
        .messages(...HISTORY)
        .user('And how long for that?')
        .call()
        .chatResponse(),
    );

    expect(response.text).toBe('Five days.');
    // 50 + 2 (answer) + 30 + 8 (compression) + 20 + 9 (expansion); embeddings not counted.
    expect(response.usage).toMatchObject({ inputTokens: 100, outputTokens: 19, totalTokens: 119 });
    // The compression prompt carried the conversation (no system text) and the follow-up.
    const compression = lastUser(helper, 0);
    expect(compression).toContain('user: I bought a kettle.\nassistant: Nice kettle!');
    expect(compression).toContain('Follow-up question: And how long for that?');
    expect(compression).not.toContain('Be brief.');
    // The expansion was asked for the compressed question.
    expect(lastUser(helper, 1)).toContain('Query: How long does a kettle refund take?');
    // Retrieved for the compressed query and the two distinct variants, in order.
    expect(embeddingModel.calls).toEqual([
      ['How long does a kettle refund take?'],
      ['refund duration'],
      ['shipping time'],
    ]);
    const record = records[0];
    expect(record?.queries).toEqual([
      'How long does a kettle refund take?',
      'refund duration',
      'shipping time',
    ]);
    expect(record?.documents.map((d) => d.id)).toEqual(['refunds', 'shipping']);
    expect(record?.question).toBe('And how long for that?');
    expect(record?.usage.inputTokens).toBe(3); // one token per embedded query (the test model)
    expect(record?.stageUsage).toMatchObject({ inputTokens: 50, outputTokens: 17 });
    // The model got the user's own question with the documents; history and system kept.
    const sent = model.requests[0]?.messages ?? [];
    expect(sent.slice(0, 3)).toEqual(HISTORY);
    const prompt = lastUser(model);
    expect(prompt.startsWith('And how long for that?\n\nContext information is below')).toBe(true);
    expect(prompt).toContain('Refunds take 5 days.\nShipping takes 2 days.');
    expect(prompt).not.toContain('Green tea');
  });

  it('stream mode: the stages run before the answer; their usage is one chunk before it', async () => {
    const { store } = await storeWith(DOCS);
    const helper = MockChatModel.script([
      { text: 'refund duration', usage: { inputTokens: 7, outputTokens: 3 } },
    ]);
    const model = answer();
    const rag = new RetrievalAugmentationAdvisor({
      queryTransformers: [new RewriteQueryTransformer({ chatClient: ChatClient.create(helper) })],
      documentRetrievers: [
        new VectorStoreDocumentRetriever({ vectorStore: store, searchRequest: { topK: 1 } }),
      ],
    });
    const client = ChatClient.builder(model).defaultAdvisors(rag).build();
    const chunks = await lastValueFrom(
      client.prompt('Hi there! Could you tell me about refunds?').stream().chunks().pipe(toArray()),
    );
    expect(chunks[0]).toEqual({
      type: 'usage',
      usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
    });
    const text = chunks.map((c) => (c.type === 'text-delta' ? c.text : '')).join('');
    expect(text).toBe('Five days.');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const usage = chunks.filter(
      (c): c is Extract<ChatChunk, { type: 'usage' }> => c.type === 'usage',
    );
    expect(usage.reduce((sum, c) => sum + (c.usage.inputTokens ?? 0), 0)).toBe(57);
    expect(lastUser(helper)).toContain('Query: Hi there! Could you tell me about refunds?');
    expect(lastUser(helper)).toContain('vector store');
    expect(lastUser(model)).toContain('Refunds take 5 days.');
  });

  it('records the retrieval under the key QuestionAnswerAdvisor uses, for the advisors after it', async () => {
    const { store } = await storeWith(DOCS);
    const seen: unknown[] = [];
    const client = ChatClient.builder(answer())
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [new VectorStoreDocumentRetriever({ vectorStore: store })],
        }),
        advisor({
          name: 'reader',
          before: (request) => {
            seen.push(
              QuestionAnswerAdvisor.retrieval(request.context)?.documents[0]?.id,
              RetrievalAugmentationAdvisor.retrieval(request.context)?.queries,
            );
            return request;
          },
        }),
      )
      .build();
    await lastValueFrom(client.prompt('refunds').call().content());
    expect(seen).toEqual(['refunds', ['refunds']]);
  });

  it('keeps memory on the plain question (ordered inside the memory advisors)', async () => {
    const { store } = await storeWith(DOCS);
    const chatMemory = new MessageWindowChatMemory();
    const client = ChatClient.builder(answer())
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [new VectorStoreDocumentRetriever({ vectorStore: store })],
        }),
        new MessageChatMemoryAdvisor({ chatMemory }),
      )
      .build();
    await lastValueFrom(
      client.prompt('refunds?').advisorParams({ conversationId: 'c1' }).call().content(),
    );
    expect(await chatMemory.get('c1')).toEqual([
      { role: 'user', content: 'refunds?' },
      { role: 'assistant', content: 'Five days.' },
    ]);
  });

  it('counts the stages afresh on every subscription', async () => {
    const { store } = await storeWith(DOCS);
    const helper = MockChatModel.script(
      [{ text: 'refund', usage: { inputTokens: 4, outputTokens: 1 } }],
      {
        onExhausted: 'repeat-last',
      },
    );
    const model = MockChatModel.script(
      [{ text: 'ok', usage: { inputTokens: 10, outputTokens: 1 } }],
      {
        onExhausted: 'repeat-last',
      },
    );
    const call = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          queryTransformers: [
            new TranslationQueryTransformer({
              chatClient: ChatClient.create(helper),
              targetLanguage: 'English',
            }),
          ],
          documentRetrievers: [new VectorStoreDocumentRetriever({ vectorStore: store })],
        }),
      )
      .build()
      .prompt('remboursement ?')
      .call()
      .chatResponse();
    const first = await lastValueFrom(call);
    const second = await lastValueFrom(call);
    expect(first.usage.inputTokens).toBe(14);
    expect(second.usage.inputTokens).toBe(14);
    expect(lastUser(helper)).toContain('into English');
    expect(lastUser(helper)).toContain('Query: remboursement ?');
  });
});

describe('RetrievalAugmentationAdvisor: several retrievers, joiners', () => {
  it('asks every retriever for every query and merges them, one copy per id', async () => {
    const a = await storeWith(DOCS);
    const b = await storeWith([
      { id: 'refunds', text: 'Refunds take 5 days.' },
      { id: 'password', text: 'Reset your password in settings.' },
    ]);
    const records: RagRetrieval[] = [];
    const client = ChatClient.builder(answer())
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [
            new VectorStoreDocumentRetriever({ vectorStore: a.store, searchRequest: { topK: 2 } }),
            new VectorStoreDocumentRetriever({ vectorStore: b.store, searchRequest: { topK: 2 } }),
          ],
          onRetrieved: (r) => records.push(r),
        }),
      )
      .build();
    await lastValueFrom(client.prompt('refund or password').call().content());
    const ids = records[0]?.documents.map((d) => d.id) ?? [];
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(['password', 'refunds', 'shipping'].sort());
  });

  it('fuses ranks with ReciprocalRankFusionDocumentJoiner: a document both lists rank high comes first', async () => {
    const list = (...ids: string[]) =>
      ids.map((id, i) => ({ id, text: id, metadata: {}, score: 0.9 - i / 10 }));
    const records: RagRetrieval[] = [];
    const client = ChatClient.builder(answer())
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [
            { retrieve: () => of(list('a', 'b', 'c')) },
            { retrieve: () => of(list('b', 'd', 'a')) },
          ],
          documentJoiner: new ReciprocalRankFusionDocumentJoiner({ k: 1, maxDocuments: 3 }),
          onRetrieved: (r) => records.push(r),
        }),
      )
      .build();
    await lastValueFrom(client.prompt('q').call().content());
    // a: 1/2 + 1/4 = .75, b: 1/3 + 1/2 = .83, d: 1/3, c: 1/4
    expect(records[0]?.documents.map((d) => d.id)).toEqual(['b', 'a', 'd']);
  });
});

describe('RetrievalAugmentationAdvisor: no documents', () => {
  const nothing = { retrieve: () => of([]) };

  it("'ask-model' (default) sends the template with an empty context", async () => {
    const model = answer("I can't answer that.");
    const client = ChatClient.builder(model)
      .defaultAdvisors(new RetrievalAugmentationAdvisor({ documentRetrievers: [nothing] }))
      .build();
    expect(await lastValueFrom(client.prompt('q?').call().content())).toBe("I can't answer that.");
    expect(lastUser(model)).toContain('---------------------\n\n---------------------');
  });

  it("'refuse' answers without calling the model", async () => {
    const model = answer();
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [nothing],
          queryAugmenter: new ContextualQueryAugmenter({
            onNoDocuments: 'refuse',
            noDocumentsAnswer: 'Not in the handbook.',
          }),
        }),
      )
      .build();
    const response = await lastValueFrom(client.prompt('q?').call().chatResponse());
    expect(response.text).toBe('Not in the handbook.');
    expect(response.finishReason).toBe('stop');
    expect(model.requests).toHaveLength(0);
  });

  it("'pass-through' sends the question unchanged", async () => {
    const model = answer();
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [nothing],
          queryAugmenter: new ContextualQueryAugmenter({ onNoDocuments: 'pass-through' }),
        }),
      )
      .build();
    await lastValueFrom(client.prompt('What is 2 + 2?').call().content());
    expect(lastUser(model)).toBe('What is 2 + 2?');
  });

  it('a replaced template is filled in one pass', async () => {
    const { store } = await storeWith(DOCS);
    const model = answer();
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [
            new VectorStoreDocumentRetriever({ vectorStore: store, searchRequest: { topK: 1 } }),
          ],
          queryAugmenter: new ContextualQueryAugmenter({
            promptTemplate: 'Notes: {context}\nQ: {query}',
          }),
        }),
      )
      .build();
    await lastValueFrom(client.prompt('refunds {context}').call().content());
    expect(lastUser(model)).toBe('Notes: Refunds take 5 days.\nQ: refunds {context}');
  });
});

describe('RetrievalAugmentationAdvisor: bad input gets a typed error and calls nothing', () => {
  it('an empty question: EmptyQuestionError before any stage runs', async () => {
    const helper = MockChatModel.script([{ text: 'x' }]);
    const model = answer();
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          queryTransformers: [
            new RewriteQueryTransformer({ chatClient: ChatClient.create(helper) }),
          ],
          documentRetrievers: [{ retrieve: () => of([]) }],
        }),
      )
      .build();
    const error = await lastValueFrom(client.prompt('   ').call().content()).catch(
      (e: unknown) => e,
    );
    expect(EmptyQuestionError.isInstance(error)).toBe(true);
    expect(helper.requests).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });

  it('a failing embedding model: EmbeddingError, the model never called', async () => {
    const { store, embeddingModel } = await storeWith(DOCS);
    embeddingModel.failWith = new Error('embedding service down');
    const model = answer();
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [new VectorStoreDocumentRetriever({ vectorStore: store })],
        }),
      )
      .build();
    const error = await lastValueFrom(client.prompt('refunds').call().content()).catch(
      (e: unknown) => e,
    );
    expect(EmbeddingError.isInstance(error)).toBe(true);
    expect((error as EmbeddingError).cause).toEqual(new Error('embedding service down'));
    expect(model.requests).toHaveLength(0);
  });

  it('a filter that does not parse: FilterExpressionError at construction, or per call before embedding', async () => {
    const { store, embeddingModel } = await storeWith(DOCS);
    expect(
      () =>
        new VectorStoreDocumentRetriever({
          vectorStore: store,
          searchRequest: { filter: "topic == 'billing" },
        }),
    ).toThrow(FilterExpressionError);
    const model = answer();
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [new VectorStoreDocumentRetriever({ vectorStore: store })],
        }),
      )
      .build();
    embeddingModel.calls.length = 0;
    const error = await lastValueFrom(
      client
        .prompt('refunds')
        .advisorParams({ [VectorStoreDocumentRetriever.FILTER_EXPRESSION]: 'topic ==' })
        .call()
        .content(),
    ).catch((e: unknown) => e);
    expect(FilterExpressionError.isInstance(error)).toBe(true);
    expect(embeddingModel.calls).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });

  it('a per-call filter replaces the configured one', async () => {
    const { store } = await storeWith(DOCS);
    const records: RagRetrieval[] = [];
    const client = ChatClient.builder(answer())
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [
            new VectorStoreDocumentRetriever({
              vectorStore: store,
              searchRequest: { filter: "topic == 'billing'" },
            }),
          ],
          onRetrieved: (r) => records.push(r),
        }),
      )
      .build();
    await lastValueFrom(
      client
        .prompt('green tea')
        .advisorParams({ [VectorStoreDocumentRetriever.FILTER_EXPRESSION]: "topic == 'drinks'" })
        .call()
        .content(),
    );
    expect(records[0]?.documents.map((d) => d.id)).toEqual(['tea']);
  });

  it('a throwing onRetrieved fails the call before the model call', async () => {
    const model = answer();
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [{ retrieve: () => of([]) }],
          onRetrieved: () => {
            throw new Error('audit failed');
          },
        }),
      )
      .build();
    await expect(lastValueFrom(client.prompt('q').call().content())).rejects.toThrow(
      'audit failed',
    );
    expect(model.requests).toHaveLength(0);
  });

  it('a failing stage model fails the call, the answer model never called', async () => {
    const helper = MockChatModel.script([{ error: 'helper down' }]);
    const model = answer();
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          queryExpander: new MultiQueryExpander({ chatClient: ChatClient.create(helper) }),
          documentRetrievers: [{ retrieve: () => of([]) }],
        }),
      )
      .build();
    await expect(lastValueFrom(client.prompt('q').call().content())).rejects.toThrow('helper down');
    expect(model.requests).toHaveLength(0);
  });

  it('takes name and order (default Order.QUESTION_ANSWER)', () => {
    const retriever = { retrieve: () => of([]) };
    const rag = new RetrievalAugmentationAdvisor({
      documentRetrievers: [retriever],
      name: 'rag',
      order: 3,
    });
    expect([rag.name, rag.order]).toEqual(['rag', 3]);
    expect(new RetrievalAugmentationAdvisor({ documentRetrievers: [retriever] }).order).toBe(
      Order.QUESTION_ANSWER,
    );
    expect(
      () => new RetrievalAugmentationAdvisor({ documentRetrievers: [retriever], name: '' }),
    ).toThrow(InvalidOptionsError);
  });

  it('validates its options and the stages', () => {
    const ok = { retrieve: () => of([]) };
    const bad: unknown[] = [
      {},
      { documentRetrievers: [] },
      { documentRetrievers: [{}] },
      { documentRetrievers: [ok], queryTransformers: [{}] },
      { documentRetrievers: [ok], maxQueries: 0 },
      { documentRetrievers: [ok], emitSources: 'yes' },
    ];
    for (const options of bad) {
      expect(
        () => new RetrievalAugmentationAdvisor(options as RetrievalAugmentationAdvisorOptions),
      ).toThrow(InvalidOptionsError);
    }
    expect(() => new RewriteQueryTransformer({} as never)).toThrow(InvalidOptionsError);
    expect(
      () => new TranslationQueryTransformer({ chatClient: ChatClient.create(answer()) } as never),
    ).toThrow(InvalidOptionsError);
    expect(
      () =>
        new CompressionQueryTransformer({
          chatClient: ChatClient.create(answer()),
          promptTemplate: '{query}',
        }),
    ).toThrow(InvalidOptionsError);
    expect(
      () =>
        new MultiQueryExpander({ chatClient: ChatClient.create(answer()), numberOfQueries: 50 }),
    ).toThrow(InvalidOptionsError);
    expect(() => new ContextualQueryAugmenter({ promptTemplate: 'no slots' })).toThrow(
      InvalidOptionsError,
    );
  });
});

describe('RetrievalAugmentationAdvisor: stages', () => {
  const stage = { addUsage: () => undefined, addEmbeddingUsage: () => undefined };
  const query = (text: string, history: Message[] = []) => ({ text, history, context: new Map() });

  it('CompressionQueryTransformer without history passes the query and calls nothing', async () => {
    const helper = MockChatModel.script([]);
    const t = new CompressionQueryTransformer({ chatClient: ChatClient.create(helper) });
    expect((await lastValueFrom(t.transform(query('refunds?'), stage))).text).toBe('refunds?');
    expect(helper.requests).toHaveLength(0);
  });

  it('a blank model answer keeps the query', async () => {
    const t = new RewriteQueryTransformer({ chatClient: ChatClient.create(answer('  ')) });
    expect((await lastValueFrom(t.transform(query('refunds?'), stage))).text).toBe('refunds?');
  });

  it('MultiQueryExpander strips numbering, drops duplicates and the original, caps the count', async () => {
    const helper = answer('1) Refund time\n\n2) refund TIME\n3. q\n* parcel delays\n- extra one');
    const e = new MultiQueryExpander({
      chatClient: ChatClient.create(helper),
      numberOfQueries: 2,
      includeOriginal: false,
    });
    const queries = await lastValueFrom(e.expand(query('q'), stage));
    expect(queries.map((q) => q.text)).toEqual(['Refund time', 'parcel delays']);
    expect(lastUser(helper)).toContain('Write 2 different versions');
  });

  it('MultiQueryExpander with an answer of no usable line keeps the query alone', async () => {
    const e = new MultiQueryExpander({ chatClient: ChatClient.create(answer('1.\n\n')) });
    expect((await lastValueFrom(e.expand(query('q'), stage))).map((q) => q.text)).toEqual(['q']);
  });

  it('a stage that completes without a value leaves its input; maxQueries caps an expander', async () => {
    const model = answer();
    const records: RagRetrieval[] = [];
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          queryTransformers: [{ transform: () => of() }],
          queryExpander: {
            expand: (q) =>
              of(Array.from({ length: 30 }, (_, i) => ({ ...q, text: `${q.text} ${i}` }))),
          },
          maxQueries: 3,
          documentRetrievers: [{ retrieve: () => of([]) }],
          onRetrieved: (r) => records.push(r),
        }),
      )
      .build();
    await lastValueFrom(client.prompt('q').call().content());
    expect(records[0]?.queries).toEqual(['q 0', 'q 1', 'q 2']);
  });

  it('emitSources sends the documents as source chunks before the answer', async () => {
    const { store } = await storeWith(DOCS);
    const client = ChatClient.builder(
      MockChatModel.script([{ text: 'ok' }], { onExhausted: 'repeat-last' }),
    )
      .defaultAdvisors(
        new RetrievalAugmentationAdvisor({
          documentRetrievers: [
            new VectorStoreDocumentRetriever({ vectorStore: store, searchRequest: { topK: 1 } }),
          ],
          emitSources: true,
        }),
      )
      .build();
    const chunks = await lastValueFrom(client.prompt('refunds').stream().chunks().pipe(toArray()));
    expect(chunks[0]).toEqual({
      type: 'source',
      sourceType: 'document',
      id: 'refunds',
      mediaType: 'text/plain',
      title: 'refunds',
    });
    const response = await lastValueFrom(client.prompt('refunds').call().chatResponse());
    expect(response.metadata.sources?.map((s) => s.id)).toEqual(['refunds']);
  });
});
