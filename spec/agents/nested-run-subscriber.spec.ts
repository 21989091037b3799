import { lastValueFrom, Observable, Subject, toArray } from 'rxjs';
import { agentTool } from '../../lib/agents/agent-tool';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk, ToolResultChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import type { ToolMessage } from '../../lib/core/message';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';

// The agent tool's per-chunk subscriber and the round's tool-event subscriber are
// `Subscriber` subclasses (issue 28, nested chunk cost, 2026-12-03): what a user sees of a
// nested run must not change. These pin it: the exact preliminary chunk, the answer that
// follows the child (an asynchronous `output` included), and unsubscription reaching the
// child's model and the pending answer.

const planned = (name: string) =>
  MockChatModel.script([
    { toolCalls: [{ name, arguments: { task: 'go' } }] },
    { text: 'planner done' },
  ]);

function planner(model: ChatModel, tool: ReturnType<typeof agentTool>): ChatClient {
  return ChatClient.builder(model)
    .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
    .defaultTools(tool)
    .build();
}

/** The research agent whose answer waits for `summary` (an asynchronous `output`). */
const summarized = (client: ChatClient, summary: Subject<string>) =>
  agentTool({ client, name: 'research', description: 'd', output: () => summary });

describe('agentTool: the nested run as the user sees it', () => {
  it('sends each child chunk as one preliminary tool-result of this exact shape, in order', async () => {
    const child = ChatClient.create(MockChatModel.script([{ text: 'a b' }]));
    const parentModel = planned('research');
    const chunks = await lastValueFrom(
      planner(parentModel, agentTool({ client: child, name: 'research', description: 'd' }))
        .prompt('Hi')
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    const preliminaries = chunks.filter(
      (c) => c.type === 'tool-result' && c.preliminary && c.agentChunk !== undefined,
    );
    expect(preliminaries.length).toBeGreaterThan(1);
    const callId = (parentModel.requests[1].messages.find((m) => m.role === 'tool') as ToolMessage)
      .toolCallId;
    for (const chunk of preliminaries) {
      expect(Object.keys(chunk)).toEqual([
        'type',
        'id',
        'name',
        'content',
        'preliminary',
        'agentChunk',
      ]);
      expect(chunk).toMatchObject({ id: callId, name: 'research', content: '' });
      const agentChunk = (chunk as ToolResultChunk).agentChunk!;
      expect(Object.keys(agentChunk)).toEqual(['agentPath', 'chunk']);
      expect(agentChunk.agentPath).toEqual(['research']);
      expect(JSON.parse(JSON.stringify(chunk))).toEqual(chunk);
    }
    const nested = preliminaries.map((c) => (c as ToolResultChunk).agentChunk!.chunk);
    expect(
      nested
        .filter((c) => c.type === 'text-delta')
        .map((c) => (c as { text: string }).text)
        .join(''),
    ).toBe('a b');
    expect(nested[nested.length - 1]).toEqual({ type: 'finish', reason: 'stop' });
    // The parent model read the child's text as the tool's result.
    expect(parentModel.requests[1].messages.find((m) => m.role === 'tool')).toMatchObject({
      content: 'a b',
    });
  });

  it('waits for an asynchronous output after the child completes, and the parent model reads it', async () => {
    const child = ChatClient.create(MockChatModel.script([{ text: 'long answer' }]));
    const summary = new Subject<string>();
    const parentModel = planned('research');
    const done = lastValueFrom(
      planner(parentModel, summarized(child, summary))
        .prompt('Hi')
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(summary.observed).toBe(true);
    summary.next('short');
    summary.complete();
    await done;
    expect(parentModel.requests[1].messages.find((m) => m.role === 'tool')).toMatchObject({
      content: 'short',
    });
  });

  it('unsubscribing the parent mid-run unsubscribes the child model, and mid-answer the answer', async () => {
    let childTornDown = false;
    const hanging: ChatModel = {
      provider: 'test',
      stream: () =>
        new Observable<ChatChunk>((subscriber) => {
          subscriber.next({ type: 'text-delta', text: 'partial' });
          return () => {
            childTornDown = true;
          };
        }),
    };
    const seen: ChatChunk[] = [];
    const run = planner(
      planned('research'),
      agentTool({ client: ChatClient.create(hanging), name: 'research', description: 'd' }),
    )
      .prompt('Hi')
      .stream()
      .chunks()
      .subscribe((chunk) => seen.push(chunk));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.some((c) => c.type === 'tool-result' && c.preliminary)).toBe(true);
    expect(childTornDown).toBe(false);
    run.unsubscribe();
    expect(childTornDown).toBe(true);

    const summary = new Subject<string>();
    const answering = planner(
      planned('research'),
      summarized(ChatClient.create(MockChatModel.script([{ text: 'x' }])), summary),
    )
      .prompt('Hi')
      .stream()
      .chunks()
      .subscribe();
    await new Promise((resolve) => setImmediate(resolve));
    expect(summary.observed).toBe(true);
    answering.unsubscribe();
    expect(summary.observed).toBe(false);
  });
});
