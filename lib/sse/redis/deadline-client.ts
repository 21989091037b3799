import { setMaxListeners } from 'node:events';
import { RedisUnavailableError } from '../../errors/redis-unavailable-error.js';
import type { RedisStreamsClient, RedisStreamsConnection } from './redis-streams-client.js';

/** A command sent and not answered yet. */
interface Pending {
  readonly command: string;
  readonly since: number;
  readonly reject: (error: RedisUnavailableError) => void;
}

/**
 * The store's client with a deadline on every command: a command Redis has not answered
 * within `timeoutMs` fails with a {@link RedisUnavailableError}, whether the client queued it
 * while offline (node-redis's default), sent it into a dead socket, or would have waited for
 * a reconnect. Commands are pipelined in order on one connection, so the oldest one waiting
 * says whether Redis answers: one timer watches it, not one per command. When it expires,
 * every waiting command fails with it, and the ones still queued in the client are aborted
 * (node-redis v5 `abortSignal`), so none of them lands after Redis comes back.
 * @internal
 */
export class DeadlineClient implements RedisStreamsClient {
  private epoch = unboundedAbortController();
  private readonly pending = new Set<Pending>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: RedisStreamsClient,
    /** Milliseconds a command may wait for its answer. */
    readonly timeoutMs: number,
  ) {}

  sendCommand(args: string[]): Promise<unknown> {
    let expire: (error: RedisUnavailableError) => void = () => undefined;
    const expired = new Promise<never>((_, reject) => (expire = reject));
    const entry: Pending = { command: args[0] ?? '', since: Date.now(), reject: expire };
    this.pending.add(entry);
    this.watch();
    const signal = this.epoch.signal;
    // async: a client that throws instead of rejecting fails the same way.
    const sent = (async () => this.client.sendCommand(args, { abortSignal: signal }))();
    return Promise.race([sent.finally(() => this.pending.delete(entry)), expired]);
  }

  duplicate(): RedisStreamsConnection {
    return this.client.duplicate();
  }

  /** Stops the watch (the waiting commands fail at once). */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.expire(Date.now());
  }

  private watch(): void {
    if (this.timer !== undefined) return;
    const oldest = this.pending.values().next();
    if (oldest.done === true) return;
    const wait = Math.max(0, oldest.value.since + this.timeoutMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = Date.now();
      const head = this.pending.values().next();
      if (head.done !== true && now - head.value.since >= this.timeoutMs) this.expire(now);
      this.watch();
    }, wait);
    this.timer.unref?.();
  }

  private expire(now: number): void {
    if (this.pending.size === 0) return;
    const waiting = [...this.pending];
    this.pending.clear();
    this.epoch.abort();
    this.epoch = unboundedAbortController();
    for (const entry of waiting) {
      entry.reject(
        new RedisUnavailableError({ command: entry.command, waited: now - entry.since }),
      );
    }
  }
}

/** One signal for every command of an epoch: the client adds a listener per queued command. */
function unboundedAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
