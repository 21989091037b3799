import { concat, of, take } from 'rxjs';
import { withHeartbeat } from '../../lib/sse/to-server-sent-events';
import { createTestScheduler } from '../support/test-scheduler';

// withHeartbeat is hand-written (frames go straight to the subscriber); these pin it
// against what the composition did: the timer runs from the subscription and stops with
// the source, whatever way the source ends.
const values = { a: 'A', b: 'B', h: ': ping\n\n' };

describe('withHeartbeat (marbles)', () => {
  it('passes the frames through and beats every interval until the source completes', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a---b--|', values);
      expectObservable(source.pipe(withHeartbeat(3)), '^ 50ms !').toBe('-a-h-bh-|', values);
      expectSubscriptions(source.subscriptions).toBe('^-------!');
    });
  });

  it('a source error goes through and stops the timer', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a---#', values, new Error('boom'));
      expectObservable(source.pipe(withHeartbeat(2)), '^ 50ms !').toBe(
        '-ah-h#',
        values,
        new Error('boom'),
      );
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('an empty source completes at once, without a beat', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<string>('|');
      expectObservable(source.pipe(withHeartbeat(1))).toBe('|');
      expectSubscriptions(source.subscriptions).toBe('(^!)');
    });
  });

  it('a synchronous source is passed whole, without a beat', () => {
    createTestScheduler().run(({ expectObservable }) => {
      expectObservable(of('A', 'B').pipe(withHeartbeat(1))).toBe('(ab|)', values);
    });
  });

  it('early unsubscription tears down the source and the timer', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-------b|', values);
      expectObservable(source.pipe(withHeartbeat(2)), '^----!').toBe('-ah-h', values);
      expectSubscriptions(source.subscriptions).toBe('^----!');
    });
  });

  it('an unsubscription downstream (take) stops the timer too', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a------', values);
      expectObservable(source.pipe(withHeartbeat(2), take(3))).toBe('-ah-(h|)', values);
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('each subscription has its own timer (re-subscription starts clean)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a--|', values);
      const beating = source.pipe(withHeartbeat(3));
      expectObservable(concat(beating, beating)).toBe('-a-h-a-h|', values);
    });
  });

  it('heartbeat: false is the identity', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a--b|', values);
      expectObservable(source.pipe(withHeartbeat(false))).toBe('-a--b|', values);
    });
  });
});
