import type { Message } from '../core/message.js';
import { Rules, validateOptions, type OptionRules } from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/**
 * The options of `ChatMemoryRepository.append`, checked.
 * @internal
 */
export interface AppendOptions {
  /** The window to trim to, system messages included; absent: nothing is dropped. */
  keepLast?: number;
}

const APPEND_RULES = {
  keepLast: Rules.integer(0),
} as const satisfies OptionRules<AppendOptions>;

/**
 * Checks the arguments of `append`: an array of messages, none of them a system message
 * (those are written first in a conversation, by `saveAll` or `update`), and `keepLast`.
 * @internal
 * @param messages What the caller appends.
 * @param options `{ keepLast }` or nothing.
 * @returns The checked `keepLast` (undefined: keep everything).
 * @throws InvalidOptionsError on a bad argument; nothing has been written then.
 */
export function checkAppend(
  messages: readonly Message[],
  options: AppendOptions | undefined,
): number | undefined {
  const given: unknown = messages;
  if (!Array.isArray(given)) {
    throw new InvalidOptionsError({ option: 'messages', value: given, expected: 'an array' });
  }
  messages.forEach((message, index) => {
    if (typeof message !== 'object' || message === null || message.role === 'system') {
      throw new InvalidOptionsError({
        option: `messages[${index}]`,
        value: message,
        expected:
          'a user, assistant or tool message (system messages are written by saveAll or update)',
      });
    }
  });
  return validateOptions(options ?? {}, APPEND_RULES).keepLast;
}

/**
 * `ChatMemoryRepository.append` up to the write: checks the arguments (see
 * {@link checkAppend}), resolves at once when there is nothing to add, else runs `write`.
 * Every repository's `append` goes through it, so a bad argument rejects the same way
 * (nothing written) whatever the store.
 * @internal
 * @param messages What the caller appends.
 * @param options `{ keepLast }` or nothing.
 * @param write Adds the (at least one) messages and trims to the checked `keepLast`.
 * @returns `write`'s Promise; a rejected one (InvalidOptionsError) on a bad argument.
 */
export function appendChecked(
  messages: readonly Message[],
  options: AppendOptions | undefined,
  write: (keepLast: number | undefined) => Promise<void>,
): Promise<void> {
  let keepLast: number | undefined;
  try {
    keepLast = checkAppend(messages, options);
  } catch (error) {
    return rejected(error);
  }
  if (messages.length === 0) return Promise.resolve();
  return write(keepLast);
}

/**
 * Where the trim of `append` begins: `undefined` when the conversation fits in `keepLast`
 * (nothing is dropped), else the index, among the non-system messages, of the earliest
 * one the window may keep. The repository then keeps from the first user message at or
 * after it, else from the first message that is not a tool result, else none; exactly
 * what `messageWindow` does with the whole conversation.
 * @internal
 * @param systemCount The conversation's (leading) system messages.
 * @param otherCount Its other messages, the appended ones included.
 * @param keepLast The window, system messages included.
 */
export function appendTrimFrom(
  systemCount: number,
  otherCount: number,
  keepLast: number | undefined,
): number | undefined {
  if (keepLast === undefined || systemCount + otherCount <= keepLast) return undefined;
  return otherCount - Math.max(0, keepLast - systemCount);
}

/**
 * How many messages a conversation starts with that are system messages.
 * @internal
 */
export function leadingSystemCount(messages: readonly Message[]): number {
  let count = 0;
  while (count < messages.length && messages[count]?.role === 'system') count++;
  return count;
}

/**
 * Checks the `limit` of `findLast`: an integer of at least 0.
 * @internal
 * @throws InvalidOptionsError otherwise.
 */
export function checkLimit(limit: number): number {
  const given: unknown = limit;
  if (typeof given !== 'number' || !Number.isSafeInteger(given) || given < 0) {
    throw new InvalidOptionsError({
      option: 'limit',
      value: given,
      expected: 'an integer of at least 0',
    });
  }
  return given;
}

/**
 * `ChatMemoryRepository.findLast` up to the read: checks `limit` (see {@link checkLimit})
 * and runs `read` with it. Every repository's `findLast` goes through it, so a bad `limit`
 * rejects the same way (nothing read) whatever the store.
 * @internal
 * @param limit What the caller asked for.
 * @param read Reads the leading system messages and the newest `limit` others.
 * @returns `read`'s Promise; a rejected one (InvalidOptionsError) on a bad `limit`.
 */
export function findLastChecked<T>(limit: number, read: (limit: number) => Promise<T>): Promise<T> {
  let newest: number;
  try {
    newest = checkLimit(limit);
  } catch (error) {
    return rejected(error);
  }
  return read(newest);
}

/**
 * A synchronous failure (a bad argument) as a rejected Promise.
 * @internal
 */
export function rejected(error: unknown): Promise<never> {
  return Promise.reject(error instanceof Error ? error : new Error(String(error)));
}
