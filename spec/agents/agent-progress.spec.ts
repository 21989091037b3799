// Issue 28, point 5: nested agents' progress as parts useChat renders. The parent's stream,
// through agentProgress(), served as the 'ai-sdk-ui' protocol over real HTTP and read by the
// `ai` package's own reader (readUIMessageStream, what useChat runs): one data-agent-progress
// part per agent, replaced in place as it grows, and the tool part with the child's answer.
import { createServer, type Server } from 'node:http';
import {
  parseJsonEventStream,
  readUIMessageStream,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { from, lastValueFrom, toArray, type Observable } from 'rxjs';
import { agentProgress } from '../../lib/agents/agent-progress';
import { agentTool } from '../../lib/agents/agent-tool';
import { HandoffAdvisor } from '../../lib/agents/handoff-advisor';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { pipeToNodeResponse } from '../../lib/sse';
import { MockChatModel } from '../../lib/testing';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { close, listen } from '../sse/support/sse-test-kit';

function uiServer(next: () => Observable<ChatChunk>): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      pipeToNodeResponse(next(), res, { protocol: 'ai-sdk-ui', heartbeat: false }),
    );
  });
}

/** Every snapshot of the assistant message, as readUIMessageStream builds it. */
async function snapshots(url: string): Promise<UIMessage[]> {
  const response = await fetch(url, { method: 'POST', body: '{}' });
  const stream = parseJsonEventStream({
    stream: response.body!,
    schema: uiMessageChunkSchema,
  }).pipeThrough(
    new TransformStream({
      transform(part, controller: TransformStreamDefaultController<UIMessageChunk>) {
        if (!part.success) throw part.error;
        controller.enqueue(part.value);
      },
    }),
  );
  const all: UIMessage[] = [];
  for await (const snapshot of readUIMessageStream({ stream })) all.push(structuredClone(snapshot));
  return all;
}

/** planner → research → web, every loop sending tool events. */
function planner(): ChatClient {
  const loop = () => new ToolCallingAdvisor({ emitToolEvents: true });
  const web = ChatClient.create(MockChatModel.script([{ text: ['2.1M', ' people'] }]));
  const research = ChatClient.builder(
    MockChatModel.script([
      { toolCalls: [{ name: 'web', arguments: { task: 'Paris population' } }] },
      { text: ['About', ' 2.1M.'] },
    ]),
  )
    .defaultAdvisors(loop())
    .defaultTools(agentTool({ client: web, name: 'web', description: 'Web' }))
    .build();
  return ChatClient.builder(
    MockChatModel.script([
      { toolCalls: [{ id: 'call_r', name: 'research', arguments: { task: 'Paris?' } }] },
      { text: 'Done.' },
    ]),
  )
    .defaultAdvisors(loop())
    .defaultTools(agentTool({ client: research, name: 'research', description: 'Research' }))
    .build();
}

describe('agentProgress: nested agents as UI parts', () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server !== undefined) await close(server);
    server = undefined;
  });

  it('shows each nested agent as one data part that grows in place, read by the ai package', async () => {
    server = uiServer(() => planner().prompt('Plan').stream().chunks().pipe(agentProgress()));
    const all = await snapshots(await listen(server));
    const final = all.at(-1)!;

    const progress = final.parts.filter((p) => p.type === 'data-agent-progress');
    expect(progress).toEqual([
      {
        type: 'data-agent-progress',
        id: 'call_r:research',
        data: {
          toolCallId: 'call_r',
          path: ['research'],
          text: 'About 2.1M.',
          toolCalls: ['web'],
          finished: 'stop',
        },
      },
      {
        type: 'data-agent-progress',
        id: 'call_r:research/web',
        data: {
          toolCallId: 'call_r',
          path: ['research', 'web'],
          text: '2.1M people',
          toolCalls: [],
          finished: 'stop',
        },
      },
    ]);
    // The grandchild's part grew in place: its text was seen half-way.
    const texts = all.flatMap((m) =>
      m.parts.flatMap((p) =>
        p.type === 'data-agent-progress' && p.id === 'call_r:research/web'
          ? [(p.data as { text: string }).text]
          : [],
      ),
    );
    expect(texts).toContain('2.1M');
    const toolPart = final.parts.find((p) => p.type === 'tool-research') as
      { state: string; output: unknown } | undefined;
    expect(toolPart).toMatchObject({ state: 'output-available', output: 'About 2.1M.' });
    const text = final.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    expect(text).toBe('Done.');
  });

  it('without agentProgress(), the preliminary output of the agent tool is the nested { agentPath, chunk }', async () => {
    server = uiServer(() => planner().prompt('Plan').stream().chunks());
    const all = await snapshots(await listen(server));
    const preliminary = all.flatMap((m) =>
      m.parts.flatMap((p) => {
        const part = p as { type: string; preliminary?: boolean; output?: unknown };
        return part.type === 'tool-research' && part.preliminary === true ? [part.output] : [];
      }),
    );
    // The nested agents' chunks as objects (not '' and not JSON text): the grandchild's text too.
    expect(preliminary.length).toBeGreaterThan(0);
    expect(preliminary).toContainEqual({
      agentPath: ['research', 'web'],
      chunk: { type: 'text-delta', text: '2.1M' },
    });
    const final = all.at(-1)!;
    expect(final.parts.find((p) => p.type === 'tool-research')).toMatchObject({
      state: 'output-available',
      output: 'About 2.1M.',
    });
  });

  it('passes every other chunk as it is, and a handoff shows as a data-agent part', async () => {
    const triage = (): ChatClient =>
      ChatClient.builder(
        MockChatModel.script([{ toolCalls: [{ name: 'to_billing', arguments: {} }] }]),
      )
        .defaultAdvisors(
          new HandoffAdvisor({
            handoffs: [
              {
                client: ChatClient.create(MockChatModel.script([{ text: 'Refunded.' }])),
                name: 'to_billing',
                description: 'Billing',
              },
            ],
          }),
        )
        .build();
    const direct = await lastValueFrom(triage().prompt('Refund').stream().chunks().pipe(toArray()));
    const piped = await lastValueFrom(from(direct).pipe(agentProgress(), toArray()));
    expect(piped).toEqual(direct);
    expect(direct.some((c) => c.type === 'data' && c.name === 'agent')).toBe(true);

    server = uiServer(() => triage().prompt('Refund').stream().chunks().pipe(agentProgress()));
    const final = (await snapshots(await listen(server))).at(-1)!;
    expect(final.parts.filter((p) => p.type === 'data-agent')).toEqual([
      { type: 'data-agent', data: { name: 'to_billing', path: ['to_billing'] } },
    ]);
  });
});
