// The servers behind the Redis and PostgreSQL suites: REDIS_URL / DATABASE_URL when set,
// otherwise private processes started by the harness. Where neither is possible a suite
// says so loudly and skips, except under CI=true, where that is a failure.
import { PostgresServerProcess } from './postgres-server-process';
import { RedisServerProcess } from './redis-server-process';
import { findPostgresBin, findRedisServer } from './server-binaries';
import { describeWhen, itWhen } from '../skip-marker';

/** A server a suite uses: its URL, and, when the harness owns it, a way to stop and start it. */
export interface StoreServer {
  readonly url: string;
  /** Present only for a private server: restart tests need the process. */
  readonly control?: {
    stop(signal?: NodeJS.Signals): Promise<void>;
    start(): Promise<void>;
  };
  dispose(): Promise<void>;
}

/** How a suite gets its server, decided when the spec file loads (describe blocks are synchronous). */
export interface StorePlan {
  readonly available: boolean;
  /** Whether the harness runs the server process itself (restart tests need it). */
  readonly ownsProcess: boolean;
  readonly reason: string;
  /** Starts (or attaches to) the server; call in `beforeAll`. */
  start(): Promise<StoreServer>;
}

function plan(
  kind: string,
  envName: string,
  find: () => { ok: true; path: string } | { ok: false; reason: string },
  create: (path: string) => RedisServerProcess | PostgresServerProcess,
): StorePlan {
  const fromEnv = process.env[envName];
  if (fromEnv !== undefined && fromEnv !== '') {
    return {
      available: true,
      ownsProcess: false,
      reason: `${envName} is set`,
      start: () => Promise.resolve({ url: fromEnv, dispose: () => Promise.resolve() }),
    };
  }
  const found = find();
  if (!found.ok) {
    const message =
      `\n!!! ${kind} suites SKIPPED: ${found.reason}, and ${envName} is not set.\n` +
      `!!! Install the server or set ${envName} to run them.\n`;
    if (process.env['CI'] === 'true') {
      return {
        available: true,
        ownsProcess: false,
        reason: found.reason,
        start: () => Promise.reject(new Error(`${message} Under CI=true a skip is a failure.`)),
      };
    }
    console.warn(message);
    return {
      available: false,
      ownsProcess: false,
      reason: found.reason,
      start: () => Promise.reject(new Error(message)),
    };
  }
  return {
    available: true,
    ownsProcess: true,
    reason: `private ${kind} server`,
    start: async () => {
      const server = create(found.path);
      await server.start();
      return {
        url: server.url,
        control: { stop: (signal) => server.stop(signal), start: () => server.start() },
        dispose: () => server.dispose(),
      };
    },
  };
}

/** The Redis server plan: REDIS_URL, or a private `redis-server`. */
export function redisPlan(): StorePlan {
  return plan('Redis', 'REDIS_URL', findRedisServer, (path) => new RedisServerProcess(path));
}

/** The PostgreSQL server plan: DATABASE_URL, or a private cluster. */
export function postgresPlan(): StorePlan {
  return plan(
    'PostgreSQL',
    'DATABASE_URL',
    findPostgresBin,
    (path) => new PostgresServerProcess(path),
  );
}

/**
 * `describe` when the plan has a server, `describe.skip` otherwise, under a title carrying
 * the reason (the closing summary line counts the skipped tests per reason).
 */
export function describeWith(storePlan: StorePlan): (title: string, body: () => void) => void {
  return describeWhen(storePlan);
}

/** `it` when the harness owns the server process, `it.skip` (with the reason) when it only has a URL. */
export function itRestartingServer(
  storePlan: StorePlan,
): (title: string, body: () => Promise<void>, timeout?: number) => void {
  if (storePlan.ownsProcess || !storePlan.available) return itWhen({ available: true, reason: '' });
  return itWhen({
    available: false,
    reason: `${storePlan.reason}: restart tests need a server the harness starts`,
  });
}
