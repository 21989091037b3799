import { lastValueFrom } from 'rxjs';
import { InMemoryVectorStore, InvalidOptionsError, VectorDimensionError } from '../../lib/index';
import { describeVectorStoreContract } from './support/vector-store-contract';
import { VocabularyEmbeddingModel } from './support/vocabulary-embedding-model';

describeVectorStoreContract(
  'InMemoryVectorStore',
  (embeddingModel) => new InMemoryVectorStore({ embeddingModel }),
);

describe('InMemoryVectorStore', () => {
  it('validates its options', () => {
    expect(() => new InMemoryVectorStore({} as never)).toThrow(InvalidOptionsError);
    const embeddingModel = new VocabularyEmbeddingModel();
    expect(() => new InMemoryVectorStore({ embeddingModel, maxTopK: 0 })).toThrow(/maxTopK/);
  });

  it('checks the first add against configured dimensions', async () => {
    const store = new InMemoryVectorStore({
      embeddingModel: new VocabularyEmbeddingModel(),
      dimensions: 3,
    });
    const error = await lastValueFrom(store.add([{ id: 'a', text: 'tea', metadata: {} }])).catch(
      (e: unknown) => e,
    );
    expect(VectorDimensionError.isInstance(error)).toBe(true);
    expect(store.size).toBe(0);
  });

  it('refuses a malformed document before embedding anything', async () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const store = new InMemoryVectorStore({ embeddingModel });
    await expect(lastValueFrom(store.add([{ id: '', text: 'tea', metadata: {} }]))).rejects.toThrow(
      /documents\[0\]/,
    );
    expect(embeddingModel.calls).toHaveLength(0);
  });

  it('returns copies: changing a result does not change the store', async () => {
    const store = new InMemoryVectorStore({ embeddingModel: new VocabularyEmbeddingModel() });
    await lastValueFrom(store.add([{ id: 'a', text: 'tea', metadata: { k: 1 } }]));
    const first = await lastValueFrom(store.similaritySearch({ query: 'tea' }));
    (first.documents[0]?.metadata as Record<string, unknown>).k = 2;
    const again = await lastValueFrom(store.similaritySearch({ query: 'tea' }));
    expect(again.documents[0]?.metadata).toEqual({ k: 1 });
  });

  it('honours maxTopK', async () => {
    const store = new InMemoryVectorStore({
      embeddingModel: new VocabularyEmbeddingModel(),
      maxTopK: 2,
    });
    await expect(lastValueFrom(store.similaritySearch({ query: 'tea', topK: 3 }))).rejects.toThrow(
      /topK/,
    );
  });
});
