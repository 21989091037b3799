import type { Observable } from 'rxjs';
import type { ChatRequest } from '../core/chat-request.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { ToolCallInvocation } from '../advisor-api/tool-call-interceptor.js';

/**
 * What a guardrail decided. `tripped: true` stops the call (or, for a tool guardrail, the
 * tool call); `message` is what the user (or, for a denied tool call, the model) is told and
 * must be safe to show; `reason` stays on the server (logs, the error's message).
 * @example
 * ```ts
 * import type { GuardrailVerdict } from 'rx-advisors/guardrails';
 * const trip: GuardrailVerdict = { tripped: true, message: 'I cannot discuss that.', reason: 'asked for a password' };
 * ```
 */
export interface GuardrailVerdict {
  readonly tripped: boolean;
  readonly message?: string;
  readonly reason?: string;
}

/**
 * What a guardrail's check may answer: a verdict (`undefined` = passed) now, later, or as an
 * Observable (its first value counts).
 * @example
 * ```ts
 * import type { GuardrailAnswer } from 'rx-advisors/guardrails';
 * const later: GuardrailAnswer = Promise.resolve({ tripped: false });
 * ```
 */
export type GuardrailAnswer<T = GuardrailVerdict> =
  T | undefined | Promise<T | undefined> | Observable<T | undefined>;

/**
 * What an asynchronous check receives: an `AbortSignal` that fires when the check is no
 * longer needed (the stream was unsubscribed, another guardrail tripped).
 * @example
 * ```ts
 * import type { GuardrailContext } from 'rx-advisors/guardrails';
 * const check = (text: string, { signal }: GuardrailContext) => fetch('https://moderation.example', { method: 'POST', body: text, signal });
 * ```
 */
export interface GuardrailContext {
  readonly signal: AbortSignal;
}

/**
 * Checks the request while the first model call already runs; the answer is held back until
 * every input guardrail has passed (see `GuardrailsAdvisor`).
 * @example
 * ```ts
 * import type { InputGuardrail } from 'rx-advisors/guardrails';
 * const shortQuestions: InputGuardrail = {
 *   name: 'short-questions',
 *   checkInput: (request) =>
 *     (request.lastUserText ?? '').length > 2000 ? { tripped: true, message: 'Please ask a shorter question.' } : undefined,
 * };
 * ```
 */
export interface InputGuardrail {
  readonly name: string;
  checkInput(request: ChatRequest, context: GuardrailContext): GuardrailAnswer;
}

/**
 * Checks the answer text as it streams, on a sliding window: `checkOutput` sees the text not
 * yet released plus up to `window` characters released before it; the last `holdBack`
 * characters are released only once more text has come (or the text ends, `final`). A phrase
 * of up to `holdBack + 1` characters split across chunks is therefore seen whole before its
 * first character leaves. Synchronous: it runs per chunk.
 * @example
 * ```ts
 * import type { OutputGuardrail } from 'rx-advisors/guardrails';
 * const noCodeName: OutputGuardrail = {
 *   name: 'no-code-name',
 *   holdBack: 'project zebra'.length - 1,
 *   checkOutput: (text) => (text.toLowerCase().includes('project zebra') ? { tripped: true } : undefined),
 * };
 * ```
 */
export interface OutputGuardrail {
  readonly name: string;
  /** Characters of unreleased text kept back at its end (a phrase's length minus one). */
  readonly holdBack: number;
  /** Characters of already released text the check still sees (context; default 0). */
  readonly window?: number;
  /**
   * @param text The window: released context, then the unreleased text.
   * @param final Whether the text run ends here (nothing will be appended).
   */
  checkOutput(text: string, final: boolean): GuardrailVerdict | undefined;
  /**
   * An incremental check for one stream, used instead of `checkOutput`, `holdBack` and
   * `window` when present: it reads each piece of text once and says itself how much must be
   * held (see {@link OutputStreamCheck}). `wordGuardrail` has one.
   */
  openStream?(): OutputStreamCheck;
}

/**
 * The incremental form of an output check, for one stream: `write` reads each new piece of
 * the answer text (not the window again), `held` says how many characters at the end of what
 * was written could still be part of something that trips (they do not leave yet), and `end`
 * decides what is held when the text run ends (writing may go on after it: the text of the
 * next run follows as if it were one text).
 * @example
 * ```ts
 * import type { OutputGuardrail, OutputStreamCheck } from 'rx-advisors/guardrails';
 * // Trips on a "#" anywhere; holds nothing, since a "#" is decided the moment it arrives.
 * const noHash: OutputGuardrail = {
 *   name: 'no-hash',
 *   holdBack: 0,
 *   checkOutput: (text) => (text.includes('#') ? { tripped: true } : undefined),
 *   openStream: (): OutputStreamCheck => ({
 *     write: (text) => (text.includes('#') ? { tripped: true } : undefined),
 *     held: () => 0,
 *     end: () => undefined,
 *   }),
 * };
 * ```
 */
export interface OutputStreamCheck {
  /** Reads the next piece of text; a trip, or `undefined`. */
  write(text: string): GuardrailVerdict | undefined;
  /** How many UTF-16 units at the end of what was written must still be held. */
  held(): number;
  /** The text run ends here: a trip on what was held, or `undefined`. */
  end(): GuardrailVerdict | undefined;
}

/**
 * A tool guardrail's decision on a call: trip (deny it: the model sees `message` as the
 * tool's error result; with `end`, stop the whole call instead), or pass, possibly with a
 * rewritten call.
 * @example
 * ```ts
 * import type { ToolCallVerdict } from 'rx-advisors/guardrails';
 * const deny: ToolCallVerdict = { tripped: true, message: 'Refunds above 100 EUR need a human.' };
 * ```
 */
export interface ToolCallVerdict extends GuardrailVerdict {
  /** Stop the whole call (a `guardrail-tripped` end) instead of denying this tool call. */
  readonly end?: boolean;
  /** Run this call instead (passed checks only). */
  readonly rewrite?: ToolCall;
}

/**
 * A tool guardrail's decision on a result: trip (the model sees `message` as an error
 * result instead; with `end`, stop the whole call), or pass, possibly with new content.
 * @example
 * ```ts
 * import type { ToolResultVerdict } from 'rx-advisors/guardrails';
 * const redacted: ToolResultVerdict = { tripped: false, content: '[redacted]' };
 * ```
 */
export interface ToolResultVerdict extends GuardrailVerdict {
  readonly end?: boolean;
  /** The content the model sees instead (passed checks only). */
  readonly content?: string;
}

/**
 * Checks tool calls before they run and their results before the model sees them, or asks
 * for a human decision through the tool loop's approval flow.
 * @example
 * ```ts
 * import type { ToolGuardrail } from 'rx-advisors/guardrails';
 * const noDeletes: ToolGuardrail = {
 *   name: 'no-deletes',
 *   checkCall: ({ call }) => (call.name.startsWith('delete') ? { tripped: true, message: 'Deleting is not allowed.' } : undefined),
 * };
 * ```
 */
export interface ToolGuardrail {
  readonly name: string;
  checkCall?(
    invocation: ToolCallInvocation,
    context: GuardrailContext,
  ): GuardrailAnswer<ToolCallVerdict>;
  checkResult?(
    message: ToolMessage,
    invocation: ToolCallInvocation,
    context: GuardrailContext,
  ): GuardrailAnswer<ToolResultVerdict>;
  /** `true` sends the call through the approval flow, as a tool's `needsApproval` does. */
  requiresApproval?(invocation: ToolCallInvocation): boolean;
}
