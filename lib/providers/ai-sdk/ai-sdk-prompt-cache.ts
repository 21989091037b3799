import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import type { PromptCacheOptions } from '../../core/chat-options.js';
import type { AiSdkCallOptions } from './ai-sdk-language-model.js';

/**
 * Places the cache breakpoints as the AI SDK's Anthropic provider reads them
 * (`providerOptions.anthropic.cacheControl` on the last system message, the last tool and
 * the last message of the conversation) and the cache key as OpenAI's
 * (`providerOptions.openai.promptCacheKey`). Providers ignore other providers' options.
 * @internal
 * @param call The call options, changed in place.
 * @param cache The request's prompt cache options.
 */
export function applyPromptCache(call: AiSdkCallOptions, cache: PromptCacheOptions): void {
  const cacheControl =
    cache.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: cache.ttl };
  const marker: SharedV3ProviderOptions = { anthropic: { cacheControl } };
  for (const breakpoint of cache.breakpoints ?? []) {
    const target: { providerOptions?: SharedV3ProviderOptions } | undefined =
      breakpoint === 'tools' ? lastFunctionTool(call) : lastMessage(call, breakpoint);
    if (target !== undefined) {
      target.providerOptions = mergeProviderOptions(target.providerOptions ?? {}, marker);
    }
  }
  if (cache.key !== undefined) {
    call.providerOptions = mergeProviderOptions(call.providerOptions ?? {}, {
      openai: { promptCacheKey: cache.key },
    });
  }
}

/** The last function tool (the bridge sends no provider tools). */
function lastFunctionTool(call: AiSdkCallOptions): LanguageModelV3FunctionTool | undefined {
  const last = call.tools?.at(-1);
  return last?.type === 'function' ? last : undefined;
}

/** The last system message, or the last message of the conversation (any other role). */
function lastMessage(
  call: AiSdkCallOptions,
  breakpoint: 'system' | 'conversation',
): LanguageModelV3Message | undefined {
  for (let index = call.prompt.length - 1; index >= 0; index--) {
    const message = call.prompt[index];
    if ((message.role === 'system') === (breakpoint === 'system')) return message;
  }
  return undefined;
}

/**
 * Provider options merged per provider (`b`'s fields win).
 * @internal
 * @param a The first options.
 * @param b The options laid over them.
 * @returns A new object.
 */
export function mergeProviderOptions(
  a: SharedV3ProviderOptions,
  b: SharedV3ProviderOptions,
): SharedV3ProviderOptions {
  const merged: SharedV3ProviderOptions = { ...a };
  for (const [provider, value] of Object.entries(b))
    merged[provider] = { ...merged[provider], ...value };
  return merged;
}
