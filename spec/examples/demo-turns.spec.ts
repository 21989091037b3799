// The demo's interrupted turns (examples/demo/demo-turns.ts): a stopped answer is saved as
// the question and the partial answer marked "(stopped)", so memory, the history and the
// next request agree, and no two user turns follow each other.
import { concat, NEVER, of, throwError, type Observable } from 'rxjs';
import { ProviderError, type ChatChunk, type ChatModel, type ChatRequest } from '../../lib/index';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { FIXED_NOW, fetchJson, postChat, tempDataDir } from './demo-test-kit';

/** Call 1: one delta, then hangs until cancelled. Later calls: "Hello again.", usage, stop. */
function stoppableModel() {
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    provider: 'test',
    stream: (request: ChatRequest): Observable<ChatChunk> => {
      requests.push(request);
      if (requests.length === 1) {
        return concat(of<ChatChunk>({ type: 'text-delta', text: 'The answer is' }), NEVER);
      }
      return of<ChatChunk[]>(
        { type: 'text-delta', text: 'Hello again.' },
        { type: 'usage', usage: { inputTokens: 10, outputTokens: 3, totalTokens: 13 } },
        { type: 'finish', reason: 'stop' },
      );
    },
  };
  return { model, requests };
}

/** Call 1: one delta, then a provider failure. Later calls: "Hello again.". */
function failingModel() {
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    provider: 'test',
    stream: (request: ChatRequest): Observable<ChatChunk> => {
      requests.push(request);
      if (requests.length === 1) {
        return concat(
          of<ChatChunk>({ type: 'text-delta', text: 'Half an' }),
          throwError(() => new ProviderError({ provider: 'test', message: 'overloaded' })),
        );
      }
      return of<ChatChunk[]>(
        { type: 'text-delta', text: 'Hello again.' },
        { type: 'finish', reason: 'stop' },
      );
    },
  };
  return { model, requests };
}

describe('demo server: interrupted turns', () => {
  let server: DemoServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('saves a stopped answer as the partial text marked (stopped), in memory and in the history', async () => {
    const { model, requests } = stoppableModel();
    server = await startDemoServer({
      port: 0,
      model,
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
    });
    const url = server.url;

    let cookie = '';
    let streamId = '';
    const first = postChat(url, 'What is the answer?', {
      onEvent: (event, _req, res) => {
        if (event.event !== 'text-delta' || streamId !== '') return;
        streamId = res.headers['x-stream-id'] as string;
        cookie = res.headers['set-cookie']![0].split(';')[0]!;
        // The Stop button: DELETE /api/chat/<id>.
        void fetch(new URL(`api/chat/${streamId}`, url), { method: 'DELETE', headers: { cookie } });
      },
    });
    const stopped = await first;
    expect(stopped.events.map((e) => e.event)).toContain('error');

    const history = await fetchJson(url, 'api/history', { cookie });
    expect(history.json.messages).toEqual([
      { role: 'user', content: 'What is the answer?' },
      {
        role: 'assistant',
        content: 'The answer is (stopped)',
        summary: { interrupted: 'stopped' },
      },
    ]);

    const second = await postChat(url, 'Hello?', { cookie });
    expect(second.text).toBe('Hello again.');
    // The model sees the interrupted turn as question and partial answer: roles alternate.
    expect(requests[1].messages.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    const after = await fetchJson(url, 'api/history', { cookie });
    expect(after.json.messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'Hello again.',
      summary: {
        usage: { inputTokens: 10, outputTokens: 3, totalTokens: 13 },
        finish: 'stop',
        rounds: 1,
      },
    });
  });

  it('saves a failed answer as the partial text marked (failed)', async () => {
    const { model, requests } = failingModel();
    server = await startDemoServer({
      port: 0,
      model,
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
    });
    const failed = await postChat(server.url, 'Tell me a story');
    expect(failed.events.at(-1)?.event).toBe('error');
    const cookie = failed.setCookie!;

    const second = await postChat(server.url, 'Try again?', { cookie });
    expect(second.text).toBe('Hello again.');
    expect(requests[1].messages.filter((m) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'Tell me a story' },
      { role: 'assistant', content: 'Half an (failed)' },
      { role: 'user', content: 'Try again?' },
    ]);
    const history = await fetchJson(server.url, 'api/history', { cookie });
    expect(history.json.messages[1]).toEqual({
      role: 'assistant',
      content: 'Half an (failed)',
      summary: { interrupted: 'failed' },
    });
  });
});
