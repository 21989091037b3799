// One instance of a chat backend on Redis with durable runs: an HTTP server whose POST
// starts a run under the stream id (RedisResumableStreams, a durable run recorded in a
// SQLite journal file every instance shares) and whose GET resumes it with Last-Event-ID,
// restoring from the journal what the instance that ran it took with it when it died.
// Used in-process and by durable-instance-process.ts (a process the spec SIGKILLs).
import { createServer, type Server } from 'node:http';
import { createClient } from 'redis';
import type { Subscription } from 'rxjs';
import { durableRunRestorer } from '../../../../lib/run/durable/durable-run-restorer';
import { SqliteRunJournal } from '../../../../lib/run/sqlite/sqlite-run-journal';
import { pipeToNodeResponse } from '../../../../lib/sse';
import { RedisResumableStreams } from '../../../../lib/sse/redis/index';
import { MockChatModel } from '../../../../lib/testing';
import { close, listen } from '../../support/sse-test-kit';
import { durableSearchClient } from '../../support/durable-search-client';

export const WORDS = Array.from({ length: 40 }, (_, i) => `word${i} `);
export const ANSWER = `Looking it up. ${WORDS.join('')}`;

/** Round 1 asks for a search (after a text); round 2 answers in 40 deltas, 10 ms apart. */
function model(interval: number): MockChatModel {
  return MockChatModel.respond((request) =>
    request.messages.some((m) => m.role === 'tool')
      ? { text: WORDS, interval, usage: { inputTokens: 20, outputTokens: 40 } }
      : {
          text: ['Looking ', 'it ', 'up. '],
          toolCalls: [{ id: 'call-1', name: 'search', arguments: { q: 'x' } }],
          usage: { inputTokens: 10, outputTokens: 3 },
        },
  );
}

export interface DurableRedisInstance {
  readonly url: string;
  readonly model: MockChatModel;
  readonly searches: string[];
  readonly streams: RedisResumableStreams;
  /** Shuts the instance down in order (streams, server, Redis client, journal). */
  stop(): Promise<void>;
}

/** Where an instance keeps things: the Redis server and key prefix, the journal file. */
export interface DurableRedisPlace {
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly journalPath: string;
  /** Milliseconds between the deltas of the answer; default 10. */
  readonly interval?: number;
}

/** Starts one instance; a short ttl and heartbeat so a dead instance is noticed within ~1 s. */
export async function startDurableRedisInstance(
  place: DurableRedisPlace,
): Promise<DurableRedisInstance> {
  const chatModel = model(place.interval ?? 10);
  const journal = new SqliteRunJournal({ path: place.journalPath });
  const { client, searches } = durableSearchClient(chatModel, journal);
  const redis = createClient({ url: place.redisUrl });
  redis.on('error', () => undefined);
  await redis.connect();
  const streams = new RedisResumableStreams({
    client: redis,
    keyPrefix: place.keyPrefix,
    ttl: 1000,
    heartbeatInterval: 100,
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
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const owner = req.headers['x-owner'] as string;
    const key = { owner, streamId: url.pathname.slice('/chat/'.length) };
    responses.add(
      req.method === 'POST'
        ? pipeToNodeResponse(
            client
              .prompt('Search, please.')
              .advisorParams({ runId: key.streamId, runOwner: owner })
              .stream()
              .chunks(),
            res,
            { heartbeat: false, resumable: { streams, ...key } },
          )
        : streams.resumeToNodeResponse(key, req, res, { heartbeat: false }),
    );
  });
  const url = await listen(server);
  return {
    url,
    model: chatModel,
    searches,
    streams,
    stop: async () => {
      for (const response of responses) response.unsubscribe();
      await streams.close();
      await close(server);
      if (redis.isOpen) redis.destroy();
      journal.close();
    },
  };
}
