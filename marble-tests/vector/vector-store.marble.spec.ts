import Database from 'better-sqlite3';
import { lastValueFrom, of, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import {
  type EmbeddingError,
  InMemoryVectorStore,
  type EmbeddingModel,
  type EmbeddingResponse,
  type SearchResult,
  type VectorStore,
} from '../../lib/index';
import { SqliteVectorStore } from '../../lib/vector/sqlite/index';
import { vocabularyVector } from '../../spec/vector/support/vocabulary-embedding-model';
import { createTestScheduler } from '../support/test-scheduler';

const USAGE = { inputTokens: 1, outputTokens: undefined, totalTokens: 1 };
const response = (...texts: string[]): EmbeddingResponse => ({
  embeddings: texts.map((text) => vocabularyVector(text)),
  usage: USAGE,
});

/** An embedding model that answers every call with `next` (set by each test). */
class SwitchableModel implements EmbeddingModel {
  readonly provider = 'marble';
  next: Observable<EmbeddingResponse> = of(response());
  embed(): Observable<EmbeddingResponse> {
    return this.next;
  }
}

const stores: [string, (model: EmbeddingModel) => VectorStore][] = [
  ['InMemoryVectorStore', (embeddingModel) => new InMemoryVectorStore({ embeddingModel })],
  [
    'SqliteVectorStore',
    (embeddingModel) =>
      new SqliteVectorStore({ database: new Database(':memory:'), embeddingModel }),
  ],
];

describe.each(stores)('%s (marble)', (_name, create) => {
  let testScheduler: TestScheduler;
  let model: SwitchableModel;
  let store: VectorStore;

  beforeEach(async () => {
    testScheduler = createTestScheduler();
    model = new SwitchableModel();
    store = create(model);
    model.next = of(response('green tea'));
    await lastValueFrom(store.add([{ id: 't1', text: 'green tea', metadata: {} }]));
  });

  it('searches when the query embedding arrives, then completes', () => {
    const found: SearchResult = {
      documents: [
        { id: 't1', text: 'green tea', metadata: {}, score: expect.closeTo(1, 6) as number },
      ],
      usage: USAGE,
    };
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const embed$ = cold('---(r|)', { r: response('green tea') });
      model.next = embed$;
      expectObservable(store.similaritySearch({ query: 'green tea' })).toBe('---(r|)', {
        r: found,
      });
      expectSubscriptions(embed$.subscriptions).toBe('^--!');
    });
  });

  it('cancels the embedding call of a search unsubscribed before it answers', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const embed$ = cold('-----(r|)', { r: response('green tea') });
      model.next = embed$;
      expectObservable(store.similaritySearch({ query: 'green tea' }), '^-!').toBe('---');
      expectSubscriptions(embed$.subscriptions).toBe('^-!');
    });
  });

  it('fails a search with an EmbeddingError at the frame the model fails', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const cause = new Error('quota');
      model.next = cold('--#', undefined, cause);
      expectObservable(store.similaritySearch({ query: 'tea' })).toBe(
        '--#',
        undefined,
        expect.objectContaining({ name: 'EmbeddingError', cause }) as EmbeddingError,
      );
    });
  });

  it('stores nothing from an add unsubscribed while embedding, and is cold', async () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const embed$ = cold('----(r|)', { r: response('coffee') });
      model.next = embed$;
      const add$ = store.add([{ id: 'c1', text: 'coffee', metadata: {} }]);
      expectObservable(add$, '^--!').toBe('----');
      expectSubscriptions(embed$.subscriptions).toBe('^--!');
    });
    model.next = of(response('coffee'));
    const { documents } = await lastValueFrom(store.similaritySearch({ query: 'coffee' }));
    expect(documents.map((d) => d.id)).toEqual(['t1']);
  });
});
