import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lastValueFrom } from 'rxjs';
import {
  InMemoryVectorStore,
  type Document,
  type EmbeddingModel,
  type VectorStore,
} from '../../lib/index.js';

/** The documents shipped with the demo (`examples/demo/docs-set/`). */
export const DEMO_DOCS_DIR = join(__dirname, 'docs-set');

/** At most this many files, of at most this many characters each, are loaded. */
const MAX_FILES = 200;
const MAX_FILE_CHARS = 20_000;

/** The demo's documents, embedded and ready to search. */
export interface DemoDocs {
  readonly vectorStore: VectorStore;
  /** The loaded documents (ids are the file names without extension). */
  readonly documents: readonly Document[];
  /** Scores below this are not sources (it depends on the embedding model). */
  readonly similarityThreshold: number;
  /** One line for the log and the page. */
  readonly description: string;
}

/** Options of {@link loadDemoDocs}. */
export interface LoadDemoDocsOptions {
  /** The folder of `.md` / `.txt` files; default the shipped `docs-set`. */
  dir?: string;
  /** How the documents and questions are embedded. */
  embeddingModel: EmbeddingModel;
  /** Minimum cosine similarity of a source. */
  similarityThreshold: number;
  /** Says which embeddings run, for the description. */
  embeddingDescription: string;
}

/**
 * Reads the `.md` and `.txt` files of a folder (one document each: id = the file name
 * without extension; metadata `title` = the first `# ` heading, `filename`, `mediaType`),
 * embeds them into an `InMemoryVectorStore`, and returns it.
 *
 * @example
 * ```ts
 * const docs = await loadDemoDocs({ embeddingModel: new OfflineEmbeddingModel(), similarityThreshold: 0.3, embeddingDescription: 'offline' });
 * await startDemoServer({ docs });
 * ```
 * @param options The folder, the embedding model and the threshold.
 * @returns The embedded documents.
 */
export async function loadDemoDocs(options: LoadDemoDocsOptions): Promise<DemoDocs> {
  const dir = resolve(options.dir ?? DEMO_DOCS_DIR);
  const files = readdirSync(dir)
    .filter((name) => /\.(md|txt)$/i.test(name))
    .sort()
    .slice(0, MAX_FILES);
  if (files.length === 0) throw new Error(`No .md or .txt files in ${dir}.`);
  const documents = files.map((filename): Document => {
    const text = readFileSync(join(dir, filename), 'utf8').slice(0, MAX_FILE_CHARS).trim();
    const heading = /^#\s+(.+)$/m.exec(text)?.[1]?.trim();
    return {
      id: filename.replace(/\.(md|txt)$/i, ''),
      text,
      metadata: {
        title: heading ?? filename,
        filename,
        mediaType: /\.md$/i.test(filename) ? 'text/markdown' : 'text/plain',
      },
    };
  });
  const vectorStore = new InMemoryVectorStore({ embeddingModel: options.embeddingModel });
  await lastValueFrom(vectorStore.add(documents));
  return {
    vectorStore,
    documents,
    similarityThreshold: options.similarityThreshold,
    description: `${documents.length} documents from ${dir}, ${options.embeddingDescription}`,
  };
}
