import type { ChatModel } from '../../lib/index.js';
import type { AiSdkLanguageModel } from '../../lib/providers/ai-sdk/index.js';

/** The environment variables that run the demo on an AI SDK provider package. */
export interface AiSdkModelEnv {
  /** The provider package, e.g. `@ai-sdk/mistral` (installed next to the demo). */
  DEMO_AI_SDK_PROVIDER?: string | undefined;
  /** The model id, e.g. `mistral-small-latest`. */
  DEMO_AI_SDK_MODEL?: string | undefined;
  /** Passed to the provider factory as `baseURL` (a proxy, a self-hosted endpoint, a test server). */
  DEMO_AI_SDK_BASE_URL?: string | undefined;
  /** Passed as `apiKey`; without it the package reads its own variable (`MISTRAL_API_KEY`…). */
  DEMO_AI_SDK_API_KEY?: string | undefined;
}

/** The AI SDK model the demo runs. */
export interface AiSdkModelChoice {
  model: ChatModel;
  modelName: string;
  description: string;
}

/** An npm package name, scoped or not: nothing else is given to `import()`. */
const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

type ProviderFactory = (settings: Record<string, string>) => unknown;

/**
 * Loads an AI SDK provider package named by the environment (dynamic `import()`), makes its
 * provider with the package's `create…()` factory (`createMistral`, `createGoogleGenerativeAI`)
 * and wraps the language model in `AiSdkChatModel` (`rx-advisors/ai-sdk`).
 *
 * @example
 * ```ts
 * const { model, description } = await loadAiSdkModel({
 *   DEMO_AI_SDK_PROVIDER: '@ai-sdk/mistral',
 *   DEMO_AI_SDK_MODEL: 'mistral-small-latest',
 * });
 * ```
 * @param env The `DEMO_AI_SDK_*` variables.
 * @returns The model and a description; fails in words when the package is not installed,
 *   has no provider factory, or a variable is missing.
 */
export async function loadAiSdkModel(env: AiSdkModelEnv): Promise<AiSdkModelChoice> {
  const packageName = env.DEMO_AI_SDK_PROVIDER ?? '';
  if (!PACKAGE_NAME.test(packageName)) {
    throw new Error(
      `DEMO_AI_SDK_PROVIDER=${packageName} is not a package name (e.g. @ai-sdk/mistral or @ai-sdk/google).`,
    );
  }
  const modelName = env.DEMO_AI_SDK_MODEL ?? '';
  if (modelName === '') {
    throw new Error(
      `DEMO_AI_SDK_PROVIDER=${packageName} needs DEMO_AI_SDK_MODEL, the model id (e.g. mistral-small-latest).`,
    );
  }
  const exports = await importProvider(packageName);
  const factory = providerFactory(packageName, exports);
  const { DEMO_AI_SDK_BASE_URL: baseURL, DEMO_AI_SDK_API_KEY: apiKey } = env;
  const provider = factory({
    ...(baseURL ? { baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
  }) as { languageModel?: (id: string) => unknown } & ((id: string) => unknown);
  const languageModel = (id: string): AiSdkLanguageModel =>
    (typeof provider.languageModel === 'function'
      ? provider.languageModel(id)
      : provider(id)) as AiSdkLanguageModel;
  const { AiSdkChatModel } = await import('../../lib/providers/ai-sdk/index.js');
  return {
    modelName,
    model: new AiSdkChatModel({
      model: languageModel(modelName),
      resolveModel: languageModel,
      secrets: apiKey ? [apiKey] : [],
    }),
    description:
      `AI SDK provider ${packageName}, model ${modelName}` +
      (baseURL ? ` at ${baseURL}` : '') +
      ' (DEMO_AI_SDK_PROVIDER is set)',
  };
}

async function importProvider(packageName: string): Promise<Record<string, unknown>> {
  try {
    return (await import(packageName)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(
        `DEMO_AI_SDK_PROVIDER=${packageName}: the package is not installed. ` +
          `Install it next to the demo (npm install ${packageName}) or pick another provider.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The package's `create…()` export; with several, the one named after the package. */
function providerFactory(packageName: string, exports: Record<string, unknown>): ProviderFactory {
  const candidates = Object.keys(exports).filter(
    (name) => /^create[A-Z]/.test(name) && typeof exports[name] === 'function',
  );
  const short = packageName
    .replace(/^@[^/]+\//, '')
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase();
  const named = candidates.filter((name) => name.slice(6).toLowerCase().startsWith(short));
  const chosen =
    candidates.length === 1 ? candidates[0] : named.length === 1 ? named[0] : undefined;
  if (chosen === undefined) {
    throw new Error(
      `DEMO_AI_SDK_PROVIDER=${packageName} has ${
        candidates.length === 0 ? 'no' : 'more than one'
      } create…() provider factory${candidates.length > 1 ? ` (${candidates.join(', ')})` : ''}: ` +
        'is it an AI SDK provider package?',
    );
  }
  return exports[chosen] as ProviderFactory;
}
