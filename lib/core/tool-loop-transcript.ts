import type { Message } from './message.js';

/** The `request.context` key of a call's {@link ToolLoopTranscript}. */
const KEY = 'rx-advisors.tool-loop.messages';

/**
 * A position in a {@link ToolLoopTranscript}, taken with `mark()`.
 * @example
 * ```ts partial
 * import { ToolLoopTranscript, type TranscriptMark } from 'rx-advisors/advisor-api';
 * const mark: TranscriptMark = ToolLoopTranscript.of(request.context).mark();
 * ```
 */
export interface TranscriptMark {
  /** The loop run that was the latest when the mark was taken (0: none yet). */
  readonly run: number;
  /** How many messages that run had then. */
  readonly length: number;
}

/**
 * The messages a tool loop added to the conversation (the assistant tool-call messages
 * and the tool results, in order), for the advisors outside the loop that need them:
 * memory saves them, structured-output validation and evaluation resend them with a
 * retry. One transcript per call (it lives in `request.context`, under
 * `ContextKeys.TOOL_LOOP_MESSAGES`); each loop run (a subscription of the loop, which an
 * outer retry repeats) starts a new run of messages when its first tool round ends.
 * Readers take a `mark()` when they start and read `since(mark)` when they need the
 * messages: what the latest run added after the mark.
 *
 * @example
 * ```ts partial
 * import { ToolLoopTranscript } from 'rx-advisors/advisor-api';
 *
 * const transcript = ToolLoopTranscript.of(request.context);
 * const mark = transcript.mark();
 * // ... the chain runs, the tool loop inside it calls tools ...
 * const loopMessages = transcript.since(mark); // readonly Message[]
 * ```
 */
export class ToolLoopTranscript {
  private runs = 0;
  private writer: object | undefined;
  private current: Message[] = [];

  /**
   * The transcript of a call, created on first use.
   * @param context The call's `request.context`.
   * @returns The one transcript of that context.
   */
  static of(context: Map<string, unknown>): ToolLoopTranscript {
    const found = context.get(KEY);
    if (found instanceof ToolLoopTranscript) return found;
    const created = new ToolLoopTranscript();
    context.set(KEY, created);
    return created;
  }

  /**
   * The current position, to pass to `since` later.
   * @returns A mark.
   */
  mark(): TranscriptMark {
    return { run: this.runs, length: this.current.length };
  }

  /**
   * What the latest loop run added after `mark`: all of its messages when it started after
   * the mark, else those it appended since.
   * @param mark A mark taken from this transcript.
   * @returns A new array (empty when no loop ran tools since the mark).
   */
  since(mark: TranscriptMark): Message[] {
    if (this.runs === mark.run) return this.current.slice(mark.length);
    return this.current.slice();
  }

  /** The latest run's messages, in order. */
  get messages(): readonly Message[] {
    return this.current;
  }

  /**
   * Appends one round's messages for the loop run `writer` (any object that stands for
   * one run, such as the loop's per-subscription state); a writer other than the last one
   * starts a new run. Appends one by one, so a round of any size is safe.
   * @internal
   * @param writer The loop run.
   * @param messages The round's assistant message and tool results.
   */
  append(writer: object, messages: readonly Message[]): void {
    if (writer !== this.writer) {
      this.writer = writer;
      this.runs++;
      this.current = [];
    }
    for (const message of messages) this.current.push(message);
  }
}
