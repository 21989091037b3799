import type { MonoTypeOperatorFunction } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import type { ToolGuardrail } from '../guardrail.js';
import type { PiiDetector } from './pii-detector.js';
import { DEFAULT_PII_DETECTORS } from './pii-detectors.js';
import { PiiScanner } from './pii-scanner.js';
import { MAX_PII_DETECTORS } from './pii-classes.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { textRunOperator } from '../text-run-operator.js';

/**
 * Options of {@link piiRedaction}.
 * @example
 * ```ts
 * import { PiiDetectors, type PiiRedactionOptions } from 'rx-advisors/guardrails';
 * const options: PiiRedactionOptions = { detectors: [PiiDetectors.email, PiiDetectors.card] };
 * ```
 */
export interface PiiRedactionOptions {
  /** The detectors (default: every built-in one, `PiiDetectors`). */
  detectors?: readonly PiiDetector[];
  /** More detectors, after `detectors` (your own kinds of PII). */
  extraDetectors?: readonly PiiDetector[];
  /** Default `'pii-redaction'`. */
  name?: string;
}

/**
 * PII redaction: `redact` for a whole text, `scanner` for a stream (what `GuardrailsAdvisor`
 * applies with its `redact` option), and as a tool guardrail it redacts tool results before
 * the model sees them.
 * @example
 * ```ts
 * import { piiRedaction, type PiiRedaction } from 'rx-advisors/guardrails';
 * const pii: PiiRedaction = piiRedaction();
 * pii.redact('mail bob@example.com'); // 'mail [email]'
 * ```
 */
export interface PiiRedaction extends ToolGuardrail {
  /** The detectors, in the order ties are broken. */
  readonly detectors: readonly PiiDetector[];
  /** Redacts a whole text. */
  redact(text: string): string;
  /** A scanner for one stream of text pieces (`write` each, then `end`). */
  scanner(): { write(text: string): string; end(): string };
}

const isDetectorList = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.every(
    (d: Partial<PiiDetector> | null) =>
      typeof d?.name === 'string' &&
      typeof d.isRunChar === 'function' &&
      typeof d.detect === 'function' &&
      Number.isInteger(d.maxLength) &&
      (d.maxLength ?? 0) >= 0 &&
      (d.minLength === undefined || (Number.isInteger(d.minLength) && d.minLength >= 0)) &&
      (d.isKeyChar === undefined || typeof d.isKeyChar === 'function'),
  );

const RULES: OptionRules<PiiRedactionOptions> = {
  detectors: Rules.custom(
    'an array of PII detectors ({ name, maxLength, minLength?, isRunChar, isKeyChar?, detect })',
    isDetectorList,
  ),
  extraDetectors: Rules.custom(
    'an array of PII detectors ({ name, maxLength, minLength?, isRunChar, isKeyChar?, detect })',
    isDetectorList,
  ),
  name: Rules.nonEmptyString,
};

/**
 * Redacts e-mail addresses, phone numbers, payment card numbers (Luhn), IBANs (mod 97) and
 * API keys, plus detectors of your own, replacing each with `[<kind>]`. On a stream it keeps a
 * carry-over, so a number split across chunks is still redacted, and the result is the same
 * however the text was split; linear in the text. See docs/guardrails.md.
 *
 * @example
 * ```ts
 * import { GuardrailsAdvisor, piiRedaction } from 'rx-advisors/guardrails';
 * const pii = piiRedaction();
 * new GuardrailsAdvisor({ redact: pii, tools: [pii] }); // the answer and tool results
 * pii.redact('card 4111 1111 1111 1111'); // 'card [card]'
 * ```
 * @param options The detectors and the name.
 * @returns The redaction.
 * @throws InvalidOptionsError When an option is invalid.
 */
export function piiRedaction(options: PiiRedactionOptions = {}): PiiRedaction {
  const settings = withDefaults(
    { detectors: DEFAULT_PII_DETECTORS, extraDetectors: [], name: 'pii-redaction' },
    validateOptions(options, RULES),
  );
  const detectors = [...settings.detectors, ...settings.extraDetectors];
  if (detectors.length > MAX_PII_DETECTORS) {
    throw new InvalidOptionsError({
      option: 'extraDetectors',
      value: detectors.length,
      expected: `at most ${MAX_PII_DETECTORS} detectors in all (detectors and extraDetectors)`,
    });
  }
  const redact = (text: string): string => {
    const scanner = new PiiScanner(detectors);
    return scanner.write(text) + scanner.end();
  };
  return {
    name: settings.name,
    detectors,
    redact,
    scanner: () => new PiiScanner(detectors),
    checkResult: (message) => {
      const content = redact(message.content);
      return content === message.content ? undefined : { tripped: false, content };
    },
  };
}

/**
 * Redacts the `text-delta` chunks of a stream with a carry-over: what may still be PII is held
 * until it is decided; any chunk other than `text-delta`, `usage` and `metadata` ends the text
 * run (the held text is released before it), as does the end of the stream.
 *
 * ```
 * source: -a---b----f|       a: 'card 4111 1111 ', b: '1111 1111 ok', f: finish
 * result: -x---y----(zf)|    x: 'card', y: ' [card] ', z: 'ok'
 * ```
 *
 * @example
 * ```ts
 * // internal: not exported (GuardrailsAdvisor's `redact` option)
 * chunks$.pipe(redactStream(piiRedaction()));
 * ```
 * @param redaction The redaction.
 * @returns The operator.
 * @internal
 */
export function redactStream(redaction: PiiRedaction): MonoTypeOperatorFunction<ChatChunk> {
  return textRunOperator((subscriber) => {
    const scanner = redaction.scanner();
    return {
      text: (chunk) => {
        const text = scanner.write(chunk.text);
        if (text === chunk.text) subscriber.next(chunk);
        else if (text !== '') subscriber.next({ type: 'text-delta', text });
      },
      end: () => {
        const text = scanner.end();
        if (text !== '') subscriber.next({ type: 'text-delta', text });
      },
    };
  });
}
