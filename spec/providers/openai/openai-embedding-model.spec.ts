import { lastValueFrom } from 'rxjs';
import { InMemoryVectorStore, InvalidOptionsError, ProviderError } from '../../../lib/index';
import { OpenAiEmbeddingModel } from '../../../lib/providers/openai/index';
import { openAiClient, OPENAI_TEST_KEY } from '../support/clients';
import {
  startReplayServer,
  type RecordedRequest,
  type ReplayServer,
} from '../support/replay-server';
import { vocabularyVector } from '../../vector/support/vocabulary-embedding-model';

/** What the embeddings endpoint answers: deterministic vectors, base64 when the SDK asks. */
function embeddingsReply(request: RecordedRequest): unknown {
  const input = request.body.input as string[];
  const base64 = request.body.encoding_format === 'base64';
  return {
    object: 'list',
    model: request.body.model as string,
    // Out of order on purpose: the SDK's `index` decides the position.
    data: input
      .map((text, index) => {
        const vector = vocabularyVector(text);
        const embedding = base64
          ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
          : vector;
        return { object: 'embedding', index, embedding };
      })
      .reverse(),
    usage: { prompt_tokens: input.length * 2, total_tokens: input.length * 2 },
  };
}

const reply = { kind: 'echo', status: 200, json: embeddingsReply } as const;

describe('OpenAiEmbeddingModel (real openai client, loopback server)', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('embeds texts in input order and reports usage', async () => {
    server.enqueue(reply);
    const model = new OpenAiEmbeddingModel({ client: openAiClient(server), model: 'emb-1' });
    const response = await lastValueFrom(model.embed(['refund', 'tea tea', 'coffee']));
    expect(response.embeddings).toEqual([
      vocabularyVector('refund'),
      vocabularyVector('tea tea'),
      vocabularyVector('coffee'),
    ]);
    expect(response.usage).toEqual({ inputTokens: 6, outputTokens: undefined, totalTokens: 6 });
    expect(response.model).toBe('emb-1');
    expect(server.requests[0]?.path).toBe('/v1/embeddings');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'emb-1',
      input: ['refund', 'tea tea', 'coffee'],
    });
  });

  it('sends batches of batchSize one after another and sums their usage', async () => {
    server.enqueue(reply, reply, reply);
    const model = new OpenAiEmbeddingModel({
      client: openAiClient(server),
      batchSize: 2,
      dimensions: 6,
    });
    const texts = ['refund', 'shipping', 'password', 'tea', 'coffee'];
    const response = await lastValueFrom(model.embed(texts));
    expect(server.requests.map((r) => r.body.input as string[])).toEqual([
      ['refund', 'shipping'],
      ['password', 'tea'],
      ['coffee'],
    ]);
    expect(server.requests[0]?.body.dimensions).toBe(6);
    expect(response.embeddings).toEqual(texts.map((t) => vocabularyVector(t)));
    expect(response.usage.inputTokens).toBe(10);
  });

  it('aborts the request in flight on unsubscribe and sends no further batch', async () => {
    server.enqueue({ kind: 'stall' });
    const model = new OpenAiEmbeddingModel({ client: openAiClient(server), batchSize: 1 });
    const subscription = model.embed(['tea', 'coffee']).subscribe();
    await server.nextRequest();
    const closed = server.nextClientClose();
    subscription.unsubscribe();
    await closed;
    expect(server.requests).toHaveLength(1);
  });

  it('fails with a ProviderError without the key in it', async () => {
    server.enqueue({
      kind: 'json',
      status: 401,
      json: { error: { message: `bad key ${OPENAI_TEST_KEY}` } },
    });
    const model = new OpenAiEmbeddingModel({ client: openAiClient(server) });
    const error = await lastValueFrom(model.embed(['tea'])).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).status).toBe(401);
    expect((error as Error).message).not.toContain(OPENAI_TEST_KEY);
  });

  it('answers an empty list without a request', async () => {
    const model = new OpenAiEmbeddingModel({ client: openAiClient(server) });
    expect((await lastValueFrom(model.embed([]))).embeddings).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('validates its options', () => {
    expect(
      () => new OpenAiEmbeddingModel({ client: openAiClient(server), batchSize: 4096 }),
    ).toThrow(InvalidOptionsError);
    expect(() => new OpenAiEmbeddingModel({ client: {} as never })).toThrow(InvalidOptionsError);
  });

  it('fills and searches an InMemoryVectorStore end to end', async () => {
    server.enqueue(reply, reply);
    const embeddingModel = new OpenAiEmbeddingModel({ client: openAiClient(server) });
    const store = new InMemoryVectorStore({ embeddingModel });
    await lastValueFrom(
      store.add([
        { id: 'a', text: 'green tea', metadata: {} },
        { id: 'b', text: 'refund policy', metadata: {} },
      ]),
    );
    const { documents } = await lastValueFrom(store.similaritySearch({ query: 'refund', topK: 1 }));
    expect(documents.map((d) => d.id)).toEqual(['b']);
  });
});
