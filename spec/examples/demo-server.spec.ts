import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { concat, finalize, NEVER, of, throwError, type Observable } from 'rxjs';
import { ProviderError, type ChatChunk, type ChatModel } from '../../lib/index';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { FIXED_NOW, fetchJson, postChat, tempDataDir } from './demo-test-kit';

/** A model whose every call streams one delta, then hangs until unsubscribed. */
function hangingModel(): ChatModel & { unsubscribed: Promise<void>; calls: number } {
  let release!: () => void;
  const unsubscribed = new Promise<void>((resolve) => (release = resolve));
  const model = {
    provider: 'hanging',
    calls: 0,
    unsubscribed,
    stream: (): Observable<ChatChunk> => {
      model.calls++;
      return concat(of<ChatChunk>({ type: 'text-delta', text: 'thinking' }), NEVER).pipe(
        finalize(() => release()),
      );
    },
  };
  return model;
}

describe('demo server', () => {
  let server: DemoServer | undefined;
  let dataDir: string;

  beforeEach(() => {
    dataDir = tempDataDir();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (
    model: ChatModel = new OfflineDemoModel({ interval: 0, firstChunkDelay: 0 }),
  ) => {
    server = await startDemoServer({
      port: 0,
      model,
      dataDir,
      now: () => FIXED_NOW,
      modelDescription: 'test model',
    });
    return server;
  };

  it('serves the page, its script and style, with a session cookie', async () => {
    const { url } = await start();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('set-cookie')).toMatch(/^rx_demo_session=[0-9a-f-]{36}; .*HttpOnly/);
    const html = await page.text();
    expect(html).toContain('<script src="/app.js"></script>');
    const script = await fetch(new URL('app.js', url));
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain("fetch('/api/chat'");
    expect((await fetch(new URL('style.css', url))).status).toBe(200);
    const info = await fetchJson(url, 'api/info');
    expect(info.json).toEqual({
      provider: 'offline',
      model: 'test model',
      tools: [
        { name: 'getTime', description: expect.stringContaining('time') },
        { name: 'usersRegisteredOn', description: expect.stringContaining('registered') },
        { name: 'deleteUser', description: expect.stringContaining('approval') },
      ],
    });
  });

  it('streams a tool-loop answer as SSE: tool call and result live, text, usage, done', async () => {
    const { url } = await start();
    const exchange = await postChat(url, 'What time is it in Paris?');
    expect(exchange.status).toBe(200);
    expect(exchange.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(exchange.setCookie).toMatch(/^rx_demo_session=/);
    const types = exchange.events.map((e) => e.event);
    expect(types.filter((t) => !['text-delta'].includes(t))).toEqual([
      'round-start',
      'tool-call-delta',
      'tool-call',
      'round-end',
      'tool-result',
      'round-start',
      'round-end',
      'metadata',
      'usage',
      'finish',
      'done',
    ]);
    const call = exchange.events.find((e) => e.event === 'tool-call')!.data;
    expect(call).toMatchObject({ name: 'getTime', arguments: '{"city":"Paris"}' });
    const result = exchange.events.find((e) => e.event === 'tool-result')!.data;
    expect(result.id).toBe(call.id);
    expect(JSON.parse(result.content)).toEqual({
      city: 'Paris',
      timeZone: 'Europe/Paris',
      time: '13:30',
      date: '2024-01-15',
      weekday: 'Monday',
    });
    expect(exchange.text).toBe(
      '(offline demo model) It is 13:30 on Monday 2024-01-15 in Paris (Europe/Paris).',
    );
    expect(types.filter((t) => t === 'text-delta').length).toBeGreaterThan(5); // word by word
    const usage = exchange.events.find((e) => e.event === 'usage')!.data.usage;
    expect(usage.totalTokens).toBe(usage.inputTokens + usage.outputTokens);
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(exchange.events.find((e) => e.event === 'metadata')!.data.rounds).toBe(2);
    const ids = exchange.events.map((e) => Number(e.id));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
  });

  it('keeps memory per browser session, in SQLite that survives a restart', async () => {
    const { url } = await start();
    const first = await postChat(url, 'My name is Ada');
    const ada = first.setCookie!;
    expect(first.text).toContain('Nice to meet you, Ada!');
    expect((await postChat(url, 'What is my name?', { cookie: ada })).text).toContain(
      'Your name is Ada',
    );
    const other = await postChat(url, 'What is my name?');
    expect(other.setCookie).not.toBe(ada);
    expect(other.text).toContain('You have not told me your name');

    await server!.close();
    expect(existsSync(join(dataDir, 'demo-chat-memory.sqlite'))).toBe(true);
    server = await startDemoServer({
      port: 0,
      dataDir,
      model: new OfflineDemoModel({ interval: 0, firstChunkDelay: 0 }),
    });
    const history = await fetchJson(server.url, 'api/history', { cookie: ada });
    expect(history.json.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(history.json.messages[2]).toEqual({ role: 'user', content: 'What is my name?' });
    expect((await postChat(server.url, 'Who am I?', { cookie: ada })).text).toContain(
      'Your name is Ada',
    );

    expect(
      (await fetchJson(server.url, 'api/reset', { cookie: ada, method: 'POST' })).json,
    ).toEqual({ cleared: true });
    expect((await fetchJson(server.url, 'api/history', { cookie: ada })).json.messages).toEqual([]);
  });

  it('answers bad requests with a clear JSON error and no stream', async () => {
    const { url } = await start();
    const notJsonType = await postChat(url, 'hi', { contentType: 'text/plain' });
    expect(notJsonType.status).toBe(415);
    expect(JSON.parse(notJsonType.body).error).toContain('JSON');
    const malformed = await postChat(url, '', { body: '{"message": ' });
    expect([malformed.status, JSON.parse(malformed.body).error]).toEqual([
      400,
      'The body is not JSON. Send {"message": "…"}.',
    ]);
    const empty = await postChat(url, '   ');
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body).error).toContain('non-empty "message"');
    const long = await postChat(url, 'x'.repeat(4001));
    expect(long.status).toBe(413);
    expect(JSON.parse(long.body).error).toContain('4001 characters; at most 4000');
    expect((await fetchJson(url, 'nothing-here')).status).toBe(404);
  });

  it('a client that disconnects leaves the model running for a resume; close() ends it', async () => {
    const model = hangingModel();
    const running = await start(model);
    let unsubscribed = false;
    void model.unsubscribed.then(() => (unsubscribed = true));
    const exchange = await postChat(running.url, 'Hello', {
      onEvent: (event, req) => {
        if (event.event === 'text-delta') req.destroy();
      },
    });
    expect(exchange.text).toBe('thinking');
    while (running.activeStreams > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // The response is gone; the stream is kept (see demo-resume.spec.ts for the resume).
    expect(running.resumableStreams).toBe(1);
    expect(unsubscribed).toBe(false);
    await running.close();
    await model.unsubscribed; // the teardown reached the model
    expect(model.calls).toBe(1);
    server = undefined;
  });

  it('close() unsubscribes running streams and closes the server and the database', async () => {
    const model = hangingModel();
    const running = await start(model);
    let closed: Promise<void> | undefined;
    const exchange = await postChat(running.url, 'Hello', {
      onEvent: (event) => {
        if (event.event === 'text-delta') {
          expect(running.activeStreams).toBe(1);
          closed = running.close();
        }
      },
    });
    await closed;
    await model.unsubscribed;
    expect(exchange.events.map((e) => e.event)).toEqual(['round-start', 'text-delta']);
    await expect(fetch(running.url)).rejects.toThrow();
    // better-sqlite3 removes the WAL file when the last connection closes cleanly.
    expect(existsSync(join(dataDir, 'demo-chat-memory.sqlite'))).toBe(true);
    expect(existsSync(join(dataDir, 'demo-chat-memory.sqlite-wal'))).toBe(false);
    server = undefined;
  });

  it('a failing model ends the stream with an error event that says what failed', async () => {
    const failing: ChatModel = {
      provider: 'failing',
      stream: () =>
        throwError(
          () =>
            new ProviderError({
              provider: 'openai',
              status: 401,
              message: 'Incorrect API key provided',
            }),
        ),
    };
    const { url } = await start(failing);
    const exchange = await postChat(url, 'Hello');
    const last = exchange.events.slice(-1)[0];
    expect(last.event).toBe('error');
    expect(last.data.message).toContain('openai');
    expect(last.data.message).toContain('Incorrect API key provided');
  });

  it('hides the text of errors that are not provider errors', async () => {
    const failing: ChatModel = {
      provider: 'failing',
      stream: () => throwError(() => new Error('secret internal detail')),
    };
    const { url } = await start(failing);
    const exchange = await postChat(url, 'Hello');
    expect(exchange.events.slice(-1)[0]).toMatchObject({
      event: 'error',
      data: { message: 'The stream failed on the server (see its log).' },
    });
    expect(exchange.body).not.toContain('secret');
  });
});
