// rx-advisors/provider-kit: the building blocks of a ChatModel over a provider's
// streaming SDK. The OpenAI and Anthropic adapters are built from these exports only.

// Streams
export { sdkEventStream } from './sdk-event-stream.js';
export { sdkCall } from './sdk-call.js';
export { translateStream, type TranslateStreamOptions } from './translate-stream.js';
export type { ChunkSink, StreamTranslator } from './stream-translator.js';
export { DEFAULT_IDLE_TIMEOUT, idleTimeoutRule } from './idle-timeout.js';
export { readStreamIndex } from './read-stream-index.js';
export { CitedSources, type CitedUrl } from './cited-sources.js';

// Errors
export { toProviderError, type ToProviderErrorOptions } from './to-provider-error.js';
export { StreamEventError } from './stream-event-error.js';
export { StreamDataError } from './stream-data-error.js';
export { clientSecrets, redactSecrets } from './redact-secrets.js';

// Options
export { mergeOptions } from './merge-options.js';
export { validateClient } from './validate-client.js';
