import type { RunJournal } from '../../../../lib/run/run-journal';
import type { RunKey } from '../../../../lib/run/run-key';
import type { RunRecord } from '../../../../lib/run/run-record';

/**
 * A journal that "crashes" at its n-th append: that append and every later one fail, as
 * if the process died there; what was appended before stays in the inner journal, where a
 * fresh client resumes the run. (The real kill test is spec/run/durable/kill.spec.ts.)
 */
export class CrashingJournal implements RunJournal {
  appends = 0;

  constructor(
    private readonly inner: RunJournal,
    private readonly crashAt: number,
  ) {}

  append(key: RunKey, records: readonly RunRecord[], expectedLength: number): Promise<number> {
    this.appends++;
    if (this.appends >= this.crashAt) return Promise.reject(new Error('crashed'));
    return this.inner.append(key, records, expectedLength);
  }

  read(key: RunKey): Promise<readonly RunRecord[]> {
    return this.inner.read(key);
  }

  delete(key: RunKey): Promise<void> {
    return this.inner.delete(key);
  }
}
