// The hand-written Promise path of a tool call (lib/tools/promise-tool-result.ts), held to
// what `from(promise)` + `takeLast(1)` + `timeout` + `finalize` + `catchError` gave: the
// same results, errors, abort and teardown.
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { ToolCall } from '../../lib/core/message';
import type { Tool } from '../../lib/core/tool';
import { ToolExecutionError } from '../../lib/errors/tool-execution-error';
import { ToolResultError } from '../../lib/errors/tool-result-error';
import { promiseToolResult } from '../../lib/tools/promise-tool-result';
import { describeToolError, type ToolExecution } from '../../lib/tools/tool-execution';
import { tool } from '../../lib/tools/tool-fn';

const call: ToolCall = { id: 'c1', name: 'lookup', arguments: '{}' };

function lookup(converter?: (value: unknown) => string, timeout?: number): Tool {
  return tool({
    name: 'lookup',
    description: 'Looks up',
    parameters: {},
    execute: () => 'unused',
    ...(converter === undefined ? {} : { resultConverter: converter }),
    ...(timeout === undefined ? {} : { timeout }),
  });
}

function execution(overrides: Partial<ToolExecution> = {}): ToolExecution {
  return {
    tools: new Map(),
    values: {},
    round: 1,
    timeout: 300_000,
    concurrency: 1,
    maxToolCallsPerRound: 8,
    onToolError: 'report',
    errorContent: (error) => describeToolError(error),
    ...overrides,
  };
}

/** A Promise and its settle functions. */
function deferred<T>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('promiseToolResult', () => {
  it('emits the message of the resolved value, then completes', async () => {
    const result$ = promiseToolResult(
      Promise.resolve({ n: 1 }),
      lookup(),
      call,
      execution(),
      jest.fn(),
    );
    await expect(lastValueFrom(result$.pipe(toArray()))).resolves.toEqual([
      { role: 'tool', toolCallId: 'c1', name: 'lookup', content: '{"n":1}' },
    ]);
  });

  it('reports a rejection as an error result (policy report)', async () => {
    const result$ = promiseToolResult(
      Promise.reject(new Error('offline')),
      lookup(),
      call,
      execution(),
      jest.fn(),
    );
    await expect(firstValueFrom(result$)).resolves.toEqual({
      role: 'tool',
      toolCallId: 'c1',
      name: 'lookup',
      content: 'The tool "lookup" failed: offline',
      isError: true,
    });
  });

  it('fails with a ToolExecutionError under policy throw', async () => {
    const result$ = promiseToolResult(
      Promise.reject(new Error('offline')),
      lookup(),
      call,
      execution({ onToolError: 'throw' }),
      jest.fn(),
    );
    const error = await firstValueFrom(result$).catch((e: unknown) => e);
    expect(ToolExecutionError.isInstance(error)).toBe(true);
    expect((error as ToolExecutionError).cause).toEqual(new Error('offline'));
  });

  it('reports a converter that throws (a user callback), or fails under policy throw', async () => {
    const throwing = lookup(() => {
      throw new Error('cannot convert');
    });
    await expect(
      firstValueFrom(promiseToolResult(Promise.resolve(1), throwing, call, execution(), jest.fn())),
    ).resolves.toMatchObject({ isError: true });
    const error = await firstValueFrom(
      promiseToolResult(
        Promise.resolve(1),
        throwing,
        call,
        execution({ onToolError: 'throw' }),
        jest.fn(),
      ),
    ).catch((e: unknown) => e);
    expect(ToolResultError.isInstance(error)).toBe(true);
  });

  it('handles a thenable whose then throws', async () => {
    const thenable = {
      then(): never {
        throw new Error('broken thenable');
      },
    };
    await expect(
      firstValueFrom(promiseToolResult(thenable, lookup(), call, execution(), jest.fn())),
    ).resolves.toMatchObject({
      content: 'The tool "lookup" failed: broken thenable',
      isError: true,
    });
  });

  it('handles a rejection that comes while nobody is subscribed (no unhandled rejection)', async () => {
    const { promise, reject } = deferred<string>();
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      promiseToolResult(promise, lookup(), call, execution(), jest.fn());
      reject(new Error('late'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('delivers a value that settled before the subscription', async () => {
    const result$ = promiseToolResult(
      Promise.resolve('early'),
      lookup(),
      call,
      execution(),
      jest.fn(),
    );
    await new Promise((resolve) => setImmediate(resolve));
    await expect(firstValueFrom(result$)).resolves.toMatchObject({ content: 'early' });
  });

  it('aborts the tool when unsubscribed before the Promise settles, and emits nothing after', async () => {
    const { promise, resolve } = deferred<string>();
    const abort = jest.fn();
    const next = jest.fn();
    const subscription = promiseToolResult(promise, lookup(), call, execution(), abort).subscribe(
      next,
    );
    subscription.unsubscribe();
    expect(abort).toHaveBeenCalledTimes(1);
    resolve('too late');
    await promise;
    await new Promise((r) => setImmediate(r));
    expect(next).not.toHaveBeenCalled();
  });

  it('does not abort a tool that settled', async () => {
    const abort = jest.fn();
    await firstValueFrom(
      promiseToolResult(Promise.resolve('ok'), lookup(), call, execution(), abort),
    );
    expect(abort).not.toHaveBeenCalled();
  });

  it('times out in RxJS time: aborts the tool, then answers with the timeout', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    const order: string[] = [];
    testScheduler.run(({ expectObservable }) => {
      const never = new Promise<string>(() => undefined);
      const result$ = promiseToolResult(never, lookup(undefined, 5), call, execution(), () =>
        order.push('abort'),
      );
      expectObservable(result$).toBe('-----(r|)', {
        r: {
          role: 'tool',
          toolCallId: 'c1',
          name: 'lookup',
          content:
            'The tool "lookup" did not finish within 5 ms and was cancelled. Try again later or answer without it.',
          isError: true,
        },
      });
    });
    expect(order).toEqual(['abort']);
  });

  it('sets no timer without a limit (Infinity)', async () => {
    const { promise, resolve } = deferred<string>();
    const result$ = promiseToolResult(
      promise,
      lookup(),
      call,
      execution({ timeout: Number.POSITIVE_INFINITY }),
      jest.fn(),
    );
    const value = firstValueFrom(result$);
    resolve('ok');
    await expect(value).resolves.toMatchObject({ content: 'ok' });
  });
});
