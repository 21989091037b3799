import { isObservable, lastValueFrom, of, toArray } from 'rxjs';
import type { ToolCall } from '../../lib/core/message';
import type { ToolExecuteInvocation as ToolInvocation } from '../../lib/advisor-api/tool-call-interceptor';
import { describeToolError, TOOL_EXECUTION_DEFAULTS } from '../../lib/tools/tool-execution';
import { startToolCalls } from '../../lib/tools/start-tool-calls';
import { toolsByName } from '../../lib/tools/unique-tools';
import { timeTool } from './support/fixtures';

const paris: ToolCall = { id: 'c1', name: 'getTime', arguments: '{"city":"Paris"}' };

function execution(extra: object = {}) {
  return {
    ...TOOL_EXECUTION_DEFAULTS,
    tools: toolsByName([timeTool()]),
    values: { userId: 7 },
    round: 2,
    errorContent: describeToolError,
    ...extra,
  };
}

describe('startToolCalls (the tool-execution core)', () => {
  it('answers synchronous tools on the spot, with no Observable', () => {
    const started = startToolCalls([paris, { ...paris, id: 'c2' }], execution());
    expect(started.rest$).toBeUndefined();
    expect(started.finished).toBe(2);
    expect(started.results.map((r) => r.content)).toEqual(['12:00 in Paris', '12:00 in Paris']);
  });

  it('runs every call through the interceptor, with validated arguments and the context', () => {
    const seen: unknown[] = [];
    const intercept = (invocation: ToolInvocation, proceed: () => unknown) => {
      seen.push([
        invocation.call.id,
        invocation.args,
        invocation.context.round,
        invocation.context.values,
      ]);
      return `[${String(proceed())}]`;
    };
    const started = startToolCalls([paris], execution({ aroundExecute: intercept }));
    expect(started.rest$).toBeUndefined();
    expect(started.results[0].content).toBe('[12:00 in Paris]');
    expect(seen).toEqual([['c1', { city: 'Paris' }, 2, { userId: 7 }]]);
  });

  it('lets an interceptor make a call asynchronous, or refuse it', async () => {
    const intercept = (invocation: ToolInvocation, proceed: () => unknown) => {
      if (invocation.call.id === 'c2') throw new Error('not approved');
      return of(proceed());
    };
    const started = startToolCalls(
      [paris, { ...paris, id: 'c2' }],
      execution({ aroundExecute: intercept }),
    );
    expect(isObservable(started.rest$)).toBe(true);
    await lastValueFrom(started.rest$!.pipe(toArray()));
    expect(started.results[0].content).toBe('12:00 in Paris');
    expect(started.results[1]).toMatchObject({
      isError: true,
      content: 'The tool "getTime" failed: not approved',
    });
  });
});
