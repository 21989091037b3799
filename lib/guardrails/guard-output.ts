import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { GuardrailVerdict, OutputGuardrail } from './guardrail.js';
import { isTripped, tripError } from './guardrail-trip.js';
import { textRunOperator } from './text-run-operator.js';

/**
 * Checks the answer text as it streams (see {@link OutputGuardrail}). A guardrail with an
 * incremental check (`openStream`, as `wordGuardrail`) reads each `text-delta` once and says
 * how much must be held; the others check a sliding window (the last `window` released
 * characters, then the unreleased text) and hold back a fixed `holdBack`. All but what the
 * guardrails hold is released as one `text-delta` (the chunk itself when nothing is held).
 * Any other chunk, except `usage` and `metadata` (which pass at once), ends the text run: the
 * held text gets a final check and is released before it. On a trip the stream fails with a
 * `GuardrailTrippedError` (stage `output`) and the source is unsubscribed (the model request
 * is aborted); the held text never leaves. Latency is bounded: a character waits at most for
 * the end of the match in progress (or `holdBack` more characters).
 *
 * ```
 * holdBack 5, a guardrail that trips on "secret" (6 characters):
 * source:  -a--b--c-|        a: 'the se', b: 'cr', c: 'et'
 * result:  -x--y--#          x: 't', y: 'he'  (no character of "secret" left)
 * ```
 *
 * @example
 * ```ts
 * // internal: not exported (GuardrailsAdvisor applies it)
 * chunks$.pipe(guardOutput([noSecrets]));
 * ```
 * @param guardrails The output guardrails (at least one).
 * @returns The operator.
 * @internal
 */
export function guardOutput(
  guardrails: readonly OutputGuardrail[],
): MonoTypeOperatorFunction<ChatChunk> {
  const incremental = guardrails.filter((g) => g.openStream !== undefined);
  const windowed = guardrails.filter((g) => g.openStream === undefined);
  const holdBack = Math.max(0, ...windowed.map((g) => g.holdBack));
  const window = Math.max(0, ...windowed.map((g) => g.window ?? 0));
  return textRunOperator((subscriber) => {
    const checks = incremental.map((g) => g.openStream!());
    let pending = '';
    let context = '';
    /** On a trip fails the stream and answers `true`. */
    const trips = (guardrail: OutputGuardrail, verdict: GuardrailVerdict | undefined): boolean => {
      if (!isTripped(verdict)) return false;
      subscriber.error(tripError(guardrail.name, 'output', verdict));
      return true;
    };
    const windowTrips = (final: boolean): boolean => {
      const text = context === '' ? pending : context + pending;
      for (const guardrail of windowed) {
        if (trips(guardrail, guardrail.checkOutput(text, final))) return true;
      }
      return false;
    };
    const release = (text: string): void => {
      if (window > 0) context = (context + text).slice(-window);
      subscriber.next({ type: 'text-delta', text });
    };
    return {
      text: (chunk) => {
        let held = holdBack;
        for (let k = 0; k < checks.length; k++) {
          if (trips(incremental[k], checks[k].write(chunk.text))) return;
          const h = checks[k].held();
          if (h > held) held = h;
        }
        if (pending === '' && held === 0 && windowed.length === 0) {
          subscriber.next(chunk);
          return;
        }
        pending += chunk.text;
        if (windowed.length > 0 && windowTrips(false)) return;
        let cut = pending.length - held;
        // Never split a surrogate pair between two releases.
        if (cut > 0 && isHighSurrogate(pending.charCodeAt(cut - 1))) cut--;
        if (cut <= 0) return;
        if (cut === pending.length && window === 0) {
          // Nothing held: the chunk itself when it is all there is.
          if (pending === chunk.text) subscriber.next(chunk);
          else subscriber.next({ type: 'text-delta', text: pending });
          pending = '';
          return;
        }
        release(pending.slice(0, cut));
        pending = pending.slice(cut);
      },
      end: () => {
        for (let k = 0; k < checks.length; k++) {
          if (trips(incremental[k], checks[k].end())) return;
        }
        if (pending === '') return;
        if (windowed.length > 0 && windowTrips(true)) return;
        const text = pending;
        pending = '';
        release(text);
      },
    };
  });
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
