import { lastValueFrom, toArray } from 'rxjs';
import {
  advisor,
  ChatClient,
  EmbeddingError,
  EmptyQuestionError,
  FilterExpressionError,
  InMemoryVectorStore,
  InvalidOptionsError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  Order,
  QuestionAnswerAdvisor,
  VectorDimensionError,
  type QuestionAnswerAdvisorOptions,
  type Retrieval,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { VocabularyEmbeddingModel } from '../vector/support/vocabulary-embedding-model';

async function setup(options: Partial<QuestionAnswerAdvisorOptions> = {}, answers = 1) {
  const embeddingModel = new VocabularyEmbeddingModel();
  const store = new InMemoryVectorStore({ embeddingModel });
  await lastValueFrom(
    store.add([
      { id: 'refunds', text: 'Refunds take 5 days.', metadata: { topic: 'billing' } },
      { id: 'tea', text: 'Green tea is served at 80 degrees.', metadata: { topic: 'drinks' } },
    ]),
  );
  const model = MockChatModel.script(
    Array.from({ length: answers }, () => ({
      text: 'Five days.',
      usage: { inputTokens: 50, outputTokens: 2 },
    })),
  );
  const retrievals: Retrieval[] = [];
  const qa = new QuestionAnswerAdvisor({
    vectorStore: store,
    searchRequest: { topK: 1 },
    onRetrieved: (r) => retrievals.push(r),
    ...options,
  });
  const client = ChatClient.builder(model).defaultAdvisors(qa).build();
  return { embeddingModel, store, model, client, retrievals };
}

const promptOf = (model: MockChatModel, call = 0): string =>
  model.requests[call]?.messages.at(-1)?.content ?? '';

describe('QuestionAnswerAdvisor', () => {
  it('answers in call mode from the retrieved documents, with the default template', async () => {
    const { client, model, retrievals } = await setup();
    const response = await lastValueFrom(
      client.prompt('How long do refunds take?').call().chatResponse(),
    );
    expect(response.text).toBe('Five days.');
    expect(response.usage.inputTokens).toBe(50); // embedding tokens are not chat tokens
    const prompt = promptOf(model);
    expect(prompt.startsWith('How long do refunds take?\n\nContext information is below')).toBe(
      true,
    );
    expect(prompt).toContain('---------------------\nRefunds take 5 days.\n---------------------');
    expect(prompt).not.toContain('Green tea');
    expect(retrievals).toHaveLength(1);
    expect(retrievals[0]?.question).toBe('How long do refunds take?');
    expect(retrievals[0]?.documents.map((d) => d.id)).toEqual(['refunds']);
    expect(retrievals[0]?.usage.inputTokens).toBe(1);
  });

  it('answers in stream mode the same way', async () => {
    const { client, model } = await setup();
    const chunks = await lastValueFrom(client.prompt('refunds?').stream().chunks().pipe(toArray()));
    const text = chunks.map((c) => (c.type === 'text-delta' ? c.text : '')).join('');
    expect(text).toBe('Five days.');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(promptOf(model)).toContain('Refunds take 5 days.');
  });

  it('records the retrieval in request.context for the advisors after it', async () => {
    const seen: (Retrieval | undefined)[] = [];
    const { client } = await setup();
    const reader = advisor({
      name: 'reader',
      before: (request) => {
        seen.push(QuestionAnswerAdvisor.retrieval(request.context));
        return request;
      },
    });
    await lastValueFrom(client.prompt('refunds?').advisors(reader).call().content());
    expect(seen[0]?.documents.map((d) => d.id)).toEqual(['refunds']);
  });

  it('sits inside memory: the conversation keeps the question, not the augmented prompt', async () => {
    const { client } = await setup();
    const chatMemory = new MessageWindowChatMemory();
    await lastValueFrom(
      client
        .prompt('refunds?')
        .advisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .advisorParams({ conversationId: 'c1' })
        .call()
        .content(),
    );
    expect(await chatMemory.get('c1')).toEqual([
      { role: 'user', content: 'refunds?' },
      { role: 'assistant', content: 'Five days.' },
    ]);
  });

  it('with no document found, asks the model with an empty context by default', async () => {
    const { client, model, retrievals } = await setup({
      searchRequest: { similarityThreshold: 0.99 },
    });
    await lastValueFrom(client.prompt('coffee?').call().content());
    expect(retrievals[0]?.documents).toEqual([]);
    expect(promptOf(model)).toContain('---------------------\n\n---------------------');
  });

  it("with no document found and onNoDocuments: 'refuse', answers without calling the model", async () => {
    const { client, model } = await setup({
      onNoDocuments: 'refuse',
      noDocumentsAnswer: 'No idea.',
    });
    const text = await lastValueFrom(
      client
        .prompt('coffee?')
        .advisorParams({ [QuestionAnswerAdvisor.FILTER_EXPRESSION]: "topic == 'none'" })
        .call()
        .content(),
    );
    expect(text).toBe('No idea.');
    expect(model.calls).toBe(0);
  });

  it('takes a per-call filter from the advisor params', async () => {
    const { client, retrievals } = await setup();
    await lastValueFrom(
      client
        .prompt('refunds?')
        .advisorParams({ [QuestionAnswerAdvisor.FILTER_EXPRESSION]: "topic == 'drinks'" })
        .call()
        .content(),
    );
    expect(retrievals[0]?.documents.map((d) => d.id)).toEqual(['tea']);
  });

  it('fails an empty question with EmptyQuestionError, before embedding or calling the model', async () => {
    const { client, model, embeddingModel } = await setup();
    const calls = embeddingModel.calls.length;
    const error = await lastValueFrom(client.prompt('   ').call().content()).catch(
      (e: unknown) => e,
    );
    expect(EmptyQuestionError.isInstance(error)).toBe(true);
    expect(embeddingModel.calls.length).toBe(calls);
    expect(model.calls).toBe(0);
  });

  it('fails with EmbeddingError when the embedding model fails, and the store keeps its documents', async () => {
    const { client, model, embeddingModel, store } = await setup();
    embeddingModel.failWith = new Error('rate limited');
    const error = await lastValueFrom(client.prompt('refunds?').call().content()).catch(
      (e: unknown) => e,
    );
    expect(EmbeddingError.isInstance(error)).toBe(true);
    expect(model.calls).toBe(0);
    expect(store.size).toBe(2);
  });

  it('fails with VectorDimensionError when the query embedding does not fit the store', async () => {
    const { client, model, embeddingModel } = await setup();
    embeddingModel.extraDimensions = 1;
    const error = await lastValueFrom(client.prompt('refunds?').call().content()).catch(
      (e: unknown) => e,
    );
    expect(VectorDimensionError.isInstance(error)).toBe(true);
    expect(model.calls).toBe(0);
  });

  it('fails a filter that does not parse with FilterExpressionError', async () => {
    const { client, model } = await setup();
    const error = await lastValueFrom(
      client
        .prompt('refunds?')
        .advisorParams({ [QuestionAnswerAdvisor.FILTER_EXPRESSION]: 'topic ==' })
        .call()
        .content(),
    ).catch((e: unknown) => e);
    expect(FilterExpressionError.isInstance(error)).toBe(true);
    expect((error as FilterExpressionError).position).toBe(8);
    expect(model.calls).toBe(0);
  });

  it('fails the call when onRetrieved throws, without calling the model', async () => {
    const { client, model } = await setup({
      onRetrieved: () => {
        throw new Error('callback');
      },
    });
    await expect(lastValueFrom(client.prompt('refunds?').call().content())).rejects.toThrow(
      'callback',
    );
    expect(model.calls).toBe(0);
  });

  it('retrieves anew on every subscription', async () => {
    const { client, embeddingModel, retrievals } = await setup({}, 2);
    const content$ = client.prompt('refunds?').call().content();
    const before = embeddingModel.calls.length;
    await lastValueFrom(content$);
    await lastValueFrom(content$);
    expect(embeddingModel.calls.length - before).toBe(2);
    expect(retrievals).toHaveLength(2);
  });

  it('fills the template in one pass, with a replaceable template', async () => {
    const { client, model } = await setup({
      promptTemplate: 'Q: {query}\nDocs: {question_answer_context}',
    });
    await lastValueFrom(client.prompt('refunds {question_answer_context}?').call().content());
    expect(promptOf(model)).toBe(
      'Q: refunds {question_answer_context}?\nDocs: Refunds take 5 days.',
    );
  });

  it('validates its options', async () => {
    const { store } = await setup();
    expect(() => new QuestionAnswerAdvisor({} as never)).toThrow(InvalidOptionsError);
    expect(
      () => new QuestionAnswerAdvisor({ vectorStore: store, promptTemplate: 'no slots' }),
    ).toThrow(/promptTemplate/);
    expect(
      () => new QuestionAnswerAdvisor({ vectorStore: store, onNoDocuments: 'x' as never }),
    ).toThrow(InvalidOptionsError);
    expect(new QuestionAnswerAdvisor({ vectorStore: store }).order).toBe(Order.QUESTION_ANSWER);
  });
});
