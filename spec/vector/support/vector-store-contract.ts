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
      expect(
        await ids('refund', { similarityThreshold: 0.5, filter: 'year <= 2020', topK: 6 }),
      ).toEqual(['r2']);
      expect(await ids('refund', { similarityThreshold: -1, filter: "topic == 'drinks'" })).toEqual(
        ['t1', 't2'],
      );
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

    it('reads a missing key as null and compares only like types', async () => {
      const all = { query: 'refund', topK: 6 };
      const sorted = async (filter: string) => (await ids(all.query, { ...all, filter })).sort();
      expect(await sorted('year == null')).toEqual(['p1']);
      expect(await sorted('year != 2024')).toEqual(['p1', 'r2', 's1', 't1', 't2']);
      expect(await sorted('hot != true')).toEqual(['p1', 'r1', 'r2', 's1']);
      expect(await sorted('hot == 1')).toEqual([]); // true is not 1
      expect(await sorted("year > '2000'")).toEqual([]); // a number is not ordered against a string
      expect(await sorted('year < 2020')).toEqual(['t1']); // a missing year is not < 2020
      expect(await sorted("topic >= 'd' && topic < 's'")).toEqual(['t1', 't2']);
      expect(await sorted("topic NIN ['billing', 'drinks']")).toEqual(['p1', 's1']);
      expect(await sorted('year IN [null, 2019]')).toEqual(['p1', 't1']);
      expect(await sorted('year NIN [2024, 2020, 2023, 2019, 2022]')).toEqual(['p1']);
      expect(await sorted("NOT (topic == 'drinks' || year >= 2023)")).toEqual(['p1', 'r2']);
      expect(await ids('refund', { filter: { type: 'in', key: 'topic', values: [] } })).toEqual([]);
    });

    it('filters on keys with dots and on mixed types of one key', async () => {
      await lastValueFrom(
        store.add([
          { id: 'm1', text: 'tea', metadata: { 'a.b': 'x', flag: 1 } },
          { id: 'm2', text: 'tea', metadata: { a: 'x', flag: true } },
          { id: 'm3', text: 'tea', metadata: { flag: '1', score: 2.5 } },
        ]),
      );
      expect(await ids('tea', { filter: "a.b == 'x'" })).toEqual(['m1']);
      expect(await ids('tea', { filter: 'flag == 1' })).toEqual(['m1']);
      expect(await ids('tea', { filter: 'flag == true' })).toEqual(['m2']);
      expect(await ids('tea', { filter: "flag == '1'" })).toEqual(['m3']);
      expect(await ids('tea', { filter: 'score > 2 && score <= 2.5' })).toEqual(['m3']);
    });

    it('returns topK matches of a filter even when many closer documents fail it', async () => {
      const many = Array.from({ length: 300 }, (_, i) => ({
        id: `n${String(i).padStart(3, '0')}`,
        text: 'refund refund',
        metadata: { topic: 'noise' },
      }));
      await lastValueFrom(store.add(many));
      expect(await ids('refund', { filter: "topic == 'billing'", topK: 3 })).toEqual(['r1', 'r2']);
      expect(await ids('refund', { filter: "topic != 'noise'", topK: 3 })).toEqual([
        'r1',
        'r2',
        'p1',
      ]);
      expect(await ids('refund', { filter: "topic == 'noise'", topK: 2 })).toEqual([
        'n000',
        'n001',
      ]);
    });

    it('breaks ties at the top-k boundary by id, however the documents were added', async () => {
      const copies = ['c7', 'c3', 'c9', 'c1', 'c5'].map((id) => ({
        id,
        text: 'coffee coffee',
        metadata: { topic: 'drinks' },
      }));
      await lastValueFrom(store.add(copies));
      expect(await ids('coffee', { topK: 3 })).toEqual(['c1', 'c3', 'c5']);
      expect(await ids('coffee', { topK: 7 })).toEqual(['c1', 'c3', 'c5', 'c7', 'c9', 't2', 'p1']);
      expect(
        await ids('coffee', { topK: 2, filter: "id_missing == null && topic == 'drinks'" }),
      ).toEqual(['c1', 'c3']);
    });

    it('scores a document or a query without any direction (all zeros) 0', async () => {
      await lastValueFrom(store.add([{ id: 'z1', text: 'nothing known', metadata: {} }]));
      const { documents } = await lastValueFrom(
        store.similaritySearch({ query: 'shipping', topK: 6 }),
      );
      expect(documents.map((d) => [d.id, d.score])).toEqual([
        ['s1', expect.closeTo(1, 6)],
        ['r2', expect.closeTo(Math.SQRT1_2, 6)],
        ['p1', 0],
        ['r1', 0],
        ['t1', 0],
        ['t2', 0],
      ]);
      expect(await ids('shipping', { topK: 6, similarityThreshold: 0.1 })).toEqual(['s1', 'r2']);
      expect(await ids('nothing', { topK: 3 })).toEqual(['p1', 'r1', 'r2']);
      expect(await ids('nothing', { topK: 3, filter: "topic == 'drinks'" })).toEqual(['t1', 't2']);
      expect(await ids('nothing', { similarityThreshold: 0.01 })).toEqual([]);
      expect(await ids('password', { topK: 3, filter: 'topic == null' })).toEqual(['z1']);
    });

    it('refuses a document with metadata it could not filter on, before embedding', async () => {
      const before = model.calls.length;
      const bad = [
        { id: 'x', text: 'tea', metadata: { nested: { a: 1 } } },
        { id: 'x', text: 'tea', metadata: { n: Number.NaN } },
        { id: 'x', text: 'tea', metadata: ['a'] },
      ] as unknown as Document[];
      for (const document of bad) {
        await expect(
          lastValueFrom(store.add([{ id: 'ok', text: 'tea', metadata: {} }, document])),
        ).rejects.toThrow(/documents\[1\]/);
      }
      expect(model.calls.length).toBe(before);
      expect(await ids('tea', { topK: 6 })).not.toContain('ok');
    });

    it('searches an emptied store and reports the query usage', async () => {
      expect(await lastValueFrom(store.delete(DOCS.map((d) => d.id)))).toBe(DOCS.length);
      expect(await lastValueFrom(store.delete([]))).toBe(0);
      const result = await lastValueFrom(store.similaritySearch({ query: 'tea green' }));
      expect(result).toEqual({
        documents: [],
        usage: { inputTokens: 1, outputTokens: undefined, totalTokens: 1 },
      });
    });

    it('cancels a search unsubscribed while the query is embedded', async () => {
      model.hang = true;
      const before = model.finalized;
      const values: unknown[] = [];
      store
        .similaritySearch({ query: 'tea' })
        .subscribe({ next: (v) => values.push(v) })
        .unsubscribe();
      expect(model.finalized).toBe(before + 1);
      expect(values).toEqual([]);
      model.hang = false;
      expect(await ids('tea', { topK: 1 })).toEqual(['t1']);
    });

    it('adds nothing for an empty list without calling the model', async () => {
      const before = model.calls.length;
      expect(await lastValueFrom(store.add([]))).toBe(0);
      expect(model.calls.length).toBe(before);
    });
  });
}
