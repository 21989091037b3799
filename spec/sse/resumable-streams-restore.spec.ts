// Issue 26 point 5: a client reconnecting after a server restart gets the rest of a durable
// run. Two real HTTP servers in turn ("before" and "after" the restart) share only a
// SQLite run journal file; the first one's streams (in memory) die with it. The client is
// fetch plus the real SSE parser (eventsource-parser), resuming with Last-Event-ID.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Observable, type Subscription } from 'rxjs';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { durableRunRestorer } from '../../lib/run/durable/durable-run-restorer';
import { SqliteRunJournal } from '../../lib/run/sqlite/sqlite-run-journal';
import { pipeToNodeResponse, ResumableStreams } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { close, listen, parseSse, readEvents } from './support/sse-test-kit';
import { deltas, durableSearchClient, text } from './support/durable-search-client';

const WORDS = Array.from({ length: 40 }, (_, i) => `word${i} `);
const ANSWER = `Looking it up. ${WORDS.join('')}`;

/** Round 1 asks for a search (after a text); round 2 answers in 40 deltas, 10 ms apart. */
function model(): MockChatModel {
  return MockChatModel.respond((request) =>
    request.messages.some((m) => m.role === 'tool')
      ? { text: WORDS, interval: 10, usage: { inputTokens: 20, outputTokens: 40 } }
      : {
          text: ['Looking ', 'it ', 'up. '],
          toolCalls: [{ id: 'call-1', name: 'search', arguments: { q: 'x' } }],
          usage: { inputTokens: 10, outputTokens: 3 },
        },
  );
}

interface Instance {
  url: string;
  model: MockChatModel;
  searches: string[];
  streams: ResumableStreams;
  server: Server;
  responses: Set<Subscription>;
}

/** One server process: a client with a durable run, resumable streams restoring from the journal. */
async function startInstance(journal: SqliteRunJournal): Promise<Instance> {
  const chatModel = model();
  const { client, searches } = durableSearchClient(chatModel, journal);
  const streams = new ResumableStreams({
    restore: durableRunRestorer({
      journal,
      resume: (params) =>
        client
          .prompt()
          .advisorParams({ ...params })
          .stream()
          .chunks(),
    }),
  });
  const responses = new Set<Subscription>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const owner = req.headers['x-owner'] as string;
    const streamId = url.pathname.slice('/chat/'.length);
    const key = { owner, streamId };
    responses.add(
      req.method === 'POST'
        ? pipeToNodeResponse(
            client
              .prompt('Search, please.')
              .advisorParams({ runId: streamId, runOwner: owner })
              .stream()
              .chunks(),
            res,
            { heartbeat: false, resumable: { streams, ...key } },
          )
        : streams.resumeToNodeResponse(key, req, res, { heartbeat: false }),
    );
  });
  return { url: await listen(server), model: chatModel, searches, streams, server, responses };
}

/** The process dies: connections cut, every stream it ran gone with it. */
async function kill(instance: Instance): Promise<void> {
  for (const response of instance.responses) response.unsubscribe();
  instance.streams.clear();
  await close(instance.server);
}

