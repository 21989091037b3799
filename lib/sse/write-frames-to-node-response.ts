import type { ServerResponse } from 'node:http';
import { Subscriber, Subscription, timer, type Observable } from 'rxjs';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ResolvedSseConnectionOptions } from './sse-connection-options.js';

/** How a frame stream is sent on a Node response. @internal */
export interface NodeSinkOptions extends ResolvedSseConnectionOptions {
  readonly status: number;
  readonly headers: Record<string, string>;
}

/**
 * Writes frames to a Node response with backpressure:
 * - the headers are sent at once (with the frames written at subscription, if any);
 * - when `write()` returns false, later frames are held and written as one batch on
 *   `'drain'`; a client more than `maxPendingFrames` frames or `maxPendingBytes` characters
 *   behind, or whose socket stays unwritable for `writeTimeout` ms (also after the end was
 *   written), is disconnected and the stream unsubscribed, so nothing is held without bound;
 * - a `'close'` before the end (the client went away) unsubscribes, which aborts the model
 *   request and running tools upstream.
 * @internal
 */
export function writeFramesToNodeResponse(
  frames$: Observable<string>,
  res: ServerResponse,
  options: NodeSinkOptions,
): Subscription {
  if (res.headersSent) {
    throw new InvalidOptionsError({
      option: 'res',
      value: res,
      expected: 'a response whose headers were not sent yet (the SSE headers are written here)',
    });
  }
  const subscription = new Subscription();
  if (res.destroyed) return subscription; // the client is gone already: start nothing
  res.writeHead(options.status, options.headers);
  res.once('close', () => subscription.unsubscribe());
  const sink = new NodeFrameSink(res, options, subscription);
  subscription.add(frames$.subscribe(sink));
  // The frames written at subscription (a protocol's opening events) went out with the
  // headers, in one packet; without any, the headers go now, alone.
  if (!sink.wrote && !res.destroyed) res.flushHeaders();
  return subscription;
}

/**
 * The subscriber of the frames: one object per response rather than an observer of closures
 * (RxJS subscribes a `Subscriber` subclass as it is, so a frame costs one call from the
 * encoder's writer to `next`, no `SafeSubscriber` hop); the `'drain'`, `'finish'` and stall
 * callbacks are made only when the socket backs up. `subscription` is the response's: it
 * outlives the frames (the end may wait for a drain).
 */
class NodeFrameSink extends Subscriber<string> {
  /** A frame or the end went to the response. */
  wrote = false;
  /** Frames held while the socket drains. */
  private pending: string[] | undefined;
  private pendingChars = 0;
  private completed = false;
  /** Ends a connection that stays unwritable. */
  private stall: Subscription | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: ResolvedSseConnectionOptions,
    private readonly subscription: Subscription,
  ) {
    super();
  }

  // `next` itself rather than `_next`: one call less per frame. Never throws (RxJS would
  // report it out of band): a response that throws on write is ended.
  override next(frame: string): void {
    if (this.isStopped || this.subscription.closed) return;
    const { pending } = this;
    if (pending === undefined) {
      this.wrote = true;
      try {
        if (!this.res.write(frame)) this.waitForDrain();
      } catch {
        this.disconnect();
      }
      return;
    }
    this.pendingChars += frame.length;
    const { maxPendingFrames, maxPendingBytes } = this.options;
    if (pending.length < maxPendingFrames && this.pendingChars <= maxPendingBytes) {
      pending.push(frame);
    } else {
      this.disconnect();
    }
  }

  protected override _error(): void {
    this.unsubscribe();
    this.res.destroy();
  }

  protected override _complete(): void {
    this.unsubscribe();
    this.completed = true;
    if (this.pending === undefined) this.end();
  }

  // Not destroy(error): that would emit 'error' on the response, which nobody listens to.
  private disconnect(): void {
    this.subscription.unsubscribe();
    this.res.destroy();
  }

  private watchStall(): void {
    this.stall = timer(this.options.writeTimeout).subscribe(() => this.disconnect());
    this.subscription.add(this.stall);
  }

  private endStall(): void {
    if (this.stall === undefined) return;
    this.stall.unsubscribe();
    this.subscription.remove(this.stall);
    this.stall = undefined;
  }

  private waitForDrain(): void {
    this.pending = [];
    this.pendingChars = 0;
    this.res.once('drain', () => this.onDrain());
    this.watchStall();
  }

  private end(): void {
    this.wrote = true;
    const { res } = this;
    res.end();
    // The last bytes may still wait for a client that never reads: bound that too.
    if (!res.writableFinished && !this.subscription.closed) {
      this.watchStall();
      res.once('finish', () => this.endStall());
    }
  }

  private onDrain(): void {
    this.endStall();
    const batch = this.pending!.join('');
    this.pending = undefined;
    if (batch !== '' && !this.res.write(batch)) this.waitForDrain();
    else if (this.completed) this.end();
  }
}
