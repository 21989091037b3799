import type { ChatModel } from '../../lib/index.js';
import { loadAiSdkModel, type AiSdkModelEnv } from './load-ai-sdk-model.js';
import { OfflineDemoModel, type OfflineDemoModelOptions } from './offline-demo-model.js';

/** The environment variables the demo reads to pick its model. */
export interface DemoModelEnv extends AiSdkModelEnv {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  OPENAI_MODEL?: string | undefined;
  ANTHROPIC_API_KEY?: string | undefined;
  ANTHROPIC_MODEL?: string | undefined;
  /** Force a choice: `ai-sdk`, `openai`, `openai-compatible`, `anthropic` or `offline`. */
  DEMO_PROVIDER?: string | undefined;
}

/** Which kind of model the demo runs. */
export type DemoModelKind = 'ai-sdk' | 'openai' | 'openai-compatible' | 'anthropic' | 'offline';

/** The model the demo picked, and how to describe it on the page and in the log. */
export interface DemoModelChoice {
  kind: DemoModelKind;
  model: ChatModel;
  /** The model name sent to the provider. */
  modelName: string;
  /** One line for humans: what runs and why. */
  description: string;
}

/** Options of {@link selectDemoModel}. */
export interface SelectDemoModelOptions {
  /** Default `process.env`. */
  env?: DemoModelEnv;
  /** Pacing of the offline model. */
  offline?: OfflineDemoModelOptions;
}

const KINDS: readonly DemoModelKind[] = [
  'ai-sdk',
  'openai',
  'openai-compatible',
  'anthropic',
  'offline',
];

/**
 * Picks the demo's model from the environment:
 * 0. `DEMO_AI_SDK_PROVIDER` set: that AI SDK provider package (`@ai-sdk/mistral`…), with
 *    `DEMO_AI_SDK_MODEL`, optional `DEMO_AI_SDK_BASE_URL` and `DEMO_AI_SDK_API_KEY`, loaded
 *    with `import()` and wrapped in `AiSdkChatModel`;
 * 1. `OPENAI_BASE_URL` set: that OpenAI-compatible server (Ollama, vLLM, LM Studio…), with
 *    `OPENAI_API_KEY` when set, through the `openai` SDK's `baseURL`;
 * 2. `OPENAI_API_KEY` set: OpenAI;
 * 3. `ANTHROPIC_API_KEY` set: Anthropic;
 * 4. otherwise the offline demo model.
 * `OPENAI_MODEL` / `ANTHROPIC_MODEL` name the model; `DEMO_PROVIDER` forces a choice.
 * The SDKs are loaded only when chosen, so the offline demo starts fast.
 *
 * @example
 * ```ts
 * const { model, description } = await selectDemoModel({ env: { ANTHROPIC_API_KEY: 'sk-ant-…' } });
 * console.log(description); // Anthropic, model claude-sonnet-4-5 (ANTHROPIC_API_KEY is set)
 * ```
 * @param options The environment and the offline model's pacing.
 * @returns The model and a description.
 */
export async function selectDemoModel(
  options: SelectDemoModelOptions = {},
): Promise<DemoModelChoice> {
  const { env = process.env, offline } = options;
  const kind = kindOf(env);
  switch (kind) {
    case 'ai-sdk': {
      if (!env.DEMO_AI_SDK_PROVIDER) {
        throw new Error(
          'DEMO_PROVIDER=ai-sdk needs DEMO_AI_SDK_PROVIDER (a provider package, e.g. @ai-sdk/mistral) and DEMO_AI_SDK_MODEL.',
        );
      }
      return { kind, ...(await loadAiSdkModel(env)) };
    }
    case 'openai-compatible': {
      const baseURL = env.OPENAI_BASE_URL;
      if (baseURL === undefined || baseURL === '') {
        throw new Error(
          'DEMO_PROVIDER=openai-compatible needs OPENAI_BASE_URL (e.g. http://localhost:11434/v1).',
        );
      }
      const modelName = env.OPENAI_MODEL || 'llama3.2';
      const { OpenAI, OpenAiChatModel } = await loadOpenAi();
      const client = new OpenAI({ baseURL, apiKey: env.OPENAI_API_KEY || 'not-needed' });
      return {
        kind,
        modelName,
        model: new OpenAiChatModel({ client, model: modelName, provider: 'openai-compatible' }),
        description: `OpenAI-compatible server ${baseURL}, model ${modelName} (OPENAI_BASE_URL is set)`,
      };
    }
    case 'openai': {
      const modelName = env.OPENAI_MODEL || 'gpt-4o-mini';
      const { OpenAI, OpenAiChatModel } = await loadOpenAi();
      const client = new OpenAI({
        apiKey: env.OPENAI_API_KEY,
        baseURL: 'https://api.openai.com/v1',
      });
      return {
        kind,
        modelName,
        model: new OpenAiChatModel({ client, model: modelName }),
        description: `OpenAI, model ${modelName} (OPENAI_API_KEY is set)`,
      };
    }
    case 'anthropic': {
      const modelName = env.ANTHROPIC_MODEL || 'claude-sonnet-4-5';
      const { Anthropic } = await import('@anthropic-ai/sdk');
      const { AnthropicChatModel } = await import('../../lib/providers/anthropic/index.js');
      const client = new Anthropic({ apiKey: env.ANTHROPIC_API_KEY ?? null });
      return {
        kind,
        modelName,
        model: new AnthropicChatModel({ client, model: modelName, maxTokens: 1024 }),
        description: `Anthropic, model ${modelName} (ANTHROPIC_API_KEY is set)`,
      };
    }
    case 'offline': {
      const model = new OfflineDemoModel(offline);
      return {
        kind,
        modelName: model.model,
        model,
        description:
          'the offline demo model (set OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENAI_BASE_URL or DEMO_AI_SDK_PROVIDER for a real one)',
      };
    }
  }
}

function kindOf(env: DemoModelEnv): DemoModelKind {
  const forced = env.DEMO_PROVIDER;
  if (forced !== undefined && forced !== '') {
    if ((KINDS as readonly string[]).includes(forced)) return forced as DemoModelKind;
    throw new Error(`DEMO_PROVIDER=${forced} is not one of ${KINDS.join(', ')}.`);
  }
  if (env.DEMO_AI_SDK_PROVIDER) return 'ai-sdk';
  if (env.OPENAI_BASE_URL) return 'openai-compatible';
  if (env.OPENAI_API_KEY) return 'openai';
  if (env.ANTHROPIC_API_KEY) return 'anthropic';
  return 'offline';
}

async function loadOpenAi() {
  const [{ OpenAI }, { OpenAiChatModel }] = await Promise.all([
    import('openai'),
    import('../../lib/providers/openai/index.js'),
  ]);
  return { OpenAI, OpenAiChatModel };
}
