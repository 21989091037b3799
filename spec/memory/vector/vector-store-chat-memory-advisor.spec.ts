import { defer, lastValueFrom, tap, throwError, toArray, type Observable } from 'rxjs';
import {
  ChatClient,
  InMemoryVectorStore,
  InvalidOptionsError,
  MissingConversationIdError,
  Order,
  tool,
  VectorStoreChatMemoryAdvisor,
  type Document,
  type SearchRequest,
  type SearchResult,
  type VectorStore,
  type VectorStoreChatMemoryAdvisorOptions,
} from '../../../lib/index';
import { MockChatModel } from '../../../lib/testing/index';
import { VocabularyEmbeddingModel } from '../../vector/support/vocabulary-embedding-model';

/** An InMemoryVectorStore that logs when adds are subscribed and what searches asked for. */
class LoggingStore implements VectorStore {
  readonly name = 'logging';
  readonly inner = new InMemoryVectorStore({ embeddingModel: new VocabularyEmbeddingModel() });
  readonly log: string[] = [];
  readonly searches: SearchRequest[] = [];
  failAdds = false;

  add(documents: readonly Document[]): Observable<number> {
    return defer(() => {
      this.log.push(`add ${documents.length}`);
      return this.failAdds ? throwError(() => new Error('disk full')) : this.inner.add(documents);
    });
  }
  delete(ids: readonly string[]): Observable<number> {
    return this.inner.delete(ids);
  }
  similaritySearch(request: SearchRequest): Observable<SearchResult> {
    this.searches.push(request);
    return this.inner.similaritySearch(request);
  }
  async all(conversationId: string): Promise<Document[]> {
    const { documents } = await lastValueFrom(
      this.inner.similaritySearch({
        query: 'refund shipping password tea coffee green',
        topK: 100,
        filter: `conversationId == '${conversationId}'`,
      }),
    );
    return [...documents].sort(
      (a, b) => Number(a.metadata['seq']) - Number(b.metadata['seq']) || 0,
    );
  }
}

function setup(
  options: Partial<VectorStoreChatMemoryAdvisorOptions> = {},
  model = MockChatModel.script([{ text: 'Noted.' }], { onExhausted: 'repeat-last' }),
) {
  const store = new LoggingStore();
  const memory = new VectorStoreChatMemoryAdvisor({ vectorStore: store, ...options });
  const client = ChatClient.builder(model)
    .defaultSystem('Be brief.')
    .defaultAdvisors(memory)
    .build();
  const say = (text: string, conversationId = 'c1') =>
    lastValueFrom(client.prompt(text).advisorParams({ conversationId }).call().content());
  return { store, memory, client, model, say };
}

