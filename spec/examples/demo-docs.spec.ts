// The demo's document set over HTTP: embedded offline at start, searched for every question
// by QuestionAnswerAdvisor, the documents found sent as `source` events before the answer,
// the offline model answering from them, and the sources kept for the history.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { loadDemoDocs, type DemoDocs } from '../../examples/demo/demo-docs';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { OfflineEmbeddingModel, offlineVector } from '../../examples/demo/offline-embedding-model';
import { selectDemoDocs } from '../../examples/demo/select-demo-docs';
import {
  startReplayServer,
  type ReplayServer,
  type Reply,
} from '../providers/support/replay-server';
import { FIXED_NOW, fetchJson, postChat, tempDataDir } from './demo-test-kit';

const offlineDocs = (): Promise<DemoDocs> =>
  loadDemoDocs({
    embeddingModel: new OfflineEmbeddingModel(),
    similarityThreshold: 0.15,
    embeddingDescription: 'offline',
  });

describe('demo documents', () => {
  let server: DemoServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (docs?: DemoDocs): Promise<DemoServer> => {
    server = await startDemoServer({
      port: 0,
      model: new OfflineDemoModel({ interval: 0, firstChunkDelay: 0 }),
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
      ...(docs === undefined ? {} : { docs }),
    });
    return server;
  };

  it('sends the documents found as source events before the answer, which comes from them', async () => {
    const { url } = await start(await offlineDocs());
    const exchange = await postChat(url, 'What happens when the connection drops?');
    const names = exchange.events.map((e) => e.event);
    expect(names[0]).toBe('source');
    expect(names.lastIndexOf('source')).toBeLessThan(names.indexOf('text-delta'));
    expect(exchange.events[0].data).toEqual({
      type: 'source',
      sourceType: 'document',
      id: 'resume',
      mediaType: 'text/markdown',
      title: 'Resume, stop and reload',
      filename: 'resume.md',
    });
    expect(exchange.text).toBe(
      '(offline demo model) From the demo\'s documents ("Resume, stop and reload"): Answers stream as Server-Sent Events. When the connection drops, the page resumes the stream with Last-Event-ID, so no word is lost or repeated.',
    );
  });

  it('keeps tools working: a time question still calls getTime, with its source listed', async () => {
    const { url } = await start(await offlineDocs());
    const exchange = await postChat(url, 'What time is it in Tokyo?');
    expect(
      exchange.events.filter((e) => e.event === 'source').map((e) => String(e.data.id)),
    ).toEqual(['tools']);
    expect(
      exchange.events.filter((e) => e.event === 'tool-call').map((e) => String(e.data.name)),
    ).toEqual(['getTime']);
    expect(exchange.text).toBe(
      '(offline demo model) It is 21:30 on Monday 2024-01-15 in Tokyo (Asia/Tokyo).',
    );
  });

  it('sends no source for a question the documents do not cover, and answers as before', async () => {
    const { url } = await start(await offlineDocs());
    const exchange = await postChat(url, 'Hello');
    expect(exchange.events.some((e) => e.event === 'source')).toBe(false);
    expect(exchange.text).toMatch(/^\(offline demo model\) I am an offline stand-in/);
  });

  it('keeps the sources in the history, serves a document as plain text, lists them in /api/info', async () => {
    const { url } = await start(await offlineDocs());
    const { setCookie } = await postChat(url, 'Does the demo remember my conversation?');
    const history = await fetchJson(url, '/api/history', { cookie: setCookie });
    const answer = history.json.messages.at(-1);
    expect(answer.summary.sources.map((s: { id: string }) => s.id)[0]).toBe('memory');

    const doc = await fetch(new URL('/api/docs/memory', url));
    expect(doc.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await doc.text()).toMatch(/^# Chat memory\n/);
    expect((await fetch(new URL('/api/docs/..%2Fmain', url))).status).toBe(404);

    const info = await fetchJson(url, '/api/info');
    expect(info.json.docs.map((d: { id: string }) => d.id)).toEqual([
      'approval',
      'memory',
      'models',
      'resume',
      'sources',
      'tools',
    ]);
  });

  it('sends no sources without documents (startDemoServer without docs)', async () => {
    const { url } = await start();
    const exchange = await postChat(url, 'What happens when the connection drops?');
    expect(exchange.events.some((e) => e.event === 'source')).toBe(false);
  });
});

describe('demo document loading', () => {
  it('embeds offline and deterministically: same text, same vector; shared words score higher', () => {
    const a = offlineVector('The Stop button cancels the answer.');
    expect(offlineVector('The Stop button cancels the answer.')).toEqual(a);
    expect(Math.hypot(...a)).toBeCloseTo(1, 10);
    const dot = (x: number[], y: number[]): number => x.reduce((sum, v, i) => sum + v * y[i], 0);
    expect(dot(a, offlineVector('How do I stop an answer?'))).toBeGreaterThan(
      dot(a, offlineVector('What time is it in Tokyo?')),
    );
  });

  it('reads another folder with DEMO_DOCS, and none with DEMO_DOCS=off', async () => {
    expect(await selectDemoDocs({ env: { DEMO_DOCS: 'off' } })).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'rx-demo-docs-'));
    writeFileSync(join(dir, 'tea.txt'), 'Green tea is served at 80 degrees.');
    writeFileSync(join(dir, 'ignored.json'), '{}');
    const docs = await selectDemoDocs({ env: { DEMO_DOCS: dir } });
    expect(docs?.documents).toEqual([
      {
        id: 'tea',
        text: 'Green tea is served at 80 degrees.',
        metadata: { title: 'tea.txt', filename: 'tea.txt', mediaType: 'text/plain' },
      },
    ]);
    expect(docs?.description).toContain('offline word-hash embeddings');
    const found = await lastValueFrom(
      docs!.vectorStore.similaritySearch({ query: 'green tea temperature?', topK: 1 }),
    );
    expect(found.documents.map((d) => d.id)).toEqual(['tea']);
  });

  it('says how to start without documents when the folder has none', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'rx-demo-docs-'));
    await expect(selectDemoDocs({ env: { DEMO_DOCS: empty } })).rejects.toThrow(
      `Loading the demo documents failed (offline word-hash embeddings): No .md or .txt files in ${empty}. Start without them with DEMO_DOCS=off.`,
    );
  });
});

