import { lastValueFrom, Observable, of, throwError, toArray } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk, ToolResultChunk } from '../../lib/core/chat-chunk';
import type { ToolMessage } from '../../lib/core/message';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';

// The Observable-tool path's subscriber (`ToolValueSubscriber`) and the round's
// tool-event subscriber (`ToolEventsSubscriber`) are `Subscriber` subclasses since the
// nested chunk pass (issue 28, 2026-12-03). The marble tests cover progress, the time limit
// and unsubscription; these pin the edges a subscriber's own state could get wrong: a tool
// that ends while it is being subscribed, and a progress value the converter rejects.

interface Run {
  chunks: ChatChunk[];
  toolMessage: ToolMessage;
  aborted: boolean;
}

async function runTool(execute: () => Observable<unknown>, convert?: (v: unknown) => string) {
  let signal: AbortSignal | undefined;
  const model = MockChatModel.script([
    { toolCalls: [{ name: 'work', arguments: {} }] },
    { text: 'done' },
  ]);
  const client = ChatClient.builder(model)
    .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
    .defaultTools(
      tool({
        name: 'work',
        description: 'Works',
        parameters: { type: 'object', properties: {} },
        execute: (_args: unknown, context) => {
          signal = context.signal;
          return execute();
        },
        ...(convert === undefined ? {} : { resultConverter: convert }),
      }),
    )
    .build();
  const chunks = await lastValueFrom(client.prompt('Hi').stream().chunks().pipe(toArray()));
  const toolMessage = model.requests[1].messages.find((m) => m.role === 'tool') as ToolMessage;
  return { chunks, toolMessage, aborted: signal?.aborted ?? false } satisfies Run;
}

const results = (chunks: ChatChunk[]): ToolResultChunk[] =>
  chunks.filter((c): c is ToolResultChunk => c.type === 'tool-result');

describe('Observable tools: the subscriber to their values', () => {
  it('a tool that completes while it is subscribed: progress, then the last value, no abort', async () => {
    const run = await runTool(() => of('a', 'b'));
    expect(results(run.chunks).map((c) => [c.content, c.preliminary === true])).toEqual([
      ['a', true],
      ['b', true],
      ['b', false],
    ]);
    expect(run.toolMessage).toMatchObject({ content: 'b' });
    expect(run.toolMessage.isError).toBeUndefined();
    expect(run.aborted).toBe(false);
  });

  it('a tool that fails while it is subscribed: the error result, no abort', async () => {
    const run = await runTool(() => throwError(() => new Error('broken')));
    expect(run.toolMessage.isError).toBe(true);
    expect(run.toolMessage.content).toContain('broken');
    expect(run.aborted).toBe(false);
  });

  it('a progress value the converter rejects: the error result, the tool stopped and aborted', async () => {
    let unsubscribed = false;
    const run = await runTool(
      () =>
        new Observable<string>((subscriber) => {
          subscriber.next('fine');
          subscriber.next('bad');
          subscriber.next('never seen');
          return () => {
            unsubscribed = true;
          };
        }),
      (value) => {
        if (value === 'bad') throw new Error('cannot convert');
        return String(value);
      },
    );
    const contents = results(run.chunks).map((c) => c.content);
    expect(contents[0]).toBe('fine');
    expect(contents).not.toContain('never seen');
    expect(run.toolMessage.isError).toBe(true);
    expect(unsubscribed).toBe(true);
    expect(run.aborted).toBe(true);
  });
});
