import { createMistral } from '@ai-sdk/mistral';
// @ai-sdk/mistral 2.x (EmbeddingModelV2), installed under an alias next to 3.x.
import { createMistral as createMistralV2 } from '@ai-sdk/mistral-v2';
import { lastValueFrom } from 'rxjs';
import { InMemoryVectorStore, InvalidOptionsError, ProviderError } from '../../../lib/index';
import { AiSdkEmbeddingModel } from '../../../lib/providers/ai-sdk/index';
import { vocabularyVector } from '../../vector/support/vocabulary-embedding-model';
import {
  startReplayServer,
  type RecordedRequest,
  type ReplayServer,
} from '../support/replay-server';
import { MISTRAL_TEST_KEY } from './support/ai-sdk-targets';

/** What Mistral's embeddings endpoint answers: deterministic vectors, in input order. */
function embeddingsReply(request: RecordedRequest): unknown {
  const input = request.body.input as string[];
  return {
    id: 'emb-1',
    object: 'list',
    model: request.body.model as string,
    data: input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: vocabularyVector(text),
    })),
    usage: { prompt_tokens: input.length * 3, total_tokens: input.length * 3 },
  };
}

const reply = { kind: 'echo', status: 200, json: embeddingsReply } as const;

describe('AiSdkEmbeddingModel (real @ai-sdk/mistral, loopback server)', () => {
  let server: ReplayServer;
  const mistral = () => createMistral({ apiKey: MISTRAL_TEST_KEY, baseURL: server.url });
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('embeds texts in input order and reports usage (specification V3)', async () => {
    server.enqueue(reply);
    const model = new AiSdkEmbeddingModel({ model: mistral().embedding('mistral-embed') });
    const response = await lastValueFrom(model.embed(['refund', 'tea tea', 'coffee']));
    expect(response.embeddings).toEqual([
      vocabularyVector('refund'),
      vocabularyVector('tea tea'),
      vocabularyVector('coffee'),
    ]);
    expect(response.usage).toEqual({ inputTokens: 9, outputTokens: undefined, totalTokens: 9 });
    expect(response.model).toBe('mistral-embed');
    expect(model.provider).toBe('mistral.embedding');
    expect(server.requests[0]?.path).toBe('/embeddings');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'mistral-embed',
      input: ['refund', 'tea tea', 'coffee'],
    });
  });

  it("respects the model's maxEmbeddingsPerCall (32 for Mistral): 70 texts in 3 requests", async () => {
    server.enqueue(reply, reply, reply);
    const model = new AiSdkEmbeddingModel({
      model: mistral().embedding('mistral-embed'),
      batchSize: 1000, // more than the model allows: the model's limit wins
    });
    const texts = Array.from({ length: 70 }, (_, i) => (i % 2 === 0 ? `tea ${i}` : `refund ${i}`));
    const response = await lastValueFrom(model.embed(texts));
    expect(server.requests.map((r) => (r.body.input as string[]).length)).toEqual([32, 32, 6]);
    expect(response.embeddings).toEqual(texts.map((t) => vocabularyVector(t)));
    expect(response.usage.inputTokens).toBe(210);
  });

  it('sends smaller batches one after another when batchSize asks for it', async () => {
    server.enqueue(reply, reply, reply);
    const model = new AiSdkEmbeddingModel({
      model: mistral().embedding('mistral-embed'),
      batchSize: 2,
    });
    await lastValueFrom(model.embed(['refund', 'shipping', 'password', 'tea', 'coffee']));
    expect(server.requests.map((r) => r.body.input as string[])).toEqual([
      ['refund', 'shipping'],
      ['password', 'tea'],
      ['coffee'],
    ]);
  });

  it('aborts the request in flight on unsubscribe and sends no further batch', async () => {
    server.enqueue({ kind: 'stall' });
    const model = new AiSdkEmbeddingModel({
      model: mistral().embedding('mistral-embed'),
      batchSize: 1,
    });
    const subscription = model.embed(['tea', 'coffee']).subscribe();
    await server.nextRequest();
    const closed = server.nextClientClose();
    subscription.unsubscribe();
    await closed;
    expect(server.requests).toHaveLength(1);
  });

  it('fails with a ProviderError (status, retryable) without the key in it', async () => {
    server.enqueue({
      kind: 'json',
      status: 429,
      json: { object: 'error', message: `slow down ${MISTRAL_TEST_KEY}`, type: 'rate_limited' },
    });
    const model = new AiSdkEmbeddingModel({
      model: createMistral({
        apiKey: MISTRAL_TEST_KEY,
        baseURL: server.url,
        headers: {},
      }).embedding('mistral-embed'),
      secrets: [MISTRAL_TEST_KEY],
    });
    const error = await lastValueFrom(model.embed(['tea'])).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(429);
    expect((error as ProviderError).retryable).toBe(true);
    expect((error as Error).message).not.toContain(MISTRAL_TEST_KEY);
  });

  it('works with a specification V2 model (@ai-sdk/mistral 2.x)', async () => {
    server.enqueue(reply);
    const v2 = createMistralV2({ apiKey: MISTRAL_TEST_KEY, baseURL: server.url });
    const model = new AiSdkEmbeddingModel({ model: v2.textEmbedding('mistral-embed') });
    const response = await lastValueFrom(model.embed(['green tea']));
    expect(response.embeddings).toEqual([vocabularyVector('green tea')]);
    expect(response.usage.inputTokens).toBe(3);
  });

  it('answers an empty list without a request, and is cold', async () => {
    const model = new AiSdkEmbeddingModel({ model: mistral().embedding('mistral-embed') });
    expect((await lastValueFrom(model.embed([]))).embeddings).toEqual([]);
    model.embed(['tea']); // never subscribed
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.requests).toHaveLength(0);
  });

  it('validates its options', () => {
    expect(() => new AiSdkEmbeddingModel({ model: {} as never })).toThrow(InvalidOptionsError);
    expect(() => new AiSdkEmbeddingModel(undefined as never)).toThrow(InvalidOptionsError);
    expect(
      () => new AiSdkEmbeddingModel({ model: mistral().embedding('mistral-embed'), batchSize: 0 }),
    ).toThrow(InvalidOptionsError);
  });

  it('fills and searches an InMemoryVectorStore end to end', async () => {
    server.enqueue(reply, reply);
    const embeddingModel = new AiSdkEmbeddingModel({ model: mistral().embedding('mistral-embed') });
    const store = new InMemoryVectorStore({ embeddingModel });
    await lastValueFrom(
      store.add([
        { id: 'a', text: 'green tea', metadata: {} },
        { id: 'b', text: 'refund policy', metadata: {} },
      ]),
    );
    const { documents, usage } = await lastValueFrom(
      store.similaritySearch({ query: 'refund', topK: 1 }),
    );
    expect(documents.map((d) => d.id)).toEqual(['b']);
    expect(usage.inputTokens).toBe(3);
  });
});
