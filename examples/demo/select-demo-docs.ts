import type { EmbeddingModel } from '../../lib/index.js';
import { loadDemoDocs, type DemoDocs } from './demo-docs.js';
import { OfflineEmbeddingModel } from './offline-embedding-model.js';

/** The environment variables the demo reads for its documents. */
export interface DemoDocsEnv {
  /** Unset: the shipped `docs-set`; `off`: no documents; anything else: a folder of `.md`/`.txt` files. */
  DEMO_DOCS?: string | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  /** Default `text-embedding-3-small`. */
  OPENAI_EMBEDDING_MODEL?: string | undefined;
}

/**
 * Scores a source needs. The offline vectors count shared words, so a related question
 * scores ~0.15–0.6 and an unrelated one ~0–0.1; OpenAI's embeddings score unrelated texts
 * ~0.1–0.25, related ones from ~0.35.
 */
const OFFLINE_THRESHOLD = 0.15;
const OPENAI_THRESHOLD = 0.3;

/**
 * The demo's documents from the environment, embedded: with OpenAI
 * (`OpenAiEmbeddingModel`, `OPENAI_EMBEDDING_MODEL`) when `OPENAI_API_KEY` is set for OpenAI
 * itself (not with `OPENAI_BASE_URL`: a compatible server may have no embeddings), else
 * offline (`OfflineEmbeddingModel`).
 *
 * @example
 * ```ts
 * const docs = await selectDemoDocs({ env: { DEMO_DOCS: 'off' } }); // undefined
 * ```
 * @param options The environment (default `process.env`) and OpenAI's base URL.
 * @returns The documents, or `undefined` with `DEMO_DOCS=off`.
 */
export async function selectDemoDocs(
  options: { env?: DemoDocsEnv; openAiBaseURL?: string } = {},
): Promise<DemoDocs | undefined> {
  // openAiBaseURL: where OpenAI embeddings go (tests point it at a loopback server).
  const { env = process.env, openAiBaseURL = 'https://api.openai.com/v1' } = options;
  const setting = env.DEMO_DOCS ?? '';
  if (setting.toLowerCase() === 'off') return undefined;
  const dir = setting === '' ? undefined : setting;
  const openAi = Boolean(env.OPENAI_API_KEY) && !env.OPENAI_BASE_URL;
  let embeddingModel: EmbeddingModel;
  let embeddingDescription: string;
  if (openAi) {
    const modelName = env.OPENAI_EMBEDDING_MODEL || 'text-embedding-3-small';
    const [{ OpenAI }, { OpenAiEmbeddingModel }] = await Promise.all([
      import('openai'),
      import('../../lib/providers/openai/index.js'),
    ]);
    const client = new OpenAI({
      apiKey: env.OPENAI_API_KEY,
      baseURL: openAiBaseURL,
      maxRetries: 0,
    });
    embeddingModel = new OpenAiEmbeddingModel({ client, model: modelName });
    embeddingDescription = `OpenAI embeddings (${modelName})`;
  } else {
    embeddingModel = new OfflineEmbeddingModel();
    embeddingDescription = 'offline word-hash embeddings';
  }
  try {
    return await loadDemoDocs({
      ...(dir === undefined ? {} : { dir }),
      embeddingModel,
      similarityThreshold: openAi ? OPENAI_THRESHOLD : OFFLINE_THRESHOLD,
      embeddingDescription,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Loading the demo documents failed (${embeddingDescription}): ${message} ` +
        'Start without them with DEMO_DOCS=off.',
      { cause: error },
    );
  }
}
