/**
 * Runs async tasks one after another per key, and tasks of different keys independently.
 * A key's entry is dropped as soon as its queue drains, so a million conversations leave
 * nothing behind.
 * @internal
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /**
   * Runs `task` after every task queued earlier under `key` has settled.
   * @param key The queue to join (a conversation id).
   * @param task The work; it starts only when the queue reaches it.
   * @returns The task's own result or failure.
   */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    // A failed task must not block the ones after it: they start on either outcome.
    const result =
      previous === undefined
        ? new Promise<T>((resolve) => resolve(task()))
        : previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** How many keys have work queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
