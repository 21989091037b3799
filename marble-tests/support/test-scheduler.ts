// The marble tests' scheduler, as RxJS's own specs share `observableMatcher`
// (spec/helpers/observableMatcher.ts): one TestScheduler per test, asserting frames,
// values and subscriptions with deep equality.
import { TestScheduler } from 'rxjs/testing';

/** Deep equality of two frame lists (or subscription logs), with Jest's `toEqual`. */
export function observableMatcher(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
}

/** A new TestScheduler asserting with {@link observableMatcher}; make one per test. */
export function createTestScheduler(): TestScheduler {
  return new TestScheduler(observableMatcher);
}
