// Resume in the demo over real HTTP: a POST /api/chat whose connection drops mid-answer is
// continued with GET /api/chat/<x-stream-id> and Last-Event-ID; DELETE cancels a stream.
import { randomUUID } from 'node:crypto';
import { concat, NEVER, of, tap, type Observable } from 'rxjs';
import type { ChatChunk, ChatModel, ChatRequest } from '../../lib/index';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { FIXED_NOW, fetchJson, postChat, resumeChat, tempDataDir } from './demo-test-kit';

const PARIS_ANSWER =
  '(offline demo model) It is 13:30 on Monday 2024-01-15 in Paris (Europe/Paris).';

/** A model that counts how its calls end: completed, or unsubscribed before the end. */
function watched(inner: ChatModel) {
  const watch = { calls: 0, completed: 0, unsubscribed: 0 };
  const model: ChatModel = {
    provider: inner.provider,
    stream: (request: ChatRequest): Observable<ChatChunk> => {
      watch.calls++;
      return inner
        .stream(request)
        .pipe(tap({ complete: () => watch.completed++, unsubscribe: () => watch.unsubscribed++ }));
    },
  };
  return { model, watch };
}

/** One delta, then nothing until unsubscribed. */
function hanging() {
  return watched({
    provider: 'hanging',
    stream: () => concat(of<ChatChunk>({ type: 'text-delta', text: 'thinking' }), NEVER),
  });
}

