import type { ChatOptions } from '../../core/chat-options.js';

/**
 * The options of one call: the model's defaults under the request's own, with both
 * `extra` records and both `promptCache` objects merged field by field (the request's
 * fields win: a model-level cache `key` survives a request that only sets breakpoints).
 *
 * @example
 * ```ts
 * import { mergeOptions } from 'rx-advisors/provider-kit';
 *
 * mergeOptions({ temperature: 0, extra: { seed: 1 } }, { extra: { user: 'u1' } });
 * // { temperature: 0, extra: { seed: 1, user: 'u1' } }
 * ```
 * @param defaults The options given to the model's constructor.
 * @param options The request's options.
 * @returns The merged options (the request's object itself when there are no defaults).
 */
export function mergeOptions(defaults: ChatOptions | undefined, options: ChatOptions): ChatOptions {
  if (defaults === undefined) return options;
  const merged: ChatOptions = { ...defaults, ...options };
  if (defaults.extra !== undefined && options.extra !== undefined) {
    merged.extra = { ...defaults.extra, ...options.extra };
  }
  if (defaults.promptCache !== undefined && options.promptCache !== undefined) {
    merged.promptCache = { ...defaults.promptCache, ...options.promptCache };
  }
  return merged;
}
