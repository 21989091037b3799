import { lastValueFrom } from 'rxjs';
import { advisor } from '../../lib/advisor-api/advisor';
import { ContextKeys } from '../../lib/advisor-api/context-keys';
import { Order } from '../../lib/advisor-api/order';
import { ChatClient } from '../../lib/client/chat-client';
import type { ToolOutput } from '../../lib/core/tool';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { ToolExecuteInvocation as ToolInvocation } from '../../lib/advisor-api/tool-call-interceptor';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { timeTool } from './support/fixtures';

describe('ToolCallingAdvisor: the tool-call interceptor', () => {
  it('runs every tool of the call through the interceptor an outer advisor set', async () => {
    const seen: string[] = [];
    const intercept = (invocation: ToolInvocation, proceed: () => ToolOutput<unknown>) => {
      seen.push(`${invocation.call.id}:${invocation.context.round}`);
      return `<${String(proceed())}>`;
    };
    const outer = advisor({
      name: 'telemetry-like',
      order: Order.HIGHEST_PRECEDENCE,
      before: (request) => {
        request.context.set(ContextKeys.TOOL_CALL_INTERCEPTOR, intercept);
        return request;
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Rome' } }] },
      { text: 'Done.' },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(timeTool())
      .defaultAdvisors(outer, new ToolCallingAdvisor())
      .build();
    expect(await lastValueFrom(client.prompt('Time?').call().content())).toBe('Done.');
    expect(seen).toEqual(['call_1_0:1', 'call_2_0:2']);
    expect(model.requests[2].messages.at(-1)).toMatchObject({ content: '<12:00 in Rome>' });
  });

  it('ignores a context value that is not a function', async () => {
    const outer = advisor({
      name: 'bad',
      order: Order.HIGHEST_PRECEDENCE,
      before: (request) => {
        request.context.set(ContextKeys.TOOL_CALL_INTERCEPTOR, 'not a function');
        return request;
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
      { text: 'Done.' },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(timeTool())
      .defaultAdvisors(outer, new ToolCallingAdvisor())
      .build();
    await lastValueFrom(client.prompt('Time?').call().content());
    expect(model.requests[1].messages.at(-1)).toMatchObject({ content: '12:00 in Paris' });
  });
});
