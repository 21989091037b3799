import { lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  InMemoryVectorStore,
  MultiQueryExpander,
  RetrievalAugmentationAdvisor,
  VectorStoreChatMemoryAdvisor,
  VectorStoreDocumentRetriever,
  type RagRetrieval,
} from '../../lib/index';
import { OpenAiEmbeddingModel } from '../../lib/providers/openai/index';
import { MockChatModel } from '../../lib/testing/index';
import { openAiClient } from '../providers/support/clients';
import {
  startReplayServer,
  type RecordedRequest,
  type ReplayServer,
} from '../providers/support/replay-server';
import { vocabularyVector } from '../vector/support/vocabulary-embedding-model';

/** The embeddings endpoint: deterministic vectors (word counts), as the SDK asks for them. */
function embeddingsReply(request: RecordedRequest): unknown {
  const input = request.body.input as string[];
  const base64 = request.body.encoding_format === 'base64';
  return {
    object: 'list',
    model: request.body.model as string,
    data: input.map((text, index) => {
      const vector = vocabularyVector(text);
      return {
        object: 'embedding',
        index,
        embedding: base64
          ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
          : vector,
      };
    }),
    usage: { prompt_tokens: input.length * 2, total_tokens: input.length * 2 },
  };
}
const reply = { kind: 'echo', status: 200, json: embeddingsReply } as const;

describe('RAG and vector memory over real embeddings (the openai client, loopback server)', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(async () => {
    await server.close();
  });

  async function fill() {
    const embeddingModel = new OpenAiEmbeddingModel({ client: openAiClient(server) });
    const store = new InMemoryVectorStore({ embeddingModel });
    server.enqueue(reply);
    await lastValueFrom(
      store.add([
        { id: 'refunds', text: 'Refunds take 5 days.', metadata: { title: 'Refunds' } },
        { id: 'shipping', text: 'Shipping takes 2 days.', metadata: { title: 'Shipping' } },
        { id: 'tea', text: 'Green tea is served at 80 degrees.', metadata: {} },
      ]),
    );
    return { store, embeddingModel };
  }

  it.each(['call', 'stream'] as const)(
    '%s mode: expands with a helper model, embeds every query over HTTP, answers from the documents',
    async (mode) => {
      const { store } = await fill();
      const helper = MockChatModel.script([
        { text: 'shipping time', usage: { inputTokens: 11, outputTokens: 3 } },
      ]);
      const model = MockChatModel.script([
        { text: 'Refunds take 5 days.', usage: { inputTokens: 90, outputTokens: 6 } },
      ]);
      const records: RagRetrieval[] = [];
      const client = ChatClient.builder(model)
        .defaultAdvisors(
          new RetrievalAugmentationAdvisor({
            queryExpander: new MultiQueryExpander({
              chatClient: ChatClient.create(helper),
              numberOfQueries: 1,
            }),
            documentRetrievers: [
              new VectorStoreDocumentRetriever({
                vectorStore: store,
                searchRequest: { topK: 1, similarityThreshold: 0.5 },
              }),
            ],
            onRetrieved: (r) => records.push(r),
            emitSources: true,
          }),
        )
        .build();
      server.enqueue(reply, reply);
      const spec = client.prompt('refund');
      const usage =
        mode === 'call'
          ? (await lastValueFrom(spec.call().chatResponse())).usage
          : (await lastValueFrom(spec.stream().chunks().pipe(toArray())))
              .flatMap((c) => (c.type === 'usage' ? [c.usage] : []))
              .reduce((sum, u) => ({
                ...sum,
                inputTokens: (sum.inputTokens ?? 0) + (u.inputTokens ?? 0),
              }));
      expect(usage.inputTokens).toBe(101); // answer + expansion; embeddings apart
      // Two queries, two embedding requests over HTTP, one after the other.
      expect(server.requests.slice(1).map((r) => r.body.input as string[])).toEqual([
        ['refund'],
        ['shipping time'],
      ]);
      expect(records[0]?.documents.map((d) => d.id)).toEqual(['refunds', 'shipping']);
      expect(records[0]?.usage.inputTokens).toBe(4);
      const prompt = model.requests[0]?.messages.at(-1)?.content ?? '';
      expect(prompt).toContain('Refunds take 5 days.\nShipping takes 2 days.');
      expect(prompt).not.toContain('Green tea');
    },
  );

  it('vector memory embeds the turn after the answer and recalls it in the next call', async () => {
    const embeddingModel = new OpenAiEmbeddingModel({ client: openAiClient(server) });
    const memory = new VectorStoreChatMemoryAdvisor({
      vectorStore: new InMemoryVectorStore({ embeddingModel }),
      similarityThreshold: 0.5,
    });
    const model = MockChatModel.script([{ text: 'Noted.' }, { text: 'Your refund is #42.' }]);
    const client = ChatClient.builder(model).defaultAdvisors(memory).build();
    server.enqueue(reply); // the first recall (an empty store still embeds the question)
    server.enqueue(reply); // the first turn's write
    await lastValueFrom(
      client
        .prompt('My refund number is 42.')
        .advisorParams({ conversationId: 'u1' })
        .call()
        .content(),
    );
    await memory.flush();
    server.enqueue(reply);
    await lastValueFrom(
      client
        .prompt('Which refund was mine?')
        .advisorParams({ conversationId: 'u1' })
        .call()
        .content(),
    );
    expect(server.requests.map((r) => r.body.input as string[])).toEqual([
      ['My refund number is 42.'],
      ['My refund number is 42.', 'Noted.'],
      ['Which refund was mine?'],
    ]);
    expect(model.requests[1]?.messages[0]?.content).toContain('user: My refund number is 42.');
    expect(model.requests[1]?.messages[0]?.content).not.toContain('Noted.'); // below the threshold
  });
});
