// A worker thread for set-up-race.spec.ts: for round i = 0, 1, …, waits until the spec
// releases round i, then sets a store up on `<folder>/race-<i>.db` (a new file, which the
// other workers set up at the same moment) and reports 'ok' or the SQLite code it met.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteChatMemoryRepository } from '../../../lib/memory/sqlite/index';
import { SqliteRunJournal } from '../../../lib/run/sqlite/index';
import Database from 'better-sqlite3';
import { lastValueFrom } from 'rxjs';
import { SqliteVectorStore } from '../../../lib/vector/sqlite/index';
import { VocabularyEmbeddingModel } from '../../vector/support/vocabulary-embedding-model';

const { folder, rounds, store, release } = workerData as {
  folder: string;
  rounds: number;
  store: 'run-journal' | 'chat-memory' | 'vector-store';
  release: Int32Array;
};

async function setUp(file: string): Promise<void> {
  if (store === 'run-journal') {
    const journal = new SqliteRunJournal({ path: file, tableName: 'runs' });
    try {
      await journal.read({ owner: 'o', runId: 'r' });
    } finally {
      journal.close();
    }
    return;
  }
  const database = new Database(file);
  try {
    if (store === 'chat-memory') {
      await new SqliteChatMemoryRepository({ database }).findByConversationId('c');
    } else {
      const embeddingModel = new VocabularyEmbeddingModel();
      const vectors = new SqliteVectorStore({ database, embeddingModel });
      await lastValueFrom(vectors.similaritySearch({ query: 'refund', topK: 1 }));
    }
  } finally {
    database.close();
  }
}

async function main(): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    Atomics.wait(release, 0, round); // until the spec moves the round past `round`
    const outcome = await setUp(join(folder, `race-${round}.db`)).then(
      () => 'ok',
      (error: unknown) => {
        const cause = (error as { cause?: { code?: unknown } }).cause;
        return String(cause?.code ?? (error as { code?: unknown }).code ?? error);
      },
    );
    parentPort?.postMessage({ round, outcome });
  }
}

void main();
