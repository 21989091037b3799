import { type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { ResumableStreamError } from '../../lib/errors/resumable-stream-error';
import { chunkEventEncoder } from '../../lib/sse/chunk-event-encoder';
import type { ResumableStreamStore } from '../../lib/sse/resumable-stream-store';
import { checkedStoredFrames } from '../../lib/sse/resumable-streams-restore';
import { createTestScheduler } from '../support/test-scheduler';

// A resume with a cursor after a restart (docs/durable-runs.md): the kept stream is read
// from one event before the client's last one, and that event must carry the client's id;
// otherwise (another incarnation of the stream) the restored run answers instead. In
// virtual time: which source is subscribed when, and that unsubscribing reaches both.

const A = 'id: 4.10\nevent: text-delta\ndata: {}\n\n'; // the client's last event
const B = 'id: 5.12\nevent: text-delta\ndata: {}\n\n';
const C = 'id: 6.13\nevent: finish\ndata: {}\n\n';
const X = 'id: 4.40\nevent: text-delta\ndata: {}\n\n'; // event 4 of another incarnation
const R = 'id: 1.10\nevent: data\ndata: {}\n\n'; // the restored stream's first event
const key = { owner: 'o', streamId: 's' };

/** A store whose read is `read$`, recording the `after` it was asked for. */
function storeReading(read$: Observable<string>, afters: number[]): ResumableStreamStore {
  return {
    read: (_key, after) => {
      afters.push(after);
      return read$;
    },
  } as ResumableStreamStore;
}

describe('checkedStoredFrames (marbles)', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it("drops the client's own last event and passes the rest; the restore is never subscribed", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read$ = cold('-a-b-c|', { a: A, b: B, c: C });
      const restored$ = cold('-r|', { r: R });
      const afters: number[] = [];
      const store = storeReading(read$, afters);
      const last = { seq: 4, id: '4.10', cursor: '10' };
      const out$ = checkedStoredFrames(store, key, chunkEventEncoder, last, false, () => restored$);
      expectObservable(out$).toBe('---b-c|', { b: B, c: C });
      expectSubscriptions(read$.subscriptions).toBe('^-----!');
      expectSubscriptions(restored$.subscriptions).toBe([]);
      testScheduler.flush();
      expect(afters).toEqual([3]);
    });
  });

  it('switches to the restored run at the first event when it is another incarnation', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read$ = cold('-x-b-c|', { x: X, b: B, c: C });
      const restored$ = cold('-r-b|', { r: R, b: B });
      const store = storeReading(read$, []);
      const last = { seq: 4, id: '4.10', cursor: '10' };
      const out$ = checkedStoredFrames(store, key, chunkEventEncoder, last, false, () => restored$);
      expectObservable(out$).toBe('--r-b|', { r: R, b: B });
      expectSubscriptions(read$.subscriptions).toBe('^!');
      expectSubscriptions(restored$.subscriptions).toBe('-^---!');
    });
  });

  it('switches to the restored run when the kept stream ends before the client event', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read$ = cold('---|');
      const restored$ = cold('-r|', { r: R });
      const store = storeReading(read$, []);
      const out$ = checkedStoredFrames(
        store,
        key,
        chunkEventEncoder,
        { seq: 9, id: '9.50', cursor: '50' },
        false,
        () => restored$,
      );
      expectObservable(out$).toBe('----r|', { r: R });
      expectSubscriptions(read$.subscriptions).toBe('^--!');
      expectSubscriptions(restored$.subscriptions).toBe('---^-!');
    });
  });

  it('tears down the restored run when the client goes away', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read$ = cold('-x|', { x: X });
      const restored$ = cold('-r-----b|', { r: R, b: B });
      const store = storeReading(read$, []);
      const last = { seq: 4, id: '4.10', cursor: '10' };
      const out$ = checkedStoredFrames(store, key, chunkEventEncoder, last, false, () => restored$);
      expectObservable(out$, '^----!').toBe('--r--', { r: R });
      expectSubscriptions(restored$.subscriptions).toBe('-^---!');
    });
  });

  it('answers a store failure with the protocol error frame, no restore', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const read$ = cold('--#', {}, new Error('connection refused to 10.0.0.7'));
      const restored$ = cold('-r|', { r: R });
      const store = storeReading(read$, []);
      const last = { seq: 4, id: '4.10', cursor: '10' };
      const out$ = checkedStoredFrames(store, key, chunkEventEncoder, last, false, () => restored$);
      expectObservable(out$).toBe('--(e|)', {
        e: chunkEventEncoder.resumeError('The stream cannot be read right now.'),
      });
      expectSubscriptions(restored$.subscriptions).toBe([]);
    });
  });

  it('restores after the last event it sent when the stream goes while read (its instance died)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const gone = new ResumableStreamError({
        streamId: 's',
        reason: 'not-found',
        message: 'gone',
      });
      const read$ = cold('-a-b-c-#', { a: A, b: B, c: C }, gone);
      const restored$ = cold('-r|', { r: R });
      const cursors: (string | undefined)[] = [];
      const store = storeReading(read$, []);
      const last = { seq: 4, id: '4.10', cursor: '10' };
      const restoreAfter = (cursor: string | undefined) => {
        cursors.push(cursor);
        return restored$;
      };
      const out$ = checkedStoredFrames(store, key, chunkEventEncoder, last, false, restoreAfter);
      expectObservable(out$).toBe('---b-c--r|', { b: B, c: C, r: R });
      expectSubscriptions(restored$.subscriptions).toBe('-------^-!');
      testScheduler.flush();
      expect(cursors).toEqual(['13']);
    });
  });

  it('does not restore a stream that goes while read after a plain id (no cursor to start from)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const gone = new ResumableStreamError({
        streamId: 's',
        reason: 'not-found',
        message: 'gone',
      });
      const read$ = cold('-#', {}, gone);
      const restored$ = cold('-r|', { r: R });
      const store = storeReading(read$, []);
      const out$ = checkedStoredFrames(
        store,
        key,
        chunkEventEncoder,
        { seq: 4, id: '4' },
        false,
        () => restored$,
      );
      expectObservable(out$).toBe('-(e|)', { e: chunkEventEncoder.resumeError('gone') });
      expectSubscriptions(restored$.subscriptions).toBe([]);
    });
  });

  it('answers an id past the end without a cursor with the error frame, no restore', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const ahead = new ResumableStreamError({ streamId: 's', reason: 'ahead', message: 'ahead' });
      const read$ = cold('-#', {}, ahead);
      const restored$ = cold('-r|', { r: R });
      const store = storeReading(read$, []);
      const last = { seq: 99, id: '99' };
      const out$ = checkedStoredFrames(store, key, chunkEventEncoder, last, false, () => restored$);
      expectObservable(out$).toBe('-(e|)', { e: chunkEventEncoder.resumeError('ahead') });
      expectSubscriptions(restored$.subscriptions).toBe([]);
    });
  });
});
