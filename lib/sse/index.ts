// rx-advisors/sse: chat streams out as Server-Sent Events. Explicit re-exports, grouped by role.

// The operator and its options
export { toServerSentEvents } from './to-server-sent-events.js';
export type { ServerSentEventsOptions, SseProtocol } from './server-sent-events-options.js';
export {
  SseErrorPolicy,
  SAFE_ERROR_MESSAGE,
  SAFE_RETRY_REASON,
  SAFE_TOOL_ERROR,
  type SseErrorMessage,
  type SseErrorSource,
} from './encoder/sse-error-policy.js';

// Wire protocols as values
export type {
  SseEncoder,
  SseEncoderContext,
  SseEventSink,
  SseStreamEncoder,
} from './encoder/sse-encoder.js';
export { chunkEventEncoder } from './chunk-event-encoder.js';
export { uiMessageStreamEncoder } from '../ui/ui-message-stream-encoder.js';

// From the AI SDK's UI messages (useChat's request) to ours
export type { UiMessage, UiMessagePart } from '../ui/ui-message.js';
export {
  uiMessagesToMessages,
  type UiMessagesToMessagesOptions,
} from '../ui/ui-messages-to-messages.js';

// HTTP responses
export { pipeToNodeResponse } from './pipe-to-node-response.js';
export { toWebResponse } from './to-web-response.js';
export {
  STREAM_ID_HEADER,
  type PipeToNodeResponseOptions,
  type ResumableRegistration,
  type SseResponseOptions,
  type ToWebResponseOptions,
} from './sse-response-options.js';
export type { SseConnectionOptions } from './sse-connection-options.js';

// Resume with Last-Event-ID
export { ResumableStreams } from './resumable-streams.js';
export type {
  ResumableStreamsOptions,
  ResumeOptions,
  ResumeResponseOptions,
} from './resumable-streams-options.js';
export type {
  MaybePromise,
  ResumableStreamInfo,
  ResumableStreamKey,
  ResumableStreamStore,
} from './resumable-stream-store.js';
export type { ResumableStreamRestorer } from './resumable-streams-restore.js';
export {
  InMemoryResumableStreamStore,
  type InMemoryResumableStreamStoreOptions,
} from './in-memory-resumable-stream-store.js';

// Errors
export {
  ResumableStreamError,
  type ResumableStreamErrorReason,
} from '../errors/resumable-stream-error.js';
export { ResumableStreamLimitError } from '../errors/resumable-stream-limit-error.js';
export { SlowClientError } from '../errors/slow-client-error.js';

// Guardrails on the UI protocol: which parts a page shows after a withdrawal (docs/guardrails.md)
export { visibleUiParts } from '../ui/ui-guardrail-parts.js';
