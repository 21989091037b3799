// Shared set-up of the RedisResumableStreams specs: a Redis server for the file, and
// "instances" (each its own client, and the two connections its store duplicates).
import { createClient, type RedisClientType } from 'redis';
import { Observable, Subject, type Subscription } from 'rxjs';
import type { ChatChunk } from '../../../../lib/core/chat-chunk';
import { RedisResumableStreams } from '../../../../lib/sse/redis/index';
import type { StorePlan, StoreServer } from '../../../support/servers/store-servers';
import { parseSse } from '../../support/sse-test-kit';

export const delta = (text: string): ChatChunk => ({ type: 'text-delta', text });

/** The event ids of some frames (the event name for events without one, e.g. `error`). */
export const ids = (frames: string[]): (string | undefined)[] =>
  parseSse(frames.join('')).events.map((event) => event.id ?? event.event);

/** A model call the test drives, which says when it is torn down (its request aborted). */
export function controlled(): {
  live: Subject<ChatChunk>;
  source$: Observable<ChatChunk>;
  aborted: () => boolean;
} {
  const live = new Subject<ChatChunk>();
  let aborted = false;
  const source$ = new Observable<ChatChunk>((subscriber) => {
    const subscription = live.subscribe(subscriber);
    return () => {
      aborted = true;
      subscription.unsubscribe();
    };
  });
  return { live, source$, aborted: () => aborted };
}

/** What a spec file gets from {@link redisStreamsFixture}. */
export interface RedisStreamsFixture {
  readonly server: StoreServer;
  /** A fresh key prefix per test. */
  readonly keyPrefix: string;
  /** Every instance's client, in creation order. */
  readonly clients: RedisClientType[];
  /** Unsubscribed after each test. */
  readonly subscriptions: Subscription[];
  /** A new instance on this test's prefix. */
  instance(
    options?: Partial<ConstructorParameters<typeof RedisResumableStreams>[0]>,
    clientOptions?: { disableOfflineQueue?: boolean },
  ): Promise<RedisResumableStreams>;
}

let prefixes = 0;

/** Registers the hooks (call inside the describe block) and returns the fixture. */
export function redisStreamsFixture(plan: StorePlan): RedisStreamsFixture {
  let server: StoreServer | undefined;
  let keyPrefix = '';
  const clients: RedisClientType[] = [];
  const subscriptions: Subscription[] = [];
  const instances: RedisResumableStreams[] = [];
  beforeAll(async () => {
    server = await plan.start();
  }, 60_000);
  beforeEach(() => {
    keyPrefix = `rx-sse-test:${process.pid}:${++prefixes}:`;
  });
  afterEach(async () => {
    for (const subscription of subscriptions.splice(0)) subscription.unsubscribe();
    await Promise.all(instances.splice(0).map((streams) => streams.close()));
    for (const client of clients.splice(0)) if (client.isOpen) client.destroy();
  });
  afterAll(async () => {
    await server?.dispose();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the Redis server is not started');
      return server;
    },
    get keyPrefix() {
      return keyPrefix;
    },
    clients,
    subscriptions,
    async instance(options = {}, clientOptions = {}) {
      const client: RedisClientType = createClient({ url: this.server.url, ...clientOptions });
      client.on('error', () => undefined);
      await client.connect();
      clients.push(client);
      const streams = new RedisResumableStreams({ client, keyPrefix, ...options });
      instances.push(streams);
      return streams;
    },
  };
}
