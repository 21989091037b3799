import { firstValueFrom, Subject } from 'rxjs';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { ToolNotFoundError } from '../../lib/errors/tool-not-found-error';
import { executeToolCalls } from '../../lib/tools/execute-tool-calls';
import { tool } from '../../lib/tools/tool-fn';
import { timeTool } from './support/fixtures';

describe('executeToolCalls', () => {
  it('runs the calls and emits their results once, in call order', async () => {
    const gate = new Subject<string>();
    const late = tool({ name: 'late', description: '', parameters: {}, execute: () => gate });
    const results$ = executeToolCalls({
      toolCalls: [
        { id: '1', name: 'late', arguments: '' },
        { id: '2', name: 'getTime', arguments: '{"city":"Oslo"}' },
      ],
      tools: [late, timeTool()],
    });
    const done = firstValueFrom(results$);
    gate.next('a');
    gate.next('b'); // an Observable's last value counts
    gate.complete();
    expect(await done).toEqual([
      { role: 'tool', toolCallId: '1', name: 'late', content: 'b' },
      { role: 'tool', toolCallId: '2', name: 'getTime', content: '12:00 in Oslo' },
    ]);
  });

  it('emits an empty array for no calls', async () => {
    expect(await firstValueFrom(executeToolCalls({ toolCalls: [], tools: [] }))).toEqual([]);
  });

  it('reports an unknown tool by default and throws it on request', async () => {
    const toolCalls = [{ id: '1', name: 'nope', arguments: '{}' }];
    const [result] = await firstValueFrom(executeToolCalls({ toolCalls, tools: [timeTool()] }));
    expect(result).toMatchObject({ isError: true, name: 'nope' });
    await expect(
      firstValueFrom(executeToolCalls({ toolCalls, tools: [], onToolError: 'throw' })),
    ).rejects.toBeInstanceOf(ToolNotFoundError);
  });

  it('aborts running tools when unsubscribed', () => {
    let signal: AbortSignal | undefined;
    const hang = tool({
      name: 'hang',
      description: '',
      parameters: {},
      execute: (_a, context) => {
        signal = context.signal;
        return new Subject<string>();
      },
    });
    const subscription = executeToolCalls({
      toolCalls: [{ id: '1', name: 'hang', arguments: '' }],
      tools: [hang],
    }).subscribe();
    expect(signal?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
  });

  it('runs the tools again for every subscription, sharing no results', async () => {
    const cities: string[] = [];
    const results$ = executeToolCalls({
      toolCalls: [{ id: '1', name: 'getTime', arguments: '{"city":"Rome"}' }],
      tools: [timeTool(cities)],
    });
    const first = await firstValueFrom(results$);
    const second = await firstValueFrom(results$);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(cities).toEqual(['Rome', 'Rome']);
  });

  it('rejects a concurrency below 1', () => {
    expect(() => executeToolCalls({ toolCalls: [], tools: [], concurrency: 0 })).toThrow(
      InvalidOptionsError,
    );
  });
});
