import type { ChatRequest } from '../../core/chat-request.js';
import type { Message } from '../../core/message.js';
import { ProviderError } from '../../errors/provider-error.js';
import { UnsupportedMediaError } from '../../errors/unsupported-media-error.js';

/** The marker of the AI SDK's `UnsupportedFunctionalityError` (checked without importing it). */
const UNSUPPORTED_MARKER = Symbol.for('vercel.ai.error.AI_UnsupportedFunctionalityError');

/** What the provider packages' refusals of a prompt part say ("file part media type …"). */
const MEDIA_WORDS = /\b(file|image|media|pdf|audio|video|document)s?\b/i;

/**
 * Whether a message list has a media part given by URL (then the model's `supportedUrls`
 * is needed before the call).
 * @internal
 */
export function hasUrlMedia(messages: readonly Message[]): boolean {
  for (const message of messages) {
    if (message.role !== 'user' && message.role !== 'tool') continue;
    for (const part of message.media ?? []) if ('url' in part.data) return true;
  }
  return false;
}

/**
 * An `UnsupportedMediaError` for what a provider package throws while it converts the
 * prompt, before any HTTP request, when it cannot take a part (`@ai-sdk/mistral`: "Only
 * images and PDF file parts are supported"): an `UnsupportedFunctionalityError` about a
 * file, image or media part, on a request that carries media. The error names every media type of the request, since the
 * provider does not say which part it refused. `undefined` for any other error.
 * @param error What the call failed with (a ProviderError whose cause is the package's error).
 * @param request The request.
 * @param provider The bridge's provider name.
 * @internal
 */
export function refusedMedia(
  error: unknown,
  request: ChatRequest,
  provider: string,
): UnsupportedMediaError | undefined {
  // The bridge has made it a ProviderError by now; the package's error is its cause.
  const cause = ProviderError.isInstance(error) ? error.cause : error;
  if (typeof cause !== 'object' || cause === null) return undefined;
  if ((cause as Record<symbol, unknown>)[UNSUPPORTED_MARKER] !== true) return undefined;
  const types = new Set<string>();
  let role: 'user' | 'tool' = 'user';
  for (const message of request.messages) {
    if (message.role !== 'user' && message.role !== 'tool') continue;
    for (const part of message.media ?? []) {
      if (types.size === 0) role = message.role;
      types.add(part.mediaType);
    }
  }
  if (types.size === 0) return undefined;
  const functionality = (cause as { functionality?: unknown }).functionality;
  // Other refusals (a JSON schema feature, a setting) stay ProviderErrors.
  if (typeof functionality !== 'string' || !MEDIA_WORDS.test(functionality)) return undefined;
  const reason = functionality;
  return new UnsupportedMediaError({
    provider,
    mediaType: [...types].join(', '),
    role,
    reason: `${reason} (the AI SDK provider package refused the request before sending it).`,
  });
}
