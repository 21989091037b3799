// Consumer check of `rx-advisors/vector/sqlite` (see root.ts).
import type Database from 'better-sqlite3';
import { lastValueFrom } from 'rxjs';
import type { EmbeddingModel, ScoredDocument } from 'rx-advisors/rag';
import { SqliteVectorStore, type SqliteVectorStoreOptions } from 'rx-advisors/vector/sqlite';

export async function search(
  database: Database.Database,
  embeddingModel: EmbeddingModel,
): Promise<readonly ScoredDocument[]> {
  const options: SqliteVectorStoreOptions = { database, embeddingModel, tableName: 'faq' };
  const store = new SqliteVectorStore(options);
  const { documents } = await lastValueFrom(
    store.similaritySearch({ query: 'refund', topK: 3, filter: "topic == 'billing'" }),
  );
  return documents;
}
