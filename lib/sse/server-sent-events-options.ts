import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/**
 * The wire format of an SSE stream.
 * - `'rx-advisors'`: one event per chunk, `event: <chunk.type>`, `id:`, `data: <chunk JSON>`,
 *   then `event: done`.
 * - `'ai-sdk-ui'`: the AI SDK UI message stream v1 (`useChat` reads it unchanged), ending with
 *   `data: [DONE]`.
 *
 * @example
 * ```ts
 * import type { SseProtocol } from 'rx-advisors/sse';
 * const protocol: SseProtocol = 'ai-sdk-ui';
 * ```
 */
export type SseProtocol = 'rx-advisors' | 'ai-sdk-ui';

/**
 * What an `error` event tells the client about a failed stream:
 * - `'safe'` (default): a fixed, generic message; nothing from the error leaves the server;
 * - `'raw'`: the error's own `message` (only when you know it holds no secrets);
 * - a function: your own text for the error (when it throws, the safe message is sent).
 *
 * @example
 * ```ts
 * import { ProviderError } from 'rx-advisors';
 * import type { SseErrorMessage } from 'rx-advisors/sse';
 * const errorMessage: SseErrorMessage = (error) =>
 *   ProviderError.isInstance(error) && error.retryable ? 'The model is busy, try again.' : 'Something went wrong.';
 * ```
 */
export type SseErrorMessage = 'safe' | 'raw' | ((error: unknown) => string);

/**
 * Options of `toServerSentEvents()`, also accepted by `pipeToNodeResponse()` and
 * `toWebResponse()`.
 *
 * @example
 * ```ts
 * import { toServerSentEvents, type ServerSentEventsOptions } from 'rx-advisors/sse';
 * const options: ServerSentEventsOptions = { protocol: 'ai-sdk-ui', heartbeat: 10_000 };
 * chunks$.pipe(toServerSentEvents(options));
 * ```
 */
export interface ServerSentEventsOptions {
  /** The wire format; default `'rx-advisors'`. */
  protocol?: SseProtocol;
  /**
   * Milliseconds between heartbeat comments (`: ping`), which keep proxies from closing an idle
   * connection; `false` for none. Default 15000. Taken from RxJS time (`interval`).
   */
  heartbeat?: number | false;
  /** What an `error` event says; default `'safe'`. */
  errorMessage?: SseErrorMessage;
}

/** The options with their defaults applied. @internal */
export interface ResolvedSseOptions {
  readonly protocol: SseProtocol;
  readonly heartbeat: number | false;
  readonly errorMessage: SseErrorMessage;
}

/** The text of an `error` event when the options do not ask for more. @internal */
export const SAFE_ERROR_MESSAGE = 'The stream failed on the server.';

/**
 * Applies defaults and rejects bad values up front.
 * @internal
 */
export function resolveSseOptions(options: ServerSentEventsOptions = {}): ResolvedSseOptions {
  const { protocol = 'rx-advisors', heartbeat = 15_000, errorMessage = 'safe' } = options;
  if (protocol !== 'rx-advisors' && protocol !== 'ai-sdk-ui') {
    throw new InvalidOptionsError({
      option: 'protocol',
      value: protocol,
      expected: "'rx-advisors' or 'ai-sdk-ui'",
    });
  }
  if (
    heartbeat !== false &&
    !(typeof heartbeat === 'number' && heartbeat > 0 && heartbeat < Infinity)
  ) {
    throw new InvalidOptionsError({
      option: 'heartbeat',
      value: heartbeat,
      expected: 'a positive number of milliseconds, or false for no heartbeats',
    });
  }
  if (errorMessage !== 'safe' && errorMessage !== 'raw' && typeof errorMessage !== 'function') {
    throw new InvalidOptionsError({
      option: 'errorMessage',
      value: errorMessage,
      expected: "'safe', 'raw' or a function (error) => string",
    });
  }
  return { protocol, heartbeat, errorMessage };
}

/**
 * The text an `error` event carries for `error`, per the `errorMessage` option. Never throws.
 * @internal
 */
export function errorText(error: unknown, errorMessage: SseErrorMessage): string {
  if (errorMessage === 'safe') return SAFE_ERROR_MESSAGE;
  try {
    const text =
      errorMessage === 'raw'
        ? error instanceof Error
          ? error.message
          : String(error)
        : errorMessage(error);
    return typeof text === 'string' ? text : SAFE_ERROR_MESSAGE;
  } catch {
    // A throwing callback (or an error whose toString throws) must not break the stream's end.
    return SAFE_ERROR_MESSAGE;
  }
}
