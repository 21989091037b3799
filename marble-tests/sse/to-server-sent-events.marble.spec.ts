import { map } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { toServerSentEvents } from '../../lib/sse';
import { createTestScheduler } from '../support/test-scheduler';

const chunks: Record<string, ChatChunk> = {
  a: { type: 'text-delta', text: 'Hel' },
  b: { type: 'text-delta', text: 'lo' },
  f: { type: 'finish', reason: 'stop' },
};
const event = (id: number, type: string, data: string): string =>
  `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;
const frames: Record<string, string> = {
  A: event(1, 'text-delta', JSON.stringify(chunks.a)),
  B: event(2, 'text-delta', JSON.stringify(chunks.b)),
  F: event(3, 'finish', JSON.stringify(chunks.f)),
  D: event(4, 'done', '{}'),
  h: ': ping\n\n',
};

describe('toServerSentEvents (marbles)', () => {
  it('sends heartbeats on an RxJS interval while the stream runs, and stops at its end', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b------f|', chunks);
      const expected = '   -A-Bh---h-F(D|)';
      expectObservable(source.pipe(toServerSentEvents({ heartbeat: 4 })), '^ 100ms !').toBe(
        expected,
        frames,
      );
      expectSubscriptions(source.subscriptions).toBe('^----------!');
    });
  });

  it('sends nothing but heartbeats while the model is silent', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ChatChunk>('-------');
      expectObservable(source.pipe(toServerSentEvents({ heartbeat: 2 })), '^------!').toBe(
        '--h-h-h',
        frames,
      );
      expectSubscriptions(source.subscriptions).toBe('^------!');
    });
  });

  it('with heartbeat: false, frames follow the chunks exactly', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-f|', chunks);
      expectObservable(source.pipe(toServerSentEvents({ heartbeat: false }))).toBe(
        '-A-B-F(D|)',
        frames,
      );
      expectSubscriptions(source.subscriptions).toBe('^-----!');
    });
  });

  it('a source error becomes an error event, then the frames complete', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-#', chunks, new Error('boom'));
      const expected = '   -Ah(E|)';
      expectObservable(source.pipe(toServerSentEvents({ heartbeat: 2 }))).toBe(expected, {
        ...frames,
        E: event(2, 'error', JSON.stringify({ message: 'The stream failed on the server.' })),
      });
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('a throwing errorMessage callback still ends the stream with the safe message', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-#', chunks, new Error('boom'));
      const operator = toServerSentEvents({
        heartbeat: false,
        errorMessage: () => {
          throw new Error('bug in the callback');
        },
      });
      expectObservable(source.pipe(operator)).toBe('-(E|)', {
        E: event(1, 'error', JSON.stringify({ message: 'The stream failed on the server.' })),
      });
    });
  });

  it('an empty source is a done event alone', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ChatChunk>('|');
      expectObservable(source.pipe(toServerSentEvents({ heartbeat: 3 }))).toBe('(D|)', {
        D: event(1, 'done', '{}'),
      });
      expectSubscriptions(source.subscriptions).toBe('(^!)');
    });
  });

  it('early unsubscription tears down the source and the heartbeat timer', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b------f|', chunks);
      expectObservable(source.pipe(toServerSentEvents({ heartbeat: 2 })), '^---!').toBe(
        '-AhB',
        frames,
      );
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('re-subscription starts again: ids from 1, heartbeat timer anew', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b|', chunks);
      const frames$ = source.pipe(toServerSentEvents({ heartbeat: 2 }));
      const shifted = { ...frames, C: event(3, 'done', '{}') };
      expectObservable(frames$).toBe('-AhB(C|)', shifted);
      expectObservable(frames$, '--^').toBe('---AhB(C|)', shifted);
      expectSubscriptions(source.subscriptions).toBe(['^---!', '--^---!']);
    });
  });

  it("'ai-sdk-ui': each loop round is a step whose frames arrive when the round's chunks do", () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<ChatChunk>('s 9ms a 9ms e 9ms t 9ms r 9ms S 9ms b 9ms F 9ms |', {
        s: { type: 'round-start', round: 1 },
        a: { type: 'text-delta', text: 'Checking' },
        e: { type: 'round-end', round: 1, finishReason: 'tool-calls' },
        t: { type: 'tool-call', id: 'c1', name: 'getTime', arguments: '{}' },
        r: { type: 'tool-result', id: 'c1', name: 'getTime', content: 'noon' },
        S: { type: 'round-start', round: 2 },
        b: { type: 'text-delta', text: 'Noon.' },
        F: { type: 'finish', reason: 'stop' },
      });
      const types$ = source.pipe(
        toServerSentEvents({ protocol: 'ai-sdk-ui', heartbeat: false }),
        map((frame) => {
          const data = frame.slice(frame.indexOf('data: ') + 6, -2);
          return data === '[DONE]' ? data : (JSON.parse(data) as { type: string }).type;
        }),
      );
      const expected = '(ab) 6ms (cd) 6ms e 9ms (fg) 6ms h 9ms (ij) 6ms (kl) 6ms (mno) 5ms (p|)';
      expectObservable(types$).toBe(expected, {
        a: 'start',
        b: 'start-step',
        c: 'text-start',
        d: 'text-delta',
        e: 'text-end',
        f: 'tool-input-start',
        g: 'tool-input-available',
        h: 'tool-output-available',
        i: 'finish-step',
        j: 'start-step',
        k: 'text-start',
        l: 'text-delta',
        m: 'text-end',
        n: 'finish-step',
        o: 'finish',
        p: '[DONE]',
      });
      expectSubscriptions(source.subscriptions).toBe('^ 79ms !');
    });
  });
});
