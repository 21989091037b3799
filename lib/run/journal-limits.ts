import { Rules, type OptionRules } from '../core/validate-options.js';
import { RunJournalError } from '../errors/run-journal-error.js';
import type { RunJournalLimits } from './run-journal.js';

/**
 * The defaults of {@link RunJournalLimits}.
 * @internal
 */
export const RUN_JOURNAL_LIMIT_DEFAULTS = {
  maxRecords: 10_000,
  maxRecordBytes: 4 * 1024 * 1024,
  maxRunBytes: 64 * 1024 * 1024,
  ttlMs: 7 * 24 * 60 * 60 * 1000,
} as const satisfies Required<RunJournalLimits>;

/**
 * The option rules of {@link RunJournalLimits}, for a store's own rules to spread.
 * @internal
 */
export const RUN_JOURNAL_LIMIT_RULES: OptionRules<RunJournalLimits> = {
  maxRecords: Rules.integer(1),
  maxRecordBytes: Rules.integer(1),
  maxRunBytes: Rules.integer(1),
  ttlMs: Rules.integer(1),
};

const encoder = new TextEncoder();
/** Node's `Buffer`, when the runtime has one (looked up, never imported: browsers have none). */
const NODE_BUFFER = (
  globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }
).Buffer;

/**
 * The UTF-8 size of each encoded record.
 * @internal
 */
export function recordSizes(texts: readonly string[]): number[] {
  // Buffer.byteLength counts without making the bytes; TextEncoder (browsers) makes them.
  return NODE_BUFFER === undefined
    ? texts.map((text) => encoder.encode(text).byteLength)
    : texts.map((text) => NODE_BUFFER.byteLength(text, 'utf8'));
}

/**
 * Refuses an append that would pass a limit.
 * @internal
 * @param runId The run, for the error.
 * @param sizes The sizes of the records to append.
 * @param current The run's record count and bytes before the append.
 * @param limits The store's limits.
 * @throws RunJournalError `'too-large'`.
 */
export function checkAppendLimits(
  runId: string,
  sizes: readonly number[],
  current: { readonly records: number; readonly bytes: number },
  limits: Required<RunJournalLimits>,
): void {
  const tooLarge = (what: string): RunJournalError =>
    new RunJournalError({
      runId,
      reason: 'too-large',
      message: `The run's journal would pass ${what}; the append was refused and nothing was written.`,
    });
  if (current.records + sizes.length > limits.maxRecords) {
    throw tooLarge(`maxRecords (${limits.maxRecords})`);
  }
  let bytes = current.bytes;
  for (const size of sizes) {
    if (size > limits.maxRecordBytes) throw tooLarge(`maxRecordBytes (${limits.maxRecordBytes})`);
    bytes += size;
  }
  if (bytes > limits.maxRunBytes) throw tooLarge(`maxRunBytes (${limits.maxRunBytes})`);
}

/**
 * The error of an append whose expected length is not the run's.
 * @internal
 */
export function appendConflict(runId: string, expected: number, actual: number): RunJournalError {
  return new RunJournalError({
    runId,
    reason: 'conflict',
    message:
      `The run's journal has ${actual} records where the writer expected ${expected}: ` +
      'another instance is writing the same run.',
  });
}
