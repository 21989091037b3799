// rx-advisors/sse: chat streams out as Server-Sent Events. Explicit re-exports, grouped by role.

// The operator and its options
export { toServerSentEvents } from './to-server-sent-events.js';
export type {
  ServerSentEventsOptions,
  SseErrorMessage,
  SseProtocol,
} from './server-sent-events-options.js';

// HTTP responses
export { pipeToNodeResponse, type PipeToNodeResponseOptions } from './pipe-to-node-response.js';
export { toWebResponse, type ToWebResponseOptions } from './to-web-response.js';

// Resume with Last-Event-ID
export {
  ResumableStreams,
  type ResumableRegistration,
  type ResumableStreamsOptions,
  type ResumeOptions,
  type ResumeResponseOptions,
} from './resumable-streams.js';