describe('VectorStoreChatMemoryAdvisor', () => {
  it('stores each turn (user message, answer) with the conversation id, after the answer', async () => {
    const { store, memory, say, model } = setup();
    await say('I like green tea.');
    // The first call recalled nothing: the system text is unchanged.
    expect(model.requests[0]?.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    await memory.flush();
    const stored = await store.all('c1');
    expect(stored.map((d) => [d.metadata['role'], d.text])).toEqual([
      ['user', 'I like green tea.'],
      ['assistant', 'Noted.'],
    ]);
    expect(stored[0]?.metadata['conversationId']).toBe('c1');
  });

  it('recalls the most similar past messages of this conversation only, oldest first', async () => {
    const { memory, say, model, store } = setup({ topK: 2 });
    await say('My refund request is 42.');
    await memory.flush();
    await say('I like green tea.', 'other');
    await memory.flush();
    await say('Shipping to Paris please.');
    await memory.flush();
    await say('What about my refund and shipping?');
    const system = model.requests[3]?.messages[0]?.content ?? '';
    expect(system.startsWith('Be brief.\n\nEarlier messages of this conversation')).toBe(true);
    expect(system).toContain(
      '<long-term-memory>\nuser: My refund request is 42.\nuser: Shipping to Paris please.\n</long-term-memory>',
    );
    expect(system).not.toContain('green tea');
    // The filter is a parsed tree, never text built from the id.
    expect(store.searches.at(-1)?.filter).toEqual({
      type: 'compare',
      key: 'conversationId',
      operator: '==',
      value: 'c1',
    });
  });

  it('writes off the hot path: the caller has the whole answer before the write starts', async () => {
    const { store, memory, client } = setup();
    const events: string[] = store.log;
    await lastValueFrom(
      client
        .prompt('refund')
        .advisorParams({ conversationId: 'c1' })
        .stream()
        .chunks()
        .pipe(tap({ complete: () => events.push('complete') }), toArray()),
    );
    expect(events).toEqual(['complete', 'add 2']);
    await memory.flush();
    expect(await store.all('c1')).toHaveLength(2);
  });

  it('a failed call stores the user message only', async () => {
    const { store, memory, say } = setup({}, MockChatModel.script([{ error: 'boom' }]));
    await expect(say('refund please')).rejects.toThrow('boom');
    await memory.flush();
    expect((await store.all('c1')).map((d) => d.text)).toEqual(['refund please']);
  });

  it('reports a failed write to onStoreError and keeps answering', async () => {
    const failures: unknown[] = [];
    const { store, memory, say } = setup({ onStoreError: (e) => failures.push(e) });
    store.failAdds = true;
    expect(await say('refund')).toBe('Noted.');
    await memory.flush();
    expect(failures).toEqual([new Error('disk full')]);
  });

  it('with saveToolMessages, stores a tool round (calls and results) as one document', async () => {
    const getTime = tool({
      name: 'getTime',
      description: 'Time in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: () => '12:00',
    });
    const model = MockChatModel.script([
      { toolCalls: [{ id: 't1', name: 'getTime', arguments: { city: 'Paris' } }] },
      { text: 'It is noon.' },
    ]);
    const store = new LoggingStore();
    const memory = new VectorStoreChatMemoryAdvisor({ vectorStore: store, saveToolMessages: true });
    const client = ChatClient.builder(model).defaultAdvisors(memory).defaultTools(getTime).build();
    await lastValueFrom(
      client.prompt('time?').advisorParams({ conversationId: 'c1' }).call().content(),
    );
    await memory.flush();
    expect((await store.all('c1')).map((d) => [d.metadata['role'], d.text])).toEqual([
      ['user', 'time?'],
      ['tool', 'called getTime({"city":"Paris"})\ngetTime returned: 12:00'],
      ['assistant', 'It is noon.'],
    ]);
  });

  it('without saveToolMessages, stores the final answer only', async () => {
    const getTime = tool({
      name: 'getTime',
      description: 'Time',
      parameters: { type: 'object', properties: {} },
      execute: () => '12:00',
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: {} }] },
      { text: 'It is noon.' },
    ]);
    const store = new LoggingStore();
    const memory = new VectorStoreChatMemoryAdvisor({ vectorStore: store });
    const client = ChatClient.builder(model).defaultAdvisors(memory).defaultTools(getTime).build();
    await lastValueFrom(
      client.prompt('time?').advisorParams({ conversationId: 'c1' }).call().content(),
    );
    await memory.flush();
    expect((await store.all('c1')).map((d) => d.metadata['role'])).toEqual(['user', 'assistant']);
  });

  it('needs a conversation id (the key the other memory advisors read), or a default', async () => {
    const { client, model } = setup();
    const error = await lastValueFrom(client.prompt('hi').call().content()).catch(
      (e: unknown) => e,
    );
    expect(MissingConversationIdError.isInstance(error)).toBe(true);
    expect(model.requests).toHaveLength(0);
    const { client: withDefault } = setup({ defaultConversationId: 'anon' });
    expect(await lastValueFrom(withDefault.prompt('hi').call().content())).toBe('Noted.');
  });

  it('takes a replaced template', async () => {
    const { memory, say, model } = setup({ systemTemplate: '{instructions}\nMEMORY:\n{memory}' });
    await say('refund 42');
    await memory.flush();
    await say('refund?');
    expect(model.requests[1]?.messages[0]?.content).toBe(
      'Be brief.\nMEMORY:\nuser: refund 42\nassistant: Noted.',
    );
  });

  it('an unsubscribed call stores the user message only, in the background', async () => {
    const model = MockChatModel.script([{ text: 'never finishes', delay: 60_000 }]);
    const { store, memory, client } = setup({}, model);
    const subscription = client
      .prompt('refund 7')
      .advisorParams({ conversationId: 'c1' })
      .stream()
      .chunks()
      .subscribe();
    await new Promise((resolve) => setTimeout(resolve, 20));
    subscription.unsubscribe();
    await memory.flush();
    expect((await store.all('c1')).map((d) => d.text)).toEqual(['refund 7']);
  });

  it('takes name and order; an empty name is an InvalidOptionsError', () => {
    const vectorStore = new LoggingStore();
    const order = Order.CHAT_MEMORY + 5;
    const named = new VectorStoreChatMemoryAdvisor({ vectorStore, name: 'long-term', order });
    expect([named.name, named.order]).toEqual(['long-term', order]);
    expect(new VectorStoreChatMemoryAdvisor({ vectorStore }).order).toBe(Order.CHAT_MEMORY);
    expect(() => new VectorStoreChatMemoryAdvisor({ vectorStore, name: '' })).toThrow(
      InvalidOptionsError,
    );
  });

  it('validates its options', () => {
    const vectorStore = new LoggingStore();
    const bad: unknown[] = [
      {},
      { vectorStore: {} },
      { vectorStore, topK: 0 },
      { vectorStore, systemTemplate: '{memory}' },
      { vectorStore, order: Order.TOOL_CALLING + 1 },
    ];
    for (const options of bad) {
      expect(
        () => new VectorStoreChatMemoryAdvisor(options as VectorStoreChatMemoryAdvisorOptions),
      ).toThrow(InvalidOptionsError);
    }
  });
});
