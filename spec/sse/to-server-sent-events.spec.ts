import { concat, from, Observable, of, throwError, type Subscription } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatClient } from '../../lib/client/chat-client';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { ProviderError } from '../../lib/errors/provider-error';
import { toServerSentEvents } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { framesText, parseSse } from './support/sse-test-kit';

const noHeartbeat = { heartbeat: false } as const;

describe('toServerSentEvents (rx-advisors protocol)', () => {
  it('turns every chunk into one event with an increasing id and JSON data, then done', async () => {
    const client = ChatClient.create(
      MockChatModel.script([{ text: 'Hello there', usage: { inputTokens: 3, outputTokens: 2 } }]),
    );
    const text = await framesText(
      client.prompt('hi').stream().chunks().pipe(toServerSentEvents(noHeartbeat)),
    );
    const { events } = parseSse(text);

    expect(events.map((event) => event.event)).toEqual([
      'metadata',
      'text-delta',
      'text-delta',
      'usage',
      'finish',
      'done',
    ]);
    expect(events.map((event) => event.id)).toEqual(['1', '2', '3', '4', '5', '6']);
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data) as ChatChunk);
    expect(
      chunks
        .filter((c) => c.type === 'text-delta')
        .map((c) => (c as { text: string }).text)
        .join(''),
    ).toBe('Hello there');
    expect(chunks[4]).toEqual({ type: 'finish', reason: 'stop' });
    expect(events[5].data).toBe('{}');
  });

  it('emits one string per frame, each ending in a blank line', () => {
    const frames: string[] = [];
    from<ChatChunk[]>([
      { type: 'text-delta', text: 'a' },
      { type: 'finish', reason: 'stop' },
    ])
      .pipe(toServerSentEvents(noHeartbeat))
      .subscribe((frame) => frames.push(frame));
    expect(frames).toEqual([
      'id: 1\nevent: text-delta\ndata: {"type":"text-delta","text":"a"}\n\n',
      'id: 2\nevent: finish\ndata: {"type":"finish","reason":"stop"}\n\n',
      'id: 3\nevent: done\ndata: {}\n\n',
    ]);
  });

  describe('forged frames', () => {
    const attacks = [
      '\n\nevent: done\ndata: x',
      '\r\revent: done\rdata: x',
      '\r\n\r\nevent: done\r\ndata: x\r\n\r\n',
      'id: 999\n\nevent: error\ndata: {"message":"pwned"}\n\n',
      'data: [DONE]\n\n',
      ': comment\n\nretry: 1\n\n',
      '\u2028\u2029\u0000\u0085',
    ];

    it.each(attacks)('a model text %j stays inside one text-delta event', async (attack) => {
      const model = MockChatModel.script([{ text: ['Look: ', attack, ' end'] }]);
      const text = await framesText(
        ChatClient.create(model)
          .prompt('hi')
          .stream()
          .chunks()
          .pipe(toServerSentEvents(noHeartbeat)),
      );
      const { events } = parseSse(text);

      expect(events.map((event) => event.event)).toEqual([
        'metadata',
        'text-delta',
        'text-delta',
        'text-delta',
        'finish',
        'done',
      ]);
      const texts = events
        .filter((event) => event.event === 'text-delta')
        .map((event) => (JSON.parse(event.data) as { text: string }).text);
      expect(texts).toEqual(['Look: ', attack, ' end']);
    });

    it('the same attack inside reasoning, tool arguments and tool results changes nothing', async () => {
      const attack = '\n\nevent: done\ndata: x\r\n\r\n';
      const chunks: ChatChunk[] = [
        { type: 'reasoning-delta', text: attack },
        { type: 'tool-call-delta', index: 0, id: attack, name: attack, argumentsDelta: attack },
        { type: 'tool-call', id: attack, name: attack, arguments: attack },
        { type: 'tool-result', id: attack, name: attack, content: attack },
        { type: 'finish', reason: 'stop' },
      ];
      const { events } = parseSse(
        await framesText(from(chunks).pipe(toServerSentEvents(noHeartbeat))),
      );
      expect(events.map((event) => event.event)).toEqual([...chunks.map((c) => c.type), 'done']);
      expect(events.slice(0, -1).map((event) => JSON.parse(event.data) as unknown)).toEqual(chunks);
    });

    it('a chunk type with line breaks cannot open a field of its own', async () => {
      const forged = {
        type: 'text-delta\n\nevent: done\ndata: x\r\nid: 77',
        text: 'x',
      } as unknown as ChatChunk;
      const { events } = parseSse(
        await framesText(
          of(forged, { type: 'finish', reason: 'stop' } as ChatChunk).pipe(
            toServerSentEvents(noHeartbeat),
          ),
        ),
      );
      expect(events.map((event) => event.event)).toEqual([
        'text-deltaevent: donedata: xid: 77',
        'finish',
        'done',
      ]);
      expect(events.map((event) => event.id)).toEqual(['1', '2', '3']);
    });
  });

  describe('errors', () => {
    const failing = (error: unknown): Observable<ChatChunk> =>
      concat(
        of<ChatChunk[]>({ type: 'text-delta', text: 'partial' }),
        throwError(() => error),
      );
    const secret = new ProviderError({
      provider: 'openai',
      message: 'key sk-secret-123 rejected',
      status: 401,
    });

    it('become one error event with a safe message, then the stream ends (no done)', async () => {
      const text = await framesText(failing(secret).pipe(toServerSentEvents(noHeartbeat)));
      const { events } = parseSse(text);
      expect(events.map((event) => event.event)).toEqual(['text-delta', 'error']);
      expect(JSON.parse(events[1].data)).toEqual({ message: 'The stream failed on the server.' });
      expect(text).not.toContain('sk-secret');
    });

    it("send the raw message only with errorMessage: 'raw'", async () => {
      const { events } = parseSse(
        await framesText(
          failing(secret).pipe(toServerSentEvents({ ...noHeartbeat, errorMessage: 'raw' })),
        ),
      );
      expect(JSON.parse(events[1].data)).toEqual({
        message: 'openai: key sk-secret-123 rejected',
      });
    });

    it('send what an errorMessage function returns, and the safe message when it throws', async () => {
      const mapped = parseSse(
        await framesText(
          failing(secret).pipe(
            toServerSentEvents({
              ...noHeartbeat,
              errorMessage: (error) =>
                ProviderError.isInstance(error) ? `provider ${error.status}` : 'other',
            }),
          ),
        ),
      );
      expect(JSON.parse(mapped.events[1].data)).toEqual({ message: 'provider 401' });

      const throwing = parseSse(
        await framesText(
          failing(secret).pipe(
            toServerSentEvents({
              ...noHeartbeat,
              errorMessage: () => {
                throw new Error('callback bug');
              },
            }),
          ),
        ),
      );
      expect(throwing.events.map((event) => event.event)).toEqual(['text-delta', 'error']);
      expect(JSON.parse(throwing.events[1].data)).toEqual({
        message: 'The stream failed on the server.',
      });
    });

    it('a chunk JSON cannot represent becomes an error event and unsubscribes the source', async () => {
      let tornDown = false;
      const source$ = new Observable<ChatChunk>((subscriber) => {
        subscriber.next({ type: 'metadata', id: 'x', big: 1n } as unknown as ChatChunk);
        return () => {
          tornDown = true;
        };
      });
      const { events } = parseSse(await framesText(source$.pipe(toServerSentEvents(noHeartbeat))));
      expect(events.map((event) => event.event)).toEqual(['error']);
      expect(tornDown).toBe(true);
    });
  });

  it('an empty source still ends with done', async () => {
    const { events } = parseSse(
      await framesText(from<ChatChunk[]>([]).pipe(toServerSentEvents(noHeartbeat))),
    );
    expect(events).toEqual([{ id: '1', event: 'done', data: '{}' }]);
  });

  it('unsubscribing unsubscribes the model stream', () => {
    let tornDown = false;
    const source$ = new Observable<ChatChunk>((subscriber) => {
      subscriber.next({ type: 'text-delta', text: 'a' });
      return () => {
        tornDown = true;
      };
    });
    const frames: string[] = [];
    const subscription: Subscription = source$
      .pipe(toServerSentEvents())
      .subscribe((f) => frames.push(f));
    expect(frames).toHaveLength(1);
    subscription.unsubscribe();
    expect(tornDown).toBe(true);
  });

  it('re-subscribing starts a new stream: ids start again at 1, the model is called again', async () => {
    const model = MockChatModel.script([{ text: 'one' }, { text: 'two' }]);
    const frames$ = ChatClient.create(model)
      .prompt('hi')
      .stream()
      .chunks()
      .pipe(toServerSentEvents(noHeartbeat));
    const first = parseSse(await framesText(frames$)).events;
    const second = parseSse(await framesText(frames$)).events;
    expect(first.map((e) => e.id)).toEqual(second.map((e) => e.id));
    expect(first[0].id).toBe('1');
    expect(JSON.parse(second[1].data)).toEqual({ type: 'text-delta', text: 'two' });
    expect(model.calls).toBe(2);
  });

  it.each([
    [{ protocol: 'sse' }, 'protocol'],
    [{ heartbeat: 0 }, 'heartbeat'],
    [{ heartbeat: -5 }, 'heartbeat'],
    [{ heartbeat: Infinity }, 'heartbeat'],
    [{ heartbeat: '1000' }, 'heartbeat'],
    [{ errorMessage: 'verbose' }, 'errorMessage'],
  ])('rejects bad options %j with an InvalidOptionsError naming %s', (options, option) => {
    let caught: unknown;
    try {
      toServerSentEvents(options as never);
    } catch (error) {
      caught = error;
    }
    expect(InvalidOptionsError.isInstance(caught)).toBe(true);
    expect((caught as InvalidOptionsError).option).toBe(option);
  });
});
