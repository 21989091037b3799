import {
  W11_TOP_K,
  w11Document,
  w11Search,
  w11Stores,
  w11Vector,
} from '../../bench/workloads/w11-vector-search';

// Not a benchmark: W11's stores, at a small size, must find what an exact search over the
// same vectors finds, so a broken store fails CI instead of publishing a fast wrong number.
const SIZE = 1_000;
const DIMENSIONS = 64;

function exactTopK(query: number, filtered: boolean): string[] {
  const q = w11Vector(query + 1e9, DIMENSIONS);
  const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
  const scored = Array.from({ length: SIZE }, (_, i) => {
    const v = w11Vector(i, DIMENSIONS);
    const dot = v.reduce((sum, x, k) => sum + x * (q[k] ?? 0), 0);
    return { i, score: dot / (norm(v) * norm(q)) };
  }).filter(({ i }) => !filtered || i % 10 === 3);
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, W11_TOP_K).map(({ i }) => w11Document(i).id);
}

describe('W11 vector search workload', () => {
  let stores: Awaited<ReturnType<typeof w11Stores>>;
  beforeAll(async () => {
    stores = await w11Stores(SIZE, DIMENSIONS);
  });
  afterAll(() => stores.close());

  it.each([
    [0, false],
    [1, false],
    [2, true],
    [3, true],
  ])('query %d (filtered: %s): both stores find the exact top 4', async (query, filtered) => {
    const expected = exactTopK(query, filtered);
    for (const store of [stores.memory, stores.sqlite]) {
      const documents = await w11Search(store, query, filtered);
      expect(documents.map((d) => d.id)).toEqual(expected);
      if (filtered) expect(documents.every((d) => d.metadata['bucket'] === 3)).toBe(true);
    }
  });
});