/** Polls until `condition` holds (the server sees a disconnect a moment after the client). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('demo server: resumable chat streams', () => {
  let server: DemoServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (model: ChatModel, resume?: { ttl: number }) => {
    server = await startDemoServer({
      port: 0,
      model,
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
      ...(resume === undefined ? {} : { resume }),
    });
    return server;
  };

  it('continues a dropped answer after Last-Event-ID: all text once, model not aborted, saved once', async () => {
    const { model, watch } = watched(new OfflineDemoModel({ interval: 15, firstChunkDelay: 0 }));
    const running = await start(model);
    let deltas = 0;
    const first = await postChat(running.url, 'What time is it in Paris?', {
      onEvent: (event, req) => {
        if (event.event === 'text-delta' && ++deltas === 3) req.destroy(); // the network drops
      },
    });
    const streamId = first.headers['x-stream-id'] as string;
    const cookie = first.setCookie!;
    expect(streamId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.events.map((e) => e.event)).not.toContain('done');
    expect(first.text.length).toBeGreaterThan(0);
    expect(first.text.length).toBeLessThan(PARIS_ANSWER.length);
    await until(() => running.activeStreams === 0); // the server saw the client go
    expect(watch.unsubscribed).toBe(0);
    expect(running.resumableStreams).toBe(1);

    const lastEventId = first.events[first.events.length - 1].id;
    const rest = await resumeChat(running.url, streamId, { cookie, lastEventId });
    expect(rest.status).toBe(200);
    expect(rest.headers['content-type']).toMatch(/^text\/event-stream/);
    // Exactly the events after Last-Event-ID, in order, to the end.
    const ids = [...first.events, ...rest.events].map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(rest.events[rest.events.length - 1].event).toBe('done');
    expect(first.text + rest.text).toBe(PARIS_ANSWER);
    expect([...first.events, ...rest.events].filter((e) => e.event === 'tool-call')).toHaveLength(
      1,
    );
    // Both rounds ran to their end; nothing was unsubscribed or called twice.
    expect(watch).toEqual({ calls: 2, completed: 2, unsubscribed: 0 });

    const history = await fetchJson(running.url, 'api/history', { cookie });
    // Saved once: the question, the tool call and its result, the answer with its usage.
    expect(history.json.messages).toEqual([
      { role: 'user', content: 'What time is it in Paris?' },
      { role: 'assistant', content: '', toolCalls: [expect.objectContaining({ name: 'getTime' })] },
      expect.objectContaining({ role: 'tool', name: 'getTime' }),
      {
        role: 'assistant',
        content: PARIS_ANSWER,
        summary: expect.objectContaining({ finish: 'stop', rounds: 2 }),
      },
    ]);

    // A finished stream stays resumable for the ttl: no Last-Event-ID replays it all.
    const replay = await resumeChat(running.url, streamId, { cookie });
    expect(replay.text).toBe(PARIS_ANSWER);
    expect(watch.calls).toBe(2);
  });

  it('answers 204 for an unknown id or another session’s stream; the owner’s DELETE ends its resume', async () => {
    const { model } = hanging();
    const running = await start(model);
    const unknown = await resumeChat(running.url, randomUUID(), { lastEventId: '1' });
    expect([unknown.status, unknown.body]).toEqual([204, '']);

    let streamId = '';
    let cookie = '';
    const owner = postChat(running.url, 'Hello', {
      onEvent: (event, req, res) => {
        if (event.event !== 'text-delta') return;
        streamId = res.headers['x-stream-id'] as string;
        cookie = res.headers['set-cookie']![0].split(';')[0]!;
        req.destroy();
      },
    });
    await owner;
    const stranger = await resumeChat(running.url, streamId, { lastEventId: '0' });
    expect(stranger.status).toBe(204);
    const strangerCancel = await fetch(new URL(`api/chat/${streamId}`, running.url), {
      method: 'DELETE',
    });
    expect(strangerCancel.status).toBe(404);
    expect(running.resumableStreams).toBe(1); // still there for its owner
    expect((await fetchJson(running.url, 'api/chat/not-an-id')).status).toBe(404);

    // The owner resumes after the last event it saw (1: round-start, 2: the delta).
    let resumedEvents = 0;
    const rest = resumeChat(running.url, streamId, {
      cookie,
      lastEventId: '2',
      onEvent: () => resumedEvents++,
    });
    await until(() => running.activeStreams === 1);
    expect(
      (
        await fetch(new URL(`api/chat/${streamId}`, running.url), {
          method: 'DELETE',
          headers: { cookie },
        })
      ).status,
    ).toBe(204);
    const ended = await rest;
    expect(resumedEvents).toBe(1);
    expect(ended.events).toEqual([
      { event: 'error', id: undefined, data: { message: 'The stream was ended on the server.' } },
    ]);
  });

  it('Stop: DELETE /api/chat/<id> aborts the model, ends the response, and the id is gone', async () => {
    const { model, watch } = hanging();
    const running = await start(model);
    let cancelled: Promise<Response> | undefined;
    const exchange = await postChat(running.url, 'Hello', {
      onEvent: (event, _req, res) => {
        if (event.event !== 'text-delta') return;
        const cookie = res.headers['set-cookie']![0].split(';')[0];
        const url = new URL(`api/chat/${res.headers['x-stream-id'] as string}`, running.url);
        cancelled = fetch(url, { method: 'DELETE', headers: { cookie } });
      },
    });
    expect((await cancelled!).status).toBe(204);
    expect(watch).toEqual({ calls: 1, completed: 0, unsubscribed: 1 });
    expect(exchange.events.map((e): unknown[] => [e.event, e.data.message])).toEqual([
      ['round-start', undefined],
      ['text-delta', undefined],
      ['error', 'The stream was ended on the server.'],
    ]);
    expect(running.resumableStreams).toBe(0);
    const cookie = exchange.setCookie!;
    const streamId = exchange.headers['x-stream-id'] as string;
    expect((await resumeChat(running.url, streamId, { cookie })).status).toBe(204);
  });

  it('a stream nobody resumes is aborted after resume.ttl, then gets 204', async () => {
    const { model, watch } = hanging();
    const running = await start(model, { ttl: 100 });
    const exchange = await postChat(running.url, 'Hello', {
      onEvent: (event, req) => event.event === 'text-delta' && req.destroy(),
    });
    await until(() => watch.unsubscribed === 1);
    expect(running.resumableStreams).toBe(0);
    const streamId = exchange.headers['x-stream-id'] as string;
    const late = await resumeChat(running.url, streamId, { cookie: exchange.setCookie });
    expect(late.status).toBe(204);
  });

  it('test hook cutChatResponsesAfterTextDeltas drops each POST response before its n-th delta', async () => {
    await expect(
      startDemoServer({ port: 0, dataDir: tempDataDir(), cutChatResponsesAfterTextDeltas: 0 }),
    ).rejects.toThrow(/cutChatResponsesAfterTextDeltas/);
    server = await startDemoServer({
      port: 0,
      model: new OfflineDemoModel({ interval: 5, firstChunkDelay: 0 }),
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
      cutChatResponsesAfterTextDeltas: 3,
    });
    const first = await postChat(server.url, 'What time is it in Paris?');
    expect(first.events.filter((e) => e.event === 'text-delta')).toHaveLength(2);
    expect(first.events.map((e) => e.event)).not.toContain('done');
    const rest = await resumeChat(server.url, first.headers['x-stream-id'] as string, {
      cookie: first.setCookie,
      lastEventId: first.events[first.events.length - 1].id,
    });
    expect(first.text + rest.text).toBe(PARIS_ANSWER); // resumes are never cut
    expect(rest.events[rest.events.length - 1].event).toBe('done');
  });
});
