import type { PiiDetector } from './pii-detector.js';

/**
 * The detectors of a redaction as bit masks, computed once per detector list: for a UTF-16
 * code unit, which detectors' runs it belongs to (`runMask`) and in which of those runs it is
 * a key character (`keyMask`); ASCII from tables, the rest asked of the detectors (and
 * cached). A scanner then reads one mask per character for all detectors at once.
 * @internal
 */
export interface PiiClasses {
  readonly detectors: readonly PiiDetector[];
  /** `runMask` of the ASCII code units. */
  readonly asciiRun: Int32Array;
  /** `keyMask` of the ASCII code units. */
  readonly asciiKey: Int32Array;
  /** Each detector's `minLength` (0 when not given) and `maxLength`. */
  readonly minLength: Int32Array;
  readonly maxLength: Int32Array;
  runMask(code: number): number;
  keyMask(code: number): number;
}

/**
 * The most detectors one redaction takes (one bit each in a 32-bit mask).
 * @internal
 */
export const MAX_PII_DETECTORS = 31;

const COMPILED = new WeakMap<readonly PiiDetector[], PiiClasses>();
const CACHE_LIMIT = 4096;

/**
 * The {@link PiiClasses} of a detector list (built once per list, then shared).
 * @example
 * ```ts
 * // internal: not exported
 * const classes = piiClassesOf(DEFAULT_PII_DETECTORS);
 * classes.asciiRun[0x40]; // the detectors whose runs take '@' (email)
 * ```
 * @param detectors At most {@link MAX_PII_DETECTORS} detectors.
 * @returns The classes.
 * @internal
 */
export function piiClassesOf(detectors: readonly PiiDetector[]): PiiClasses {
  let classes = COMPILED.get(detectors);
  if (classes === undefined) {
    classes = compile(detectors);
    COMPILED.set(detectors, classes);
  }
  return classes;
}

function compile(detectors: readonly PiiDetector[]): PiiClasses {
  const ask = (code: number): [number, number] => {
    let run = 0;
    let key = 0;
    for (let d = 0; d < detectors.length; d++) {
      const detector = detectors[d];
      if (!detector.isRunChar(code)) continue;
      run |= 1 << d;
      if (detector.isKeyChar?.(code) ?? true) key |= 1 << d;
    }
    return [run, key];
  };
  const asciiRun = new Int32Array(128);
  const asciiKey = new Int32Array(128);
  for (let code = 0; code < 128; code++) [asciiRun[code], asciiKey[code]] = ask(code);
  const other = new Map<number, [number, number]>();
  const masks = (code: number): [number, number] => {
    let known = other.get(code);
    if (known === undefined) {
      known = ask(code);
      if (other.size < CACHE_LIMIT) other.set(code, known);
    }
    return known;
  };
  return {
    detectors,
    asciiRun,
    asciiKey,
    minLength: Int32Array.from(detectors, (d) => d.minLength ?? 0),
    maxLength: Int32Array.from(detectors, (d) => d.maxLength),
    runMask: (code) => (code < 128 ? asciiRun[code] : masks(code)[0]),
    keyMask: (code) => (code < 128 ? asciiKey[code] : masks(code)[1]),
  };
}
