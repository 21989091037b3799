/**
 * Where a detector found PII inside a run: `[start, end)`, offsets into the run.
 * @example
 * ```ts
 * import type { PiiSpan } from 'rx-advisors/guardrails';
 * const span: PiiSpan = { start: 1, end: 17 };
 * ```
 */
export interface PiiSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * Finds one kind of PII, run by run: the redactor cuts the text into maximal *runs* of the
 * characters `isRunChar` accepts (for an e-mail: letters, digits and `._%+-@`) and asks
 * `detect` about each complete run no longer than `maxLength` (a longer run is never PII).
 * A run is decided only once it has ended, so where the text was split into chunks cannot
 * change the outcome, and each character is read once per detector: with `detect` bounded
 * by `maxLength`, redaction is linear in the text whatever it contains.
 *
 * @example
 * ```ts
 * import type { PiiDetector } from 'rx-advisors/guardrails';
 * // Employee numbers: E- followed by 6 digits.
 * const employeeId: PiiDetector = {
 *   name: 'employee-id',
 *   maxLength: 8,
 *   isRunChar: (code) => (code >= 48 && code <= 57) || code === 69 || code === 45,
 *   detect: (run) => (/^E-\d{6}$/.test(run) ? { start: 0, end: run.length } : undefined),
 * };
 * ```
 */
export interface PiiDetector {
  /** The kind of PII; the default replacement is `[<name>]`. */
  readonly name: string;
  /** The text that replaces a match (default `[<name>]`). */
  readonly replacement?: string;
  /** The longest run it looks at (characters); also what the stream may hold back. */
  readonly maxLength: number;
  /**
   * The shortest run that can hold this PII (default 0): shorter runs are not handed to
   * `detect`. A pure speed-up: it must not be longer than any run `detect` accepts.
   */
  readonly minLength?: number;
  /** Whether a UTF-16 code unit belongs to a run. */
  isRunChar(code: number): boolean;
  /**
   * Whether a run character is one every match contains (an e-mail's `@`, a card's digits);
   * runs without one are not handed to `detect`. Default: every run character. A pure
   * speed-up, like `minLength`.
   */
  isKeyChar?(code: number): boolean;
  /** The PII in one complete run, if any. */
  detect(run: string): PiiSpan | undefined;
}
