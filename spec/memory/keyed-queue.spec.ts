import { KeyedQueue } from '../../lib/memory/keyed-queue';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedQueue', () => {
  it('runs tasks of one key one after another, in order', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const first = deferred();
    const a = queue.run('k', async () => {
      log.push('a start');
      await first.promise;
      log.push('a end');
    });
    const b = queue.run('k', () => {
      log.push('b');
      return Promise.resolve();
    });
    await tick();
    expect(log).toEqual(['a start']);
    first.resolve();
    await Promise.all([a, b]);
    expect(log).toEqual(['a start', 'a end', 'b']);
  });

  it('runs tasks of different keys independently', async () => {
    const queue = new KeyedQueue();
    const blocked = deferred();
    void queue.run('x', () => blocked.promise);
    await expect(queue.run('y', () => Promise.resolve('y done'))).resolves.toBe('y done');
    blocked.resolve();
  });

  it('goes on after a failed task, and reports the failure to its caller only', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('k', () => Promise.reject(new Error('boom')));
    const next = queue.run('k', () => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('turns a task that throws synchronously into a rejection', async () => {
    const queue = new KeyedQueue();
    await expect(
      queue.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
  });

  it('forgets a key once its queue drains', async () => {
    const queue = new KeyedQueue();
    const all = Promise.all(
      Array.from({ length: 100 }, (_, i) => queue.run(`k${i % 10}`, () => Promise.resolve(i))),
    );
    expect(queue.size).toBe(10);
    await all;
    await tick();
    expect(queue.size).toBe(0);
  });
});
