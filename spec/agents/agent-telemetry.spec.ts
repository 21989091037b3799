// Issue 28, point 6 (part): one trace for the tree. The agent tool's Observable is
// subscribed inside the parent's `execute_tool` span (the telemetry seam makes it the active
// context), so a child client with its own OpenTelemetryAdvisor starts its spans under it.
import { lastValueFrom } from 'rxjs';
import { agentTool } from '../../lib/agents/agent-tool';
import { ChatClient } from '../../lib/client/chat-client';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import {
  idOf,
  parentOf,
  TelemetryHarness,
  useAsyncLocalStorageContext,
} from '../otel/support/telemetry-harness';

describe('agentTool telemetry', () => {
  useAsyncLocalStorageContext();
  let otel: TelemetryHarness;
  beforeEach(() => (otel = new TelemetryHarness()));
  afterEach(() => otel.shutdown());

  it("nests the child's call span under the parent's execute_tool span, in one trace", async () => {
    const child = ChatClient.builder(MockChatModel.script([{ text: 'Child answer.' }]))
      .defaultAdvisors(otel.advisor())
      .build();
    const parent = ChatClient.builder(
      MockChatModel.script([
        { toolCalls: [{ name: 'research', arguments: { task: 'go' } }] },
        { text: 'Done.' },
      ]),
    )
      .defaultAdvisors(otel.advisor())
      .defaultTools(agentTool({ client: child, name: 'research', description: 'Research' }))
      .build();

    expect(await lastValueFrom(parent.prompt('Hi').call().content())).toBe('Done.');

    const calls = otel.spans.filter((span) => span.name === 'invoke_workflow OpenTelemetryAdvisor');
    const toolSpan = otel.span('execute_tool research');
    expect(calls).toHaveLength(2);
    const [childCall] = calls.filter((span) => parentOf(span) !== undefined);
    expect(parentOf(childCall)).toBe(idOf(toolSpan));
    const traces = new Set(otel.spans.map((span) => span.spanContext().traceId));
    expect(traces.size).toBe(1);
  });
});
