import { Rules, validateOptions, withDefaults } from '../core/validate-options.js';

/**
 * How much a slow client may hold back on one SSE connection, shared by `pipeToNodeResponse`,
 * `toWebResponse` and the `resumeTo…` methods of `ResumableStreams`. Past any bound the
 * connection is ended (a `SlowClientError`) and its chunks unsubscribed.
 *
 * @example
 * ```ts
 * import type { SseConnectionOptions } from 'rx-advisors/sse';
 * const bounds: SseConnectionOptions = { maxPendingFrames: 500, maxPendingBytes: 1 << 20, writeTimeout: 10_000 };
 * ```
 */
export interface SseConnectionOptions {
  /**
   * Frames held back while the client reads slower than the model writes (Node: after
   * `write()` returned false, until `'drain'`; web: between two reads). Default 1000.
   */
  maxPendingFrames?: number;
  /**
   * The same bound in size: the characters (`string.length`; UTF-8 bytes are at most 3×) of
   * the frames held back. Default 4194304 (4 Mi).
   */
  maxPendingBytes?: number;
  /**
   * Milliseconds (RxJS time) a connection may stay unwritable (Node: waiting for `'drain'`;
   * web: frames waiting for a read) before it is ended. A finished stream is not held for a
   * client that never reads. Default 30000.
   */
  writeTimeout?: number;
}

/** The defaults of {@link SseConnectionOptions}. @internal */
export const SSE_CONNECTION_DEFAULTS = {
  maxPendingFrames: 1000,
  maxPendingBytes: 4 * 1024 * 1024,
  writeTimeout: 30_000,
} as const satisfies SseConnectionOptions;

const RULES = {
  maxPendingFrames: Rules.integer(1),
  maxPendingBytes: Rules.integer(1),
  writeTimeout: Rules.positive,
} as const;

/** The connection bounds with their defaults applied. @internal */
export type ResolvedSseConnectionOptions = Readonly<Required<SseConnectionOptions>>;

/** The names of {@link SseConnectionOptions}. @internal */
export const SSE_CONNECTION_OPTION_NAMES: readonly string[] = Object.keys(RULES);

/**
 * Applies defaults and rejects bad values up front (`InvalidOptionsError`).
 * @param options The options.
 * @param known The names of the other options given in the same object, as for
 *   `resolveSseOptions`.
 * @internal
 */
export function resolveConnectionOptions(
  options: SseConnectionOptions,
  known: readonly string[] = [],
): ResolvedSseConnectionOptions {
  const { maxPendingFrames, maxPendingBytes, writeTimeout } = withDefaults(
    SSE_CONNECTION_DEFAULTS,
    validateOptions(options, RULES, '', { known }),
  );
  return { maxPendingFrames, maxPendingBytes, writeTimeout };
}
