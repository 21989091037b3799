import { Rules, validateOptions, withDefaults } from '../core/validate-options.js';
import { chunkEventEncoder } from './chunk-event-encoder.js';
import type { SseEncoder } from './encoder/sse-encoder.js';
import { SseErrorPolicy, type SseErrorMessage } from './encoder/sse-error-policy.js';
import { uiMessageStreamEncoder } from '../ui/ui-message-stream-encoder.js';

/**
 * The names of the built-in wire formats (each is also an encoder value):
 * - `'rx-advisors'` (`chunkEventEncoder`): one event per chunk, `event: <chunk.type>`, `id:`,
 *   `data: <chunk JSON>`, then `event: done`.
 * - `'ai-sdk-ui'` (`uiMessageStreamEncoder`): the AI SDK UI message stream v1 (`useChat` reads
 *   it unchanged), ending with `data: [DONE]`.
 *
 * @example
 * ```ts
 * import type { SseProtocol } from 'rx-advisors/sse';
 * const protocol: SseProtocol = 'ai-sdk-ui';
 * ```
 */
export type SseProtocol = 'rx-advisors' | 'ai-sdk-ui';

/**
 * Options of `toServerSentEvents()`, also accepted by `pipeToNodeResponse()`,
 * `toWebResponse()` and `ResumableStreams.start()`.
 *
 * @example
 * ```ts
 * import { toServerSentEvents, type ServerSentEventsOptions } from 'rx-advisors/sse';
 * const options: ServerSentEventsOptions = { protocol: 'ai-sdk-ui', heartbeat: 10_000 };
 * chunks$.pipe(toServerSentEvents(options));
 * ```
 */
export interface ServerSentEventsOptions {
  /** The wire format: a built-in name or an {@link SseEncoder}; default `'rx-advisors'`. */
  protocol?: SseProtocol | SseEncoder;
  /**
   * Milliseconds between heartbeat comments (`: ping`), which keep proxies from closing an idle
   * connection; `false` for none. Default 15000. Taken from RxJS time (`interval`).
   */
  heartbeat?: number | false;
  /**
   * What goes out for texts that come from an error (the error event, retry reasons, tool
   * error results); default `'safe'`.
   */
  errorMessage?: SseErrorMessage;
}

/** The defaults of {@link ServerSentEventsOptions}. @internal */
export const SERVER_SENT_EVENTS_DEFAULTS = {
  protocol: 'rx-advisors',
  heartbeat: 15_000,
  errorMessage: 'safe',
} as const satisfies ServerSentEventsOptions;

const isEncoder = (value: unknown): value is SseEncoder =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as SseEncoder).name === 'string' &&
  typeof (value as SseEncoder).create === 'function' &&
  typeof (value as SseEncoder).resumeError === 'function' &&
  typeof (value as SseEncoder).headers === 'object';

const RULES = {
  protocol: Rules.custom(
    "'rx-advisors', 'ai-sdk-ui' or an SseEncoder ({ name, headers, create, resumeError })",
    (value) => value === 'rx-advisors' || value === 'ai-sdk-ui' || isEncoder(value),
  ),
  heartbeat: Rules.custom(
    'a positive number of milliseconds, or false for no heartbeats',
    (value) => value === false || (typeof value === 'number' && value > 0 && value < Infinity),
  ),
  errorMessage: Rules.custom(
    "'safe', 'raw' or a function (error, source) => string",
    (value) => value === 'safe' || value === 'raw' || typeof value === 'function',
  ),
} as const;

/** The options with their defaults applied. @internal */
export interface ResolvedSseOptions {
  readonly encoder: SseEncoder;
  readonly heartbeat: number | false;
  readonly errors: SseErrorPolicy;
}

/**
 * The encoder a `protocol` option names.
 * @internal
 */
export function encoderOf(protocol: SseProtocol | SseEncoder): SseEncoder {
  if (protocol === 'rx-advisors') return chunkEventEncoder;
  if (protocol === 'ai-sdk-ui') return uiMessageStreamEncoder;
  return protocol;
}

/** The names of {@link ServerSentEventsOptions}. @internal */
export const SSE_OPTION_NAMES: readonly string[] = Object.keys(RULES);

/**
 * Applies defaults and rejects bad values up front.
 * @param options The options.
 * @param known The names of the other options given in the same object (a response's), which
 *   are then not looked at as possible typos (that costs an edit distance per name and call).
 * @internal
 */
export function resolveSseOptions(
  options: ServerSentEventsOptions = {},
  known: readonly string[] = [],
): ResolvedSseOptions {
  const { protocol, heartbeat, errorMessage } = withDefaults(
    SERVER_SENT_EVENTS_DEFAULTS,
    validateOptions(options, RULES, '', { known }),
  );
  return { encoder: encoderOf(protocol), heartbeat, errors: new SseErrorPolicy(errorMessage) };
}

/**
 * Checks a `heartbeat` option on its own (the resume methods take only this one).
 * @internal
 */
export function resolveHeartbeat(heartbeat: number | false | undefined): number | false {
  return resolveSseOptions(heartbeat === undefined ? {} : { heartbeat }).heartbeat;
}
