import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { OutputGuardrail } from './guardrail.js';
import { isTripped, tripError } from './guardrail-trip.js';

/**
 * Checks the answer text on a sliding window as it streams (see {@link OutputGuardrail}):
 * each `text-delta` is appended to the unreleased text, every guardrail checks the window
 * (the last `window` released characters, then the unreleased text), and all but the last
 * `holdBack` characters are released as one `text-delta`. Any other chunk, except `usage`
 * and `metadata` (which pass at once), ends the text run: the held text gets a final check
 * and is released before it. On a trip the stream fails with a `GuardrailTrippedError`
 * (stage `output`) and the source is unsubscribed (the model request is aborted); the held
 * text never leaves. Latency is bounded: a character waits for at most `holdBack` more.
 * With `holdBack` 0 and `window` 0 the chunks pass unchanged (no copy).
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
  const holdBack = Math.max(...guardrails.map((g) => g.holdBack));
  const window = Math.max(...guardrails.map((g) => g.window ?? 0));
  // Hand-written, not composed: a chunk may release zero, one or two chunks (held text, then
  // the rest) and completion flushes what is held; with `mergeMap` + `concat(defer(flush))`
  // every chunk would allocate an array or an Observable. Not measured against composition.
  return (source) =>
    new Observable<ChatChunk>((subscriber) => {
      let pending = '';
      let context = '';
      /** Checks the window; on a trip fails the stream and answers `false`. */
      const passes = (final: boolean): boolean => {
        const text = context === '' ? pending : context + pending;
        for (const guardrail of guardrails) {
          const verdict = guardrail.checkOutput(text, final);
          if (isTripped(verdict)) {
            subscriber.error(tripError(guardrail.name, 'output', verdict));
            return false;
          }
        }
        return true;
      };
      const release = (text: string): void => {
        if (window > 0) context = (context + text).slice(-window);
        subscriber.next({ type: 'text-delta', text });
      };
      const flush = (): boolean => {
        if (pending === '') return true;
        if (!passes(true)) return false;
        const text = pending;
        pending = '';
        release(text);
        return true;
      };
      return source.subscribe({
        next: (chunk) => {
          try {
            if (chunk.type === 'text-delta') {
              if (holdBack === 0 && window === 0) {
                pending = chunk.text;
                if (passes(false)) subscriber.next(chunk);
                pending = '';
                return;
              }
              pending += chunk.text;
              if (!passes(false)) return;
              let cut = pending.length - holdBack;
              // Never split a surrogate pair between two releases.
              if (cut > 0 && isHighSurrogate(pending.charCodeAt(cut - 1))) cut--;
              if (cut <= 0) return;
              const text = pending.slice(0, cut);
              pending = pending.slice(cut);
              release(text);
              return;
            }
            if (chunk.type !== 'usage' && chunk.type !== 'metadata' && !flush()) return;
            subscriber.next(chunk);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          try {
            if (flush()) subscriber.complete();
          } catch (error) {
            subscriber.error(error);
          }
        },
      });
    });
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
