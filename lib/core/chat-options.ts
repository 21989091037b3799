/**
 * Which tools the model may or must call.
 * `{ type: 'tool', name }` forces one tool.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/**
 * The answer format asked of the model. `json-schema` asks for the provider's native
 * structured output (OpenAI `json_schema`, Anthropic's equivalent).
 */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | {
      type: 'json-schema';
      schema: Record<string, unknown>;
      name?: string;
      description?: string;
      strict?: boolean;
    };

/**
 * Model options of one call. Provider adapters map what they support and ignore the rest;
 * `extra` is merged into the provider's request body as-is.
 *
 * @example
 * ```ts
 * import type { ChatOptions } from 'rx-advisors';
 * const options: ChatOptions = { model: 'gpt-4o-mini', temperature: 0, maxTokens: 500 };
 * ```
 */
export interface ChatOptions {
  model?: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
  /**
   * Prompt caching: where a provider that caches by explicit breakpoints marks the prompt,
   * and the cache key of providers that route by one (set by `PromptCachingAdvisor`).
   * Mapped by the native Anthropic and OpenAI adapters and by the AI SDK bridge; see
   * docs/providers.md.
   */
  promptCache?: PromptCacheOptions;
  /** Provider-specific request fields, merged into the request body unchanged. */
  extra?: Record<string, unknown>;
}

/**
 * A place in the prompt where a cache breakpoint pays: after the system prompt, after the
 * tool definitions, or at the end of the conversation (moving with it, so each tool-loop
 * round reads the prefix the previous round wrote).
 *
 * @example
 * ```ts
 * import type { PromptCacheBreakpoint } from 'rx-advisors';
 * const breakpoints: PromptCacheBreakpoint[] = ['system', 'tools', 'conversation'];
 * ```
 */
export type PromptCacheBreakpoint = 'system' | 'tools' | 'conversation';

/**
 * Prompt caching options of a request (`ChatOptions.promptCache`).
 *
 * @example
 * ```ts
 * import type { PromptCacheOptions } from 'rx-advisors';
 * const cache: PromptCacheOptions = { breakpoints: ['system', 'conversation'], ttl: '1h', key: 'tenant-7' };
 * ```
 */
export interface PromptCacheOptions {
  /** Where to place breakpoints (Anthropic `cache_control`); none when absent. */
  breakpoints?: readonly PromptCacheBreakpoint[];
  /** How long a breakpoint's entry lives (Anthropic); the provider's default (5 minutes) when absent. */
  ttl?: '5m' | '1h';
  /** A key that routes requests sharing a prefix to the same cache (OpenAI `prompt_cache_key`). */
  key?: string;
}
