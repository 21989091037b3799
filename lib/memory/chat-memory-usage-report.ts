import type { Message } from '../core/message.js';

/**
 * What the model calls of one turn cost and sent, handed to `ChatMemory.add` by the memory
 * advisors so that a token window can size the conversation with the provider's own count.
 *
 * @example
 * ```ts
 * import type { ChatMemoryUsageReport } from 'rx-advisors';
 * const report: ChatMemoryUsageReport = {
 *   inputTokens: 812,
 *   calls: [[{ role: 'user', content: 'Hi, I am Ada.' }]],
 * };
 * ```
 */
export interface ChatMemoryUsageReport {
  /** The input tokens the provider reported, summed over `calls`. */
  inputTokens: number;
  /** The messages each model call of the turn sent, in order (one entry per round). */
  calls: readonly (readonly Message[])[];
}

/**
 * A report whose `calls` are built on first read: most memories never read them, and
 * building them costs one array per round of the loop.
 * @internal
 * @param inputTokens The input tokens the provider reported for the turn.
 * @param sent The first round's messages.
 * @param loopMessages The loop's messages in order.
 * @returns The report.
 */
export function lazyUsageReport(
  inputTokens: number,
  sent: readonly Message[],
  loopMessages: readonly Message[],
): ChatMemoryUsageReport {
  return new LazyUsageReport(inputTokens, sent, loopMessages);
}

/**
 * `lazyUsageReport`'s report: `calls` an own, enumerable accessor with one shared getter
 * (an object literal's getter would be an accessor pair of its own per turn, made in V8's
 * old generation, keeping the turn's messages alive until a full collection:
 * `lib/core/signal-context.ts`).
 */
class LazyUsageReport implements ChatMemoryUsageReport {
  declare inputTokens: number;
  declare readonly calls: readonly (readonly Message[])[];
  readonly #sent: readonly Message[];
  readonly #loopMessages: readonly Message[];
  #calls: (readonly Message[])[] | undefined = undefined;

  static readonly #callsProperty: PropertyDescriptor = {
    get(this: LazyUsageReport): readonly (readonly Message[])[] {
      return (this.#calls ??= roundsSent(this.#sent, this.#loopMessages));
    },
    enumerable: true,
    configurable: true,
  };

  constructor(inputTokens: number, sent: readonly Message[], loopMessages: readonly Message[]) {
    this.inputTokens = inputTokens;
    Object.defineProperty(this, 'calls', LazyUsageReport.#callsProperty);
    this.#sent = sent;
    this.#loopMessages = loopMessages;
  }
}

/**
 * The messages each round of a tool loop sent: the first round sends `sent`, each later
 * round also the assistant tool-call messages and results of the rounds before it.
 * @internal
 * @param sent The first round's messages.
 * @param loopMessages The loop's messages in order (each round: one assistant message, then its results).
 * @returns One message list per round.
 */
export function roundsSent(
  sent: readonly Message[],
  loopMessages: readonly Message[],
): (readonly Message[])[] {
  const calls: (readonly Message[])[] = [sent];
  loopMessages.forEach((message, index) => {
    // A round ends where the next assistant message (the next round's answer) begins.
    const next = loopMessages[index + 1];
    if (message.role === 'tool' && (next === undefined || next.role === 'assistant')) {
      calls.push([...sent, ...loopMessages.slice(0, index + 1)]);
    }
  });
  return calls;
}
