import type { ChatOptions } from '../../core/chat-options.js';

/**
 * The options of one call: the model's defaults under the request's own, with both
 * `extra` records merged (the request's fields win).
 * @internal
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
  return merged;
}
