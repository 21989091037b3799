import { TestScheduler } from 'rxjs/testing';
import { filterThen } from '../../lib/core/filter-then';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const notB = (value: string): boolean => value !== 'b';

describe('filterThen', () => {
  it('sends the kept values, then an array then() returns, then completes', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c|');
      expectObservable(filterThen(source, notB, () => ['x', 'y'])).toBe('-a---c(xy|)');
    });
  });

  it('subscribes to an Observable then() returns, after the source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b|');
      const tail = cold('    -x-y|');
      expectObservable(filterThen(source, notB, () => tail)).toBe('-a---x-y|');
      expectSubscriptions(source.subscriptions).toBe('^---!');
      expectSubscriptions(tail.subscriptions).toBe('----^---!');
    });
  });

  it('fails when keep throws, and never calls then()', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c|');
      const then = jest.fn(() => ['x']);
      const keep = (value: string): boolean => {
        if (value === 'b') throw new Error('bad b');
        return true;
      };
      expectObservable(filterThen(source, keep, then)).toBe('-a-#', undefined, new Error('bad b'));
      expectSubscriptions(source.subscriptions).toBe('^--!');
      scheduler().flush();
      expect(then).not.toHaveBeenCalled();
    });
  });

  it("tells sourceFailed of the source's own error, then fails with it", () => {
    const failed: unknown[] = [];
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-#', undefined, new Error('model down'));
      expectObservable(
        filterThen(
          source,
          notB,
          () => ['x'],
          (err) => failed.push(err),
        ),
      ).toBe('-a-#', undefined, new Error('model down'));
    });
    expect(failed).toEqual([new Error('model down')]);
  });

  it('fails when then() throws', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a|');
      const then = (): string[] => {
        throw new Error('no next round');
      };
      expectObservable(filterThen(source, notB, then)).toBe(
        '-a#',
        undefined,
        new Error('no next round'),
      );
    });
  });

  it('unsubscribing tears down the source, or the tail once it runs', () => {
    scheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a---');
      expectObservable(
        filterThen(source, notB, () => ['x']),
        '^--!',
      ).toBe('-a-');
      expectSubscriptions(source.subscriptions).toBe('^--!');

      const done = cold('-a|');
      const tail = cold('  -x----y|');
      expectObservable(
        filterThen(done, notB, () => tail),
        '^----!',
      ).toBe('-a-x-');
      expectSubscriptions(tail.subscriptions).toBe('--^--!');
    });
  });
});
