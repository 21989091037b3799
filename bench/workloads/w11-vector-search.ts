import Database from 'better-sqlite3';
import { lastValueFrom, of } from 'rxjs';
import {
  InMemoryVectorStore,
  type Document,
  type EmbeddingModel,
  type EmbeddingResponse,
  type VectorStore,
} from 'rx-advisors/rag';
import { SqliteVectorStore } from 'rx-advisors/vector/sqlite';
import type { Report } from '../harness/report.js';
import { quartiles } from '../harness/stats.js';
import type { BenchConfig } from './config.js';

/** The vectors' length: a small sentence-embedding model's (all-MiniLM-L6-v2: 384). */
export const W11_DIMENSIONS = 384;
/** Documents carry `bucket` 0–9: `bucket == 3` keeps 10 %. */
export const W11_FILTER = 'bucket == 3';
export const W11_TOP_K = 4;
const USAGE = { inputTokens: 1, outputTokens: undefined, totalTokens: 1 } as const;

/** A deterministic vector for a seed (mulberry32), uniform in [-0.5, 0.5). */
export function w11Vector(seed: number, dimensions = W11_DIMENSIONS): number[] {
  let state = (seed * 0x9e3779b1) >>> 0;
  // Pushed, not `new Array(n)`: a packed array of doubles, as a parsed API response is.
  const vector: number[] = [];
  for (let i = 0; i < dimensions; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    vector.push(((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5);
  }
  return vector;
}

/**
 * Embeds `doc-<i>` and `query-<j>` texts to seeded vectors without any work worth timing,
 * so the bench measures the store, not the model.
 */
export class W11EmbeddingModel implements EmbeddingModel {
  readonly provider = 'w11';
  constructor(private readonly dimensions = W11_DIMENSIONS) {}
  embed(texts: readonly string[]) {
    return of<EmbeddingResponse>({
      embeddings: texts.map((text) => {
        const [kind, n] = text.split('-');
        return w11Vector(Number(n) + (kind === 'query' ? 1e9 : 0), this.dimensions);
      }),
      usage: USAGE,
    });
  }
}

/** Document `i`: text `doc-<i>`, metadata `{ bucket: i % 10 }`. */
export const w11Document = (i: number): Document => ({
  id: `d${String(i).padStart(6, '0')}`,
  text: `doc-${i}`,
  metadata: { bucket: i % 10 },
});

/** The two stores of W11, each filled with `size` documents. */
export async function w11Stores(
  size: number,
  dimensions = W11_DIMENSIONS,
): Promise<{ memory: InMemoryVectorStore; sqlite: SqliteVectorStore; close(): void }> {
  const embeddingModel = new W11EmbeddingModel(dimensions);
  const memory = new InMemoryVectorStore({ embeddingModel });
  const database = new Database(':memory:');
  const sqlite = new SqliteVectorStore({ database, embeddingModel });
  for (let start = 0; start < size; start += 5000) {
    const batch = Array.from({ length: Math.min(5000, size - start) }, (_, i) =>
      w11Document(start + i),
    );
    await lastValueFrom(memory.add(batch));
    await lastValueFrom(sqlite.add(batch));
  }
  return { memory, sqlite, close: () => database.close() };
}

/** One search of W11: query `j`, top 4, optionally the 10 % filter; the ids found. */
export async function w11Search(store: VectorStore, j: number, filtered: boolean) {
  const { documents } = await lastValueFrom(
    store.similaritySearch({
      query: `query-${j}`,
      topK: W11_TOP_K,
      ...(filtered ? { filter: W11_FILTER } : {}),
    }),
  );
  if (documents.length !== W11_TOP_K) throw new Error(`W11: ${documents.length} documents found`);
  return documents;
}

/**
 * W11 similarity search cost against store size: ms per `similaritySearch` (top 4, 384
 * dimensions, the query embedding free) of the in-memory store and the SQLite store
 * (sqlite-vec, an in-memory database: CPU, not disk), at 1,000, 10,000 and 100,000
 * documents, without a filter and with one that keeps 10 %. Both stores answer the same
 * ids (checked on every size before timing).
 */
export async function runW11(config: BenchConfig, report: Report): Promise<void> {
  const quick = config.w5.rounds < 20;
  const sizes = quick ? [1_000] : [1_000, 10_000, 100_000];
  for (const size of sizes) {
    const stores = await w11Stores(size);
    const plan = quick
      ? { warmup: 1, samples: 3 }
      : { warmup: 3, samples: size >= 100_000 ? 9 : 15 };
    for (const filtered of [false, true]) {
      const [fromMemory, fromSqlite] = [
        await w11Search(stores.memory, 0, filtered),
        await w11Search(stores.sqlite, 0, filtered),
      ];
      const ids = (documents: typeof fromMemory) => documents.map((d) => d.id).join();
      if (ids(fromMemory) !== ids(fromSqlite)) {
        throw new Error(
          `W11: the stores disagree at ${size}: ${ids(fromMemory)} / ${ids(fromSqlite)}`,
        );
      }
      const samples = new Map<string, number[]>([
        ['in-memory', []],
        ['sqlite', []],
      ]);
      // Interleaved, so machine drift hits both stores alike.
      for (let run = 0; run < plan.warmup + plan.samples; run++) {
        for (const [name, store] of [
          ['in-memory', stores.memory],
          ['sqlite', stores.sqlite],
        ] as const) {
          const started = performance.now();
          await w11Search(store, run + 1, filtered);
          if (run >= plan.warmup) samples.get(name)?.push(performance.now() - started);
        }
      }
      for (const [store, values] of samples) {
        report.addRow({
          workload: 'W11',
          params: { store, documents: size, filter: filtered ? '10%' : 'none', topK: W11_TOP_K },
          framework: 'rx-advisors',
          metric: 'ms-per-search',
          ...quartiles(values),
        });
      }
    }
    stores.close();
  }
}
