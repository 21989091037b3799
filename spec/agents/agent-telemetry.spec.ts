// Issue 28, point 6: one trace for the tree, with a GenAI `invoke_agent {name}` span per
// nested agent under the parent's `execute_tool {name}` span; a child without its own
// OpenTelemetryAdvisor is traced through the interceptors the parent's registers with
// `inherit`. Real SDK (in-memory exporter); with and without a context manager.
import { lastValueFrom } from 'rxjs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { agentTool } from '../../lib/agents/agent-tool';
import { ChatClient } from '../../lib/client/chat-client';
import { tool } from '../../lib/tools/tool-fn';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { OpenSpanTracker } from '../otel/support/open-span-tracker';
import {
  idOf,
  parentOf,
  TelemetryHarness,
  useAsyncLocalStorageContext,
} from '../otel/support/telemetry-harness';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a fact up',
  parameters: { type: 'object', properties: {} },
  execute: () => 'a fact',
});

function planner(otel: TelemetryHarness, child: ChatClient, calls = 1): ChatClient {
  return ChatClient.builder(
    MockChatModel.script([
      {
        toolCalls: Array.from({ length: calls }, (_, i) => ({
          id: `call-${i + 1}`,
          name: 'research',
          arguments: { task: `task ${i + 1}` },
        })),
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      { text: 'Done.', usage: { inputTokens: 20, outputTokens: 7 } },
    ]),
  )
    .defaultAdvisors(otel.advisor())
    .defaultTools(agentTool({ client: child, name: 'research', description: 'Researches' }))
    .build();
}

function researcher(otel: TelemetryHarness | undefined, rounds = 1): ChatClient {
  const script = [
    ...Array.from({ length: rounds - 1 }, () => ({
      toolCalls: [{ name: 'lookup', arguments: {} }],
      usage: { inputTokens: 3, outputTokens: 2 },
    })),
    { text: 'Child answer.', usage: { inputTokens: 4, outputTokens: 6 } },
  ];
  const builder = ChatClient.builder(MockChatModel.script(script)).defaultTools(lookup);
  return (otel === undefined ? builder : builder.defaultAdvisors(otel.advisor())).build();
}

const named = (otel: TelemetryHarness, name: string): ReadableSpan[] =>
  otel.spans.filter((span) => span.name === name);

function expectOneTrace(otel: TelemetryHarness): void {
  expect(new Set(otel.spans.map((span) => span.spanContext().traceId)).size).toBe(1);
}

function suite(): void {
  let otel: TelemetryHarness;
  let tracker: OpenSpanTracker;
  beforeEach(() => {
    tracker = new OpenSpanTracker();
    otel = new TelemetryHarness([tracker]);
  });
  afterEach(() => otel.shutdown());
  afterEach(() => {
    expect(tracker.open()).toEqual([]);
    expect(tracker.endedTwice()).toEqual([]);
  });

  it('a child with its own advisor: its call span is invoke_agent research, under execute_tool research', async () => {
    const parent = planner(otel, researcher(otel));
    expect(await lastValueFrom(parent.prompt('Hi').call().content())).toBe('Done.');

    const toolSpan = otel.span('execute_tool research');
    const agent = otel.span('invoke_agent research');
    expect(parentOf(agent)).toBe(idOf(toolSpan));
    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'research',
      'gen_ai.agent.description': 'Researches',
      'rx_advisors.agent.path': ['research'],
      'gen_ai.provider.name': 'mock',
    });
    expect(agent.attributes['gen_ai.workflow.name']).toBeUndefined();
    // The top-level call stays a workflow; the child's model call nests under its agent span.
    expect(parentOf(otel.span('invoke_workflow OpenTelemetryAdvisor'))).toBeUndefined();
    const chats = named(otel, 'chat');
    expect(chats).toHaveLength(3);
    expect(chats.filter((span) => parentOf(span) === idOf(agent))).toHaveLength(1);
    expectOneTrace(otel);
  });

  it('a child without an advisor of its own is traced: invoke_agent, its chat and tool spans, usage', async () => {
    const parent = planner(otel, researcher(undefined, 2));
    expect(await lastValueFrom(parent.prompt('Hi').call().content())).toBe('Done.');

    const toolSpan = otel.span('execute_tool research');
    const agent = otel.span('invoke_agent research');
    expect(parentOf(agent)).toBe(idOf(toolSpan));
    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'research',
      'gen_ai.provider.name': 'mock',
      'rx_advisors.rounds': 2,
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 8,
    });
    const childChats = named(otel, 'chat').filter((span) => parentOf(span) === idOf(agent));
    expect(childChats).toHaveLength(2);
    const lookupSpan = otel.span('execute_tool lookup');
    expect(childChats.map(idOf)).toContain(parentOf(lookupSpan));
    // The agent span ends before the tool span that runs it.
    expect(otel.spans.indexOf(agent)).toBeLessThan(otel.spans.indexOf(toolSpan));
    expect(named(otel, 'invoke_workflow OpenTelemetryAdvisor')).toHaveLength(1);
    expectOneTrace(otel);
  });

  it('a grandchild without an advisor nests under the child: one trace for the tree', async () => {
    const web = ChatClient.create(MockChatModel.script([{ text: 'From the web.' }]));
    const research = ChatClient.builder(
      MockChatModel.script([
        { toolCalls: [{ name: 'web', arguments: { task: 'search' } }] },
        { text: 'Child answer.' },
      ]),
    )
      .defaultTools(agentTool({ client: web, name: 'web', description: 'Searches the web' }))
      .build();
    const parent = planner(otel, research);
    expect(await lastValueFrom(parent.prompt('Hi').call().content())).toBe('Done.');

    const webAgent = otel.span('invoke_agent web');
    expect(parentOf(webAgent)).toBe(idOf(otel.span('execute_tool web')));
    expect(webAgent.attributes['rx_advisors.agent.path']).toEqual(['research', 'web']);
    const researchAgent = otel.span('invoke_agent research');
    const webTool = otel.span('execute_tool web');
    const researchChats = named(otel, 'chat').filter(
      (span) => parentOf(span) === idOf(researchAgent),
    );
    expect(researchChats.map(idOf)).toContain(parentOf(webTool));
    expectOneTrace(otel);
  });

  it('two runs of one agent in a round: each invoke_agent under its own execute_tool', async () => {
    const parent = planner(otel, researcher(undefined), 2);
    expect(await lastValueFrom(parent.prompt('Hi').call().content())).toBe('Done.');

    const tools = named(otel, 'execute_tool research');
    const agents = named(otel, 'invoke_agent research');
    expect(tools).toHaveLength(2);
    expect(agents).toHaveLength(2);
    expect(new Set(agents.map(parentOf))).toEqual(new Set(tools.map(idOf)));
    expectOneTrace(otel);
  });
}

describe('agent telemetry, with the AsyncLocalStorage context manager', () => {
  useAsyncLocalStorageContext();
  suite();
});

describe('agent telemetry, with no context manager (the parent span is found through the call tree)', () => {
  suite();
});
