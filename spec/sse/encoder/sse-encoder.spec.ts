// Wire protocols as values: the built-in encoders and a custom one, through the operator, the
// responses and ResumableStreams.
import { from, Observable } from 'rxjs';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import { InvalidOptionsError } from '../../../lib/errors/invalid-options-error';
import {
  chunkEventEncoder,
  ResumableStreams,
  toServerSentEvents,
  toWebResponse,
  uiMessageStreamEncoder,
  type SseEncoder,
} from '../../../lib/sse';
import { framesText, parseSse } from '../support/sse-test-kit';

/** A plain-text protocol: the text of each delta as the data, as it is (line breaks too). */
const plainText: SseEncoder = {
  name: 'plain-text',
  headers: { 'x-protocol': 'plain-text' },
  create: (sink, { errors }) => ({
    chunk: (chunk) => {
      if (chunk.type === 'text-delta') sink.event('text', chunk.text);
    },
    complete: () => sink.event('end', ''),
    fail: (error) => sink.event('error', errors.error(error)),
  }),
  resumeError: (message) => `event: error\ndata: ${message}\n\n`,
};

const chunks: ChatChunk[] = [
  { type: 'text-delta', text: 'line one\nline two\r\n\r\nevent: end\ndata: forged' },
  { type: 'text-delta', text: 'last' },
  { type: 'finish', reason: 'stop' },
];

describe('SSE encoders', () => {
  it('a custom encoder writes its events; line breaks in its data cannot forge an event', async () => {
    const text = await framesText(
      from(chunks).pipe(toServerSentEvents({ protocol: plainText, heartbeat: false })),
    );
    expect(parseSse(text).events).toEqual([
      { id: '1', event: 'text', data: 'line one\nline two\n\nevent: end\ndata: forged' },
      { id: '2', event: 'text', data: 'last' },
      { id: '3', event: 'end', data: '' },
    ]);
  });

  it("the built-in encoders are the values behind 'rx-advisors' and 'ai-sdk-ui'", async () => {
    for (const [name, encoder] of [
      ['rx-advisors', chunkEventEncoder],
      ['ai-sdk-ui', uiMessageStreamEncoder],
    ] as const) {
      const byName = await framesText(
        from(chunks).pipe(toServerSentEvents({ protocol: name, heartbeat: false })),
      );
      const byValue = await framesText(
        from(chunks).pipe(toServerSentEvents({ protocol: encoder, heartbeat: false })),
      );
      expect(byValue).toBe(byName);
    }
  });

  it('a custom encoder over the built-in UI encoder gets every part through its own sink, deltas too', async () => {
    // The built-in encoders write deltas through a fast path; a sink that is not the
    // library's own must still receive each delta part whole, as its JSON.
    const wrapped: SseEncoder = {
      ...uiMessageStreamEncoder,
      name: 'wrapped-ui',
      create: (sink, context) =>
        uiMessageStreamEncoder.create({ event: (name, data) => sink.event(name, data) }, context),
    };
    const source: ChatChunk[] = [
      { type: 'text-delta', text: 'a "quoted"\nline' },
      {
        type: 'tool-call-delta',
        index: 0,
        id: 'call-1',
        name: 'getTime',
        argumentsDelta: '{"tz":',
      },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"UTC"}' },
      { type: 'finish', reason: 'tool-calls' },
    ];
    const [viaWrapper, direct] = await Promise.all(
      [wrapped, uiMessageStreamEncoder].map((protocol) =>
        framesText(from(source).pipe(toServerSentEvents({ protocol, heartbeat: false }))),
      ),
    );
    expect(viaWrapper).toBe(direct);
    const parts = parseSse(viaWrapper).events.map(({ data }) => data);
    expect(parts).toContain('{"type":"text-delta","id":"text-1","delta":"a \\"quoted\\"\\nline"}');
    expect(parts).toContain(
      '{"type":"tool-input-delta","toolCallId":"call-1","inputTextDelta":"\\"UTC\\"}"}',
    );
  });

  it("a response sends the encoder's headers", () => {
    const response = toWebResponse(from(chunks), { protocol: plainText });
    expect(response.headers.get('x-protocol')).toBe('plain-text');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(
      toWebResponse(from(chunks), { protocol: 'ai-sdk-ui' }).headers.get(
        'x-vercel-ai-ui-message-stream',
      ),
    ).toBe('v1');
  });

  it('a resumable stream answers a resume it cannot serve with its encoder’s error frame', async () => {
    const streams = new ResumableStreams();
    const key = { owner: 'o', streamId: 's' };
    await framesText(streams.start(key, from(chunks), { protocol: plainText, heartbeat: false }));
    const text = await framesText(streams.resume(key, { lastEventId: 'nope', heartbeat: false }));
    expect(parseSse(text).events).toEqual([
      { id: undefined, event: 'error', data: expect.stringContaining('not an event id') },
    ]);
    // Another front over the same store learns the encoder from its options.
    const other = new ResumableStreams({ store: streams.store, encoders: [plainText] });
    const response = await other.resumeToWebResponse(key, new Request('http://x/'));
    expect(response.headers.get('x-protocol')).toBe('plain-text');
    await response.body!.cancel();
    streams.clear();
  });

  it.each([[{ name: 'x' }], ['text'], [null]])(
    'rejects the protocol %j with an InvalidOptionsError',
    (protocol) => {
      let caught: unknown;
      try {
        toServerSentEvents({ protocol: protocol as unknown as SseEncoder });
      } catch (error) {
        caught = error;
      }
      expect(InvalidOptionsError.isInstance(caught) && caught.option).toBe('protocol');
    },
  );
});

describe('a custom encoder that throws', () => {
  it('fails the stream with its error event (safe text), and unsubscribes the source', async () => {
    let tornDown = false;
    const throwing: SseEncoder = {
      ...plainText,
      create: (sink, context) => {
        const inner = plainText.create(sink, context);
        return {
          ...inner,
          chunk: (chunk) => {
            if (chunk.type === 'text-delta' && chunk.text === 'last') {
              throw new Error('encoder bug with sk-secret');
            }
            inner.chunk(chunk);
          },
        };
      },
    };
    const source$ = new Observable<ChatChunk>((subscriber) => {
      chunks.forEach((chunk) => subscriber.next(chunk));
      return () => (tornDown = true);
    });
    const text = await framesText(
      source$.pipe(toServerSentEvents({ protocol: throwing, heartbeat: false })),
    );
    expect(parseSse(text).events.map((event) => `${event.event}:${event.data}`)).toEqual([
      'text:line one\nline two\n\nevent: end\ndata: forged',
      'error:The stream failed on the server.',
    ]);
    expect(tornDown).toBe(true);
  });
});
