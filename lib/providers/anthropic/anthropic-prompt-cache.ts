import type Anthropic from '@anthropic-ai/sdk';
import type { PromptCacheOptions } from '../../core/chat-options.js';

type MessageCreateParamsStreaming = Anthropic.MessageCreateParamsStreaming;
type Block = Anthropic.ContentBlockParam;

/**
 * Places Anthropic `cache_control` breakpoints in a Messages body, where the request's
 * prompt cache options ask (`PromptCachingAdvisor` sets them): on the system prompt (sent
 * as one text block), on the last tool definition, and on the last block of the last
 * message, so the next tool-loop round reads the prefix this one writes. At most three of
 * the API's four breakpoints.
 * @internal
 * @param body The body, changed in place.
 * @param cache The request's prompt cache options.
 */
export function applyAnthropicPromptCache(
  body: MessageCreateParamsStreaming,
  cache: PromptCacheOptions,
): void {
  const cacheControl: Anthropic.CacheControlEphemeral =
    cache.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: cache.ttl };
  for (const breakpoint of cache.breakpoints ?? []) {
    switch (breakpoint) {
      case 'system':
        if (typeof body.system === 'string') {
          body.system = [{ type: 'text', text: body.system, cache_control: cacheControl }];
        }
        break;
      case 'tools': {
        const last = body.tools?.at(-1);
        if (last !== undefined) last.cache_control = cacheControl;
        break;
      }
      case 'conversation': {
        const block = lastCacheableBlock(body.messages.at(-1)?.content);
        if (block !== undefined) block.cache_control = cacheControl;
        break;
      }
    }
  }
}

/** The last block that may carry `cache_control` (thinking blocks may not). */
function lastCacheableBlock(
  content: MessageCreateParamsStreaming['messages'][number]['content'] | undefined,
): Exclude<Block, Anthropic.ThinkingBlockParam | Anthropic.RedactedThinkingBlockParam> | undefined {
  if (content === undefined || typeof content === 'string') return undefined;
  for (let index = content.length - 1; index >= 0; index--) {
    const block = content[index];
    if (block.type !== 'thinking' && block.type !== 'redacted_thinking') return block;
  }
  return undefined;
}
