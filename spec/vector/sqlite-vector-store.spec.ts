import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { load as loadSqliteVec } from 'sqlite-vec';
import {
  InvalidOptionsError,
  VectorDimensionError,
  VectorStoreError,
  type FilterExpression,
} from '../../lib/index';
import { SqliteChatMemoryRepository } from '../../lib/memory/sqlite/index';
import { SqliteVectorStore } from '../../lib/vector/sqlite/index';
import { describeVectorStoreContract } from './support/vector-store-contract';
import { VocabularyEmbeddingModel } from './support/vocabulary-embedding-model';

const open: Database.Database[] = [];
const database = (file = ':memory:', options?: Database.Options): Database.Database => {
  const db = new Database(file, options);
  open.push(db);
  return db;
};
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
});

describeVectorStoreContract(
  'SqliteVectorStore',
  (embeddingModel) => new SqliteVectorStore({ database: database(), embeddingModel }),
);

describe('SqliteVectorStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rx-advisors-vector-'));
  });
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = async (store: SqliteVectorStore, query: string, extra: object = {}) =>
    (await lastValueFrom(store.similaritySearch({ query, ...extra }))).documents;

  it('keeps documents, metadata and dimensions across a reopen of the file', async () => {
    const file = join(dir, 'app.db');
    const first = new SqliteVectorStore({
      database: database(file),
      embeddingModel: new VocabularyEmbeddingModel(),
    });
    await lastValueFrom(
      first.add([
        { id: 'a', text: 'green tea', metadata: { topic: 'drinks', year: 2024, hot: true } },
        { id: 'b', text: 'refund', metadata: { topic: 'billing', note: null } },
      ]),
    );
    open[0]?.close();

    const model = new VocabularyEmbeddingModel();
    const again = new SqliteVectorStore({ database: database(file), embeddingModel: model });
    expect(await search(again, 'tea', { topK: 1 })).toEqual([
      {
        id: 'a',
        text: 'green tea',
        metadata: { topic: 'drinks', year: 2024, hot: true },
        score: expect.closeTo(Math.SQRT1_2, 6) as number,
      },
    ]);
    expect((await search(again, 'refund', { filter: 'note == null && year == null' }))[0]?.id).toBe(
      'b',
    );
    model.extraDimensions = 1; // another model: the stored dimensions still hold
    await expect(
      lastValueFrom(again.add([{ id: 'c', text: 'tea', metadata: {} }])),
    ).rejects.toThrow(VectorDimensionError);
  });

  it('refuses configured dimensions that differ from the stored table', async () => {
    const file = join(dir, 'dims.db');
    const embeddingModel = new VocabularyEmbeddingModel();
    await lastValueFrom(
      new SqliteVectorStore({ database: database(file), embeddingModel }).add([
        { id: 'a', text: 'tea', metadata: {} },
      ]),
    );
    const store = new SqliteVectorStore({
      database: database(file),
      embeddingModel,
      dimensions: 3,
    });
    const error = await lastValueFrom(store.similaritySearch({ query: 'tea' })).catch(
      (e: unknown) => e,
    );
    expect(VectorDimensionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ expected: 6, actual: 3 });
  });

  it('checks the first add against configured dimensions and stores nothing', async () => {
    const db = database();
    const store = new SqliteVectorStore({
      database: db,
      embeddingModel: new VocabularyEmbeddingModel(),
      dimensions: 3,
    });
    await expect(
      lastValueFrom(store.add([{ id: 'a', text: 'tea', metadata: {} }])),
    ).rejects.toThrow(VectorDimensionError);
    expect(db.prepare('SELECT count(*) AS n FROM rx_advisors_vector_store').get()).toEqual({
      n: 0,
    });
  });

  it('sees the vector table another connection created, and its dimensions', async () => {
    const file = join(dir, 'two.db');
    const other = new VocabularyEmbeddingModel();
    const first = new SqliteVectorStore({ database: database(file), embeddingModel: other });
    const model = new VocabularyEmbeddingModel();
    const second = new SqliteVectorStore({ database: database(file), embeddingModel: model });
    expect(await search(second, 'tea')).toEqual([]); // opened while empty
    await lastValueFrom(first.add([{ id: 'a', text: 'green tea', metadata: {} }]));
    expect((await search(second, 'tea')).map((d) => d.id)).toEqual(['a']);
    model.extraDimensions = 2;
    const error = await lastValueFrom(second.add([{ id: 'b', text: 'tea', metadata: {} }])).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VectorDimensionError);
    expect(error).toMatchObject({ expected: 6, actual: 8 });
  });

  it('shares one database with the SQLite chat memory', async () => {
    const db = database(join(dir, 'shared.db'));
    const memory = new SqliteChatMemoryRepository({ database: db });
    const store = new SqliteVectorStore({
      database: db,
      embeddingModel: new VocabularyEmbeddingModel(),
    });
    await memory.saveAll('c1', [{ role: 'user', content: 'hi' }]);
    await lastValueFrom(store.add([{ id: 'a', text: 'coffee', metadata: {} }]));
    expect(await memory.findByConversationId('c1')).toEqual([{ role: 'user', content: 'hi' }]);
    expect((await search(store, 'coffee'))[0]?.id).toBe('a');
  });

  it('uses sqlite-vec when the application loaded it already', async () => {
    const db = database();
    loadSqliteVec(db);
    const store = new SqliteVectorStore({
      database: db,
      embeddingModel: new VocabularyEmbeddingModel(),
    });
    await lastValueFrom(store.add([{ id: 'a', text: 'coffee', metadata: {} }]));
    expect((await search(store, 'coffee'))[0]?.id).toBe('a');
  });

  it('fails with a VectorStoreError on a closed or read-only database', async () => {
    const file = join(dir, 'ro.db');
    const embeddingModel = new VocabularyEmbeddingModel();
    const writable = database(file);
    await lastValueFrom(
      new SqliteVectorStore({ database: writable, embeddingModel }).add([
        { id: 'a', text: 'tea', metadata: {} },
      ]),
    );
    writable.close();
    const closed = await lastValueFrom(
      new SqliteVectorStore({ database: writable, embeddingModel }).similaritySearch({
        query: 'tea',
      }),
    ).catch((e: unknown) => e);
    expect(VectorStoreError.isInstance(closed)).toBe(true);
    expect((closed as VectorStoreError).message).toMatch(/closed/);

    const readonly = new SqliteVectorStore({
      database: database(file, { readonly: true }),
      embeddingModel,
    });
    expect((await search(readonly, 'tea'))[0]?.id).toBe('a');
    const error = await lastValueFrom(
      readonly.add([{ id: 'b', text: 'coffee', metadata: {} }]),
    ).catch((e: unknown) => e);
    expect(VectorStoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      operation: 'add',
      code: expect.stringMatching(/^SQLITE_READONLY/) as string,
    });
    expect(await lastValueFrom(readonly.delete(['zzz']))).toBe(0);
  });

  it('fails with a VectorStoreError on a damaged row', async () => {
    const db = database();
    const store = new SqliteVectorStore({
      database: db,
      embeddingModel: new VocabularyEmbeddingModel(),
    });
    await lastValueFrom(store.add([{ id: 'a', text: 'tea', metadata: {} }]));
    db.prepare(`UPDATE rx_advisors_vector_store SET metadata = '[1'`).run();
    const error = await lastValueFrom(store.similaritySearch({ query: 'tea' })).catch(
      (e: unknown) => e,
    );
    expect(VectorStoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/damaged.*"a"/);
  });

  it('validates its options', () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const db = database();
    expect(() => new SqliteVectorStore({ embeddingModel } as never)).toThrow(/database/);
    expect(() => new SqliteVectorStore({ database: {} as never, embeddingModel })).toThrow(
      InvalidOptionsError,
    );
    expect(() => new SqliteVectorStore({ database: db } as never)).toThrow(/embeddingModel/);
    expect(
      () => new SqliteVectorStore({ database: db, embeddingModel, tableName: 'x"; DROP' }),
    ).toThrow(/tableName/);
    expect(() => new SqliteVectorStore({ database: db, embeddingModel, maxTopK: 4096 })).toThrow(
      /maxTopK/,
    );
  });

  it('keeps two stores in one database apart by table name', async () => {
    const db = database();
    const embeddingModel = new VocabularyEmbeddingModel();
    const faq = new SqliteVectorStore({ database: db, embeddingModel, tableName: 'faq' });
    const notes = new SqliteVectorStore({ database: db, embeddingModel, tableName: 'notes' });
    await lastValueFrom(faq.add([{ id: 'a', text: 'tea', metadata: {} }]));
    await lastValueFrom(notes.add([{ id: 'b', text: 'tea', metadata: {} }]));
    expect((await search(faq, 'tea')).map((d) => d.id)).toEqual(['a']);
    expect((await search(notes, 'tea')).map((d) => d.id)).toEqual(['b']);
  });

  it('refuses filter trees it cannot translate, with nothing spliced into SQL', async () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const store = new SqliteVectorStore({ database: database(), embeddingModel });
    await lastValueFrom(store.add([{ id: 'a', text: 'tea', metadata: { 'k"': 1 } }]));
    const bad: FilterExpression[] = [
      { type: 'compare', key: 'k"', operator: '==', value: 1 },
      { type: 'compare', key: 'year', operator: '< 0 OR 1 = 1 --' as never, value: 1 },
      { type: 'compare', key: 'year', operator: '==', value: { a: 1 } as never },
      { type: 'in', key: 'year', values: 'x' as never },
      { type: 'xor' } as never,
    ];
    const before = embeddingModel.calls.length;
    for (const filter of bad) {
      await expect(lastValueFrom(store.similaritySearch({ query: 'tea', filter }))).rejects.toThrow(
        InvalidOptionsError,
      );
    }
    expect(embeddingModel.calls.length).toBe(before);
  });

  it('breaks ties by id past what one sqlite-vec query returns (4,096)', async () => {
    const embeddingModel = new VocabularyEmbeddingModel();
    const store = new SqliteVectorStore({ database: database(), embeddingModel });
    const copies = Array.from({ length: 5000 }, (_, i) => ({
      id: `d${String(4999 - i).padStart(4, '0')}`,
      text: 'tea',
      metadata: { even: i % 2 === 0 },
    }));
    await lastValueFrom(store.add([...copies, { id: 'top', text: 'tea tea green', metadata: {} }]));
    expect((await search(store, 'tea', { topK: 3 })).map((d) => d.id)).toEqual([
      'd0000',
      'd0001',
      'd0002',
    ]);
    expect(
      (await search(store, 'tea', { topK: 2, filter: 'even == false' })).map((d) => d.id),
    ).toEqual(['d0000', 'd0002']);
    expect((await search(store, 'green', { topK: 2 })).map((d) => d.id)).toEqual(['top', 'd0000']);
  });
});