describe('ResumableStreams restore: a durable run after a server restart', () => {
  let dir: string;
  let journal: SqliteRunJournal;
  let instances: Instance[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'restore-'));
    journal = new SqliteRunJournal({ path: join(dir, 'runs.sqlite') });
    instances = [];
  });
  afterEach(async () => {
    for (const instance of instances) await kill(instance).catch(() => undefined);
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (): Promise<Instance> => {
    const instance = await startInstance(journal);
    instances.push(instance);
    return instance;
  };
  const post = (instance: Instance, streamId: string, owner = 'ada') =>
    fetch(`${instance.url}/chat/${streamId}`, { method: 'POST', headers: { 'x-owner': owner } });
  const resume = (instance: Instance, streamId: string, lastEventId?: string, owner = 'ada') =>
    fetch(`${instance.url}/chat/${streamId}`, {
      headers: {
        'x-owner': owner,
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
    });

  it('sends the rest after the last event: no text lost or twice, recorded rounds not asked again', async () => {
    const first = await start();
    const before = await readEvents(await post(first, 'run-1'), (events) => deltas(events) >= 13);
    await kill(first);
    const lastId = before[before.length - 1].id!;
    // The id carries the run's delivery units: the text seen plus one per other chunk.
    expect(lastId).toMatch(/^\d+\.\d+$/);

    const second = await start();
    const response = await resume(second, 'run-1', lastId);
    expect(response.status).toBe(200);
    const after = await readEvents(response);
    expect(text(before) + text(after)).toBe(ANSWER);
    expect(after.at(-1)?.event).toBe('done');
    // Round 1 (and its search) came from the journal; only the round cut off was asked again.
    expect(second.model.calls).toBe(1);
    expect(second.searches).toEqual([]);
    const run = after.find((e) => e.event === 'data');
    expect(JSON.parse(run!.data)).toMatchObject({
      data: { runId: 'run-1', resumed: true, from: Number(lastId.split('.')[1]) },
    });
  });

  it('sends everything to a client without Last-Event-ID (a reload), once', async () => {
    const first = await start();
    await readEvents(await post(first, 'run-2'), (events) => deltas(events) >= 5);
    await kill(first);
    const second = await start();
    const all = await readEvents(await resume(second, 'run-2'));
    expect(text(all)).toBe(ANSWER);
  });

  it('resumes the restored stream itself, and an id of the lost one restores again', async () => {
    const first = await start();
    const before = await readEvents(await post(first, 'run-3'), (events) => deltas(events) >= 6);
    await kill(first);
    const second = await start();
    const lostId = before[before.length - 1].id!;
    // The first resume breaks after a few events; the next one continues it (same process).
    const middle = await readEvents(await resume(second, 'run-3', lostId), (events) =>
      events.some((e) => e.event === 'text-delta' && deltas(events) >= 4),
    );
    const rest = await readEvents(await resume(second, 'run-3', middle[middle.length - 1].id));
    expect(text(before) + text(middle) + text(rest)).toBe(ANSWER);
    // A client still holding the lost process's id: its sequence number means nothing in the
    // restored stream; the stream is restored again from the id's cursor.
    const again = await readEvents(await resume(second, 'run-3', lostId));
    expect(text(before) + text(again)).toBe(ANSWER);
  });

  it("never restores another owner's run, an unknown run or a cursor that is not ours", async () => {
    const first = await start();
    const before = await readEvents(await post(first, 'run-4'), (events) => deltas(events) >= 5);
    await kill(first);
    const second = await start();
    const lastId = before[before.length - 1].id!;
    expect((await resume(second, 'run-4', lastId, 'eve')).status).toBe(204);
    expect((await resume(second, 'nope', lastId)).status).toBe(204);
    expect((await resume(second, 'run-4', '3.x1')).status).toBe(204);
    expect(second.model.calls).toBe(0);
    // The owner still gets it.
    expect(text(before) + text(await readEvents(await resume(second, 'run-4', lastId)))).toBe(
      ANSWER,
    );
  });

  it('sends the end of a run that completed while the client was away', async () => {
    const first = await start();
    const response = await post(first, 'run-5');
    const before = await readEvents(response, (events) => deltas(events) >= 10);
    // The run completes on the server, then the process dies before the client came back.
    const key = { owner: 'ada', streamId: 'run-5' };
    await new Promise<void>((resolve) =>
      first.streams.resume(key).subscribe({ complete: resolve }),
    );
    await kill(first);
    const second = await start();
    const after = await readEvents(await resume(second, 'run-5', before[before.length - 1].id));
    expect(text(before) + text(after)).toBe(ANSWER);
    expect(second.model.calls).toBe(0);
  });

  it('restores through resumeToWebResponse and resume() too', async () => {
    const first = await start();
    const before = await readEvents(await post(first, 'run-6'), (events) => deltas(events) >= 8);
    await kill(first);
    const second = await start();
    const lastId = before[before.length - 1].id!;
    const key = { owner: 'ada', streamId: 'run-6' };
    const web = await second.streams.resumeToWebResponse(key, {
      headers: new Headers({ 'last-event-id': lastId }),
    });
    expect(web.status).toBe(200);
    expect(text(before) + text(await readEvents(web))).toBe(ANSWER);
    // A process with no stream under the key: resume() restores as well.
    const third = await start();
    const frames = await new Promise<string>((resolve, reject) => {
      let all = '';
      third.streams.resume(key, { lastEventId: lastId, heartbeat: false }).subscribe({
        next: (frame) => (all += frame),
        error: reject,
        complete: () => resolve(all),
      });
    });
    expect(text(before) + text(parseSse(frames).events)).toBe(ANSWER);
  });

  it('keeps plain ids without a restorer, and refuses a restorer of the wrong shape', () => {
    const streams = new ResumableStreams();
    const frames: string[] = [];
    streams
      .start(
        { owner: 'a', streamId: 's' },
        new Observable<ChatChunk>((s) => {
          s.next({ type: 'text-delta', text: 'hi' });
          s.complete();
        }),
        { heartbeat: false },
      )
      .subscribe((frame) => frames.push(frame));
    expect(frames[0]).toMatch(/^id: 1\n/);
    expect(() => new ResumableStreams({ restore: {} as never })).toThrow(InvalidOptionsError);
    streams.clear();
  });
});
