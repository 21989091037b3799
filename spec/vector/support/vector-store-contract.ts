import { lastValueFrom } from 'rxjs';
import {
  EmbeddingError,
  FilterExpressionError,
  InvalidOptionsError,
  VectorDimensionError,
  type Document,
  type VectorStore,
} from '../../../lib/index';
import { VocabularyEmbeddingModel } from './vocabulary-embedding-model';

/** Builds a fresh, empty store over `embeddingModel` (async for stores that open a file). */
export type VectorStoreFactory = (
  embeddingModel: VocabularyEmbeddingModel,
) => Promise<VectorStore> | VectorStore;

const DOCS: Document[] = [
  { id: 'r1', text: 'refund refund policy', metadata: { topic: 'billing', year: 2024 } },
  { id: 'r2', text: 'refund and shipping times', metadata: { topic: 'billing', year: 2020 } },
  { id: 's1', text: 'shipping shipping abroad', metadata: { topic: 'shipping', year: 2023 } },
  { id: 't1', text: 'green tea', metadata: { topic: 'drinks', year: 2019, hot: true } },
  { id: 't2', text: 'coffee', metadata: { topic: 'drinks', year: 2022, hot: true } },
  { id: 'p1', text: 'password reset', metadata: { topic: 'account' } },
];

/**
 * The semantics every `VectorStore` shares. A second store runs it with its own factory:
 * `describeVectorStoreContract('SqliteVectorStore', (model) => new SqliteVectorStore({ … }))`.
 */
export function describeVectorStoreContract(name: string, create: VectorStoreFactory): void {
  describe(`${name} (VectorStore contract)`, () => {
    let model: VocabularyEmbeddingModel;
    let store: VectorStore;
    const ids = async (query: string, extra: object = {}): Promise<string[]> =>
      (await lastValueFrom(store.similaritySearch({ query, ...extra }))).documents.map((d) => d.id);

    beforeEach(async () => {
      model = new VocabularyEmbeddingModel();
      store = await create(model);
      expect(await lastValueFrom(store.add(DOCS))).toBe(DOCS.length);
    });

    it('finds the most similar documents first, with scores, text and metadata', async () => {
      const { documents, usage } = await lastValueFrom(store.similaritySearch({ query: 'refund' }));
      expect(documents.map((d) => d.id)).toEqual(['r1', 'r2', 'p1', 's1']); // zero scores: by id
      expect(documents[0]).toEqual({
        id: 'r1',
        text: 'refund refund policy',
        metadata: { topic: 'billing', year: 2024 },
        score: expect.closeTo(1, 6) as number,
      });
      expect(documents[1]?.score).toBeCloseTo(Math.SQRT1_2, 6);
      expect(usage.inputTokens).toBe(1);
    });

    it('returns at most topK documents', async () => {
      expect(await ids('refund', { topK: 1 })).toEqual(['r1']);
      expect(await ids('refund shipping', { topK: 6 })).toHaveLength(6);
    });

    it('keeps only documents at least as similar as the threshold', async () => {
      expect(await ids('refund', { similarityThreshold: 0.5 })).toEqual(['r1', 'r2']);
      expect(await ids('refund', { similarityThreshold: 1 })).toEqual(['r1']);
    });

    it('filters by metadata, text or parsed', async () => {
      expect(await ids('refund', { filter: "topic == 'drinks'", topK: 6 })).toEqual(
        expect.arrayContaining(['t1', 't2']),
      );
      expect(await ids('refund', { filter: "topic == 'billing' && year >= 2021" })).toEqual(['r1']);
      expect(
        await ids('tea', { filter: { type: 'in', key: 'topic', values: ['drinks', 'account'] } }),
      ).toEqual(['t1', 'p1', 't2']);
      expect(await ids('tea', { filter: 'hot == true && NOT year < 2020' })).toEqual(['t2']);
    });

    it('fails a filter that does not parse with a FilterExpressionError, before embedding', async () => {
      const before = model.calls.length;
      const error = await lastValueFrom(
        store.similaritySearch({ query: 'tea', filter: "topic == 'x" }),
      ).catch((e: unknown) => e);
      expect(FilterExpressionError.isInstance(error)).toBe(true);
      expect(model.calls.length).toBe(before);
    });

    it('refuses a topK outside its limits', async () => {
      await expect(
        lastValueFrom(store.similaritySearch({ query: 'tea', topK: 0 })),
      ).rejects.toThrow(InvalidOptionsError);
    });

    it('replaces a document added again under the same id', async () => {
      await lastValueFrom(store.add([{ id: 'r1', text: 'coffee', metadata: {} }]));
      expect(await ids('coffee', { topK: 2 })).toEqual(['r1', 't2']); // equal scores: by id
      expect(await ids('refund', { topK: 1 })).toEqual(['r2']);
    });

    it('deletes by id, ignoring unknown ids', async () => {
      expect(await lastValueFrom(store.delete(['r1', 'nope']))).toBe(1);
      expect(await ids('refund', { topK: 1 })).toEqual(['r2']);
    });

    it('stores nothing when the embedding model fails, and says why', async () => {
      const cause = new Error('quota exceeded');
      model.failWith = cause;
      const error = await lastValueFrom(
        store.add([{ id: 'x1', text: 'tea tea', metadata: {} }]),
      ).catch((e: unknown) => e);
      expect(EmbeddingError.isInstance(error)).toBe(true);
      expect((error as EmbeddingError).cause).toBe(cause);
      model.failWith = undefined;
      expect(await ids('tea', { topK: 1 })).toEqual(['t1']);
    });

    it('refuses embeddings of other dimensions and stores none of the batch', async () => {
      model.extraDimensions = 2;
      const error = await lastValueFrom(
        store.add([{ id: 'x1', text: 'tea tea tea', metadata: {} }]),
      ).catch((e: unknown) => e);
      expect(VectorDimensionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ expected: 6, actual: 8 });
      const search = await lastValueFrom(store.similaritySearch({ query: 'tea' })).catch(
        (e: unknown) => e,
      );
      expect(VectorDimensionError.isInstance(search)).toBe(true);
      model.extraDimensions = 0;
      expect(await ids('tea', { topK: 1 })).toEqual(['t1']);
    });

    it('is cold, and an add unsubscribed while embedding stores nothing', async () => {
      const add$ = store.add([{ id: 'x1', text: 'password password', metadata: {} }]);
      expect(await ids('password', { topK: 6 })).not.toContain('x1');
      model.hang = true;
      const before = model.finalized;
      add$.subscribe().unsubscribe();
      expect(model.finalized).toBe(before + 1);
      model.hang = false;
      expect(await ids('password', { topK: 6 })).not.toContain('x1');
      await lastValueFrom(add$); // re-subscription runs it anew
      expect(await ids('password', { topK: 2 })).toEqual(['p1', 'x1']);
    });

    it('adds nothing for an empty list without calling the model', async () => {
      const before = model.calls.length;
      expect(await lastValueFrom(store.add([]))).toBe(0);
      expect(model.calls.length).toBe(before);
    });
  });
}