describe('demo documents with OPENAI_API_KEY', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(async () => {
    await server.close();
  });

  /** An embeddings endpoint answering with the offline vectors (deterministic, meaningful). */
  const embeddings: Reply = {
    kind: 'echo',
    status: 200,
    json: (request) => {
      const input = request.body.input as string[];
      const base64 = request.body.encoding_format === 'base64';
      return {
        object: 'list',
        model: request.body.model as string,
        data: input.map((text, index) => {
          const vector = offlineVector(text);
          return {
            object: 'embedding',
            index,
            embedding: base64
              ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
              : vector,
          };
        }),
        usage: { prompt_tokens: input.length, total_tokens: input.length },
      };
    },
  };

  it('embeds with OpenAiEmbeddingModel (the real openai client) and searches with it', async () => {
    server.enqueue(embeddings, embeddings);
    const docs = await selectDemoDocs({
      env: { OPENAI_API_KEY: 'sk-demo-test', OPENAI_EMBEDDING_MODEL: 'text-embedding-3-large' },
      openAiBaseURL: `${server.url}/v1`,
    });
    expect(docs?.description).toMatch(/, OpenAI embeddings \(text-embedding-3-large\)$/);
    expect(docs?.similarityThreshold).toBe(0.3);
    expect(server.requests[0]?.path).toBe('/v1/embeddings');
    expect(server.requests[0]?.body.model).toBe('text-embedding-3-large');
    expect(server.requests[0]?.body.input).toHaveLength(6);
    const found = await lastValueFrom(
      docs!.vectorStore.similaritySearch({ query: 'How does the Stop button work?', topK: 1 }),
    );
    expect(found.documents.map((d) => d.id)).toEqual(['resume']);
  });

  it('uses offline embeddings when OPENAI_BASE_URL names another server', async () => {
    const docs = await selectDemoDocs({
      env: { OPENAI_API_KEY: 'key-of-a-compatible-server', OPENAI_BASE_URL: server.url },
    });
    expect(docs?.description).toMatch(/offline word-hash embeddings$/);
    expect(server.requests).toHaveLength(0);
  });

  it('stops with a clear error (and the way out) when the embeddings fail', async () => {
    server.enqueue({
      kind: 'json',
      status: 401,
      json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    });
    await expect(
      selectDemoDocs({
        env: { OPENAI_API_KEY: 'sk-demo-test' },
        openAiBaseURL: `${server.url}/v1`,
      }),
    ).rejects.toThrow(
      /^Loading the demo documents failed \(OpenAI embeddings \(text-embedding-3-small\)\): .*401.* Start without them with DEMO_DOCS=off\.$/,
    );
  });
});
