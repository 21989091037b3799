import { map, take, timer, type Observable } from 'rxjs';
import type { ChatMemory, Message } from '../../../lib/index';

type Settle = () => void;

/**
 * A PromiseLike that settles synchronously when its source emits, so that work behind a
 * Promise-based API happens in the TestScheduler's virtual time (real Promises settle
 * in microtasks, after a synchronous flush is over). `from()` accepts it as a Promise.
 */
class SyncThenable<T> implements PromiseLike<T> {
  private state: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  private value: T | undefined;
  private reason: unknown;
  private readonly waiting: Settle[] = [];

  static from<T>(source$: Observable<T>): SyncThenable<T> {
    const thenable = new SyncThenable<T>();
    source$.pipe(take(1)).subscribe({
      next: (value) => thenable.settle('fulfilled', value, undefined),
      error: (error: unknown) => thenable.settle('rejected', undefined, error),
    });
    return thenable;
  }

  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): SyncThenable<R1 | R2> {
    const next = new SyncThenable<R1 | R2>();
    const run: Settle = () => {
      try {
        if (this.state === 'fulfilled') {
          next.settle(
            'fulfilled',
            (onFulfilled ? onFulfilled(this.value as T) : this.value) as R1,
            undefined,
          );
        } else if (onRejected) {
          next.settle('fulfilled', onRejected(this.reason) as R2, undefined);
        } else {
          next.settle('rejected', undefined, this.reason);
        }
      } catch (error) {
        next.settle('rejected', undefined, error);
      }
    };
    if (this.state === 'pending') this.waiting.push(run);
    else run();
    return next;
  }

  private settle(state: 'fulfilled' | 'rejected', value: T | undefined, reason: unknown): void {
    if (this.state !== 'pending') return;
    this.state = state;
    this.value = value;
    this.reason = reason;
    for (const run of this.waiting.splice(0)) run();
  }
}

/** A ChatMemory whose reads and writes each take `latency` frames of virtual time. */
export class VirtualChatMemory implements ChatMemory {
  readonly conversations = new Map<string, Message[]>();
  readonly writes: Message[][] = [];

  constructor(private readonly latency = 0) {}

  get(conversationId: string): Promise<Message[]> {
    return this.after(() => [...(this.conversations.get(conversationId) ?? [])]);
  }

  add(conversationId: string, messages: readonly Message[]): Promise<void> {
    return this.after(() => {
      this.writes.push([...messages]);
      this.conversations.set(conversationId, [
        ...(this.conversations.get(conversationId) ?? []),
        ...messages,
      ]);
    });
  }

  clear(conversationId: string): Promise<void> {
    return this.after(() => {
      this.conversations.delete(conversationId);
    });
  }

  private after<T>(work: () => T): Promise<T> {
    return SyncThenable.from(timer(this.latency).pipe(map(work))) as unknown as Promise<T>;
  }
}
