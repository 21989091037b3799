import { lastValueFrom, toArray } from 'rxjs';
import {
  advisor,
  ChatClient,
  isConversationHistoryAware,
  isToolContributor,
  isToolLoop,
  MessageChatMemoryAdvisor,
  Order,
  tool,
  ToolCallingAdvisor,
  type Advisor,
  type ToolLoopRole,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const plain = advisor({ name: 'plain' });

describe('advisor roles', () => {
  it('isToolLoop: ToolCallingAdvisor and its subclasses, and any advisor declaring the role', () => {
    class Sub extends ToolCallingAdvisor {}
    const custom: Advisor & ToolLoopRole = { ...plain, name: 'custom', runsToolLoop: true };
    expect(isToolLoop(new ToolCallingAdvisor())).toBe(true);
    expect(isToolLoop(new Sub())).toBe(true);
    expect(isToolLoop(custom)).toBe(true);
    expect(isToolLoop(plain)).toBe(false);
    expect(isToolLoop({ ...plain, runsToolLoop: 'yes' } as unknown as Advisor)).toBe(false);
  });

  it('isConversationHistoryAware: a memory advisor inside the loop, not outside', () => {
    const outside = new MessageChatMemoryAdvisor();
    const inside = new MessageChatMemoryAdvisor({ order: Order.TOOL_CALLING + 10 });
    expect(isConversationHistoryAware(outside)).toBe(false);
    expect(isConversationHistoryAware(inside)).toBe(true);
    expect(isConversationHistoryAware(plain)).toBe(false);
  });

  it('isToolContributor: only an explicit contributesTools: true', () => {
    expect(isToolContributor({ ...plain, contributesTools: true } as Advisor)).toBe(true);
    expect(isToolContributor({ ...plain, contributesTools: false } as Advisor)).toBe(false);
    expect(isToolContributor(plain)).toBe(false);
  });

  it('a ChatClient adds no ToolCallingAdvisor when a registered advisor declares the tool loop role', async () => {
    const ran: string[] = [];
    const getTime = tool({
      name: 'getTime',
      description: 'The time in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      execute: ({ city }) => {
        ran.push(String(city));
        return 'noon';
      },
    });
    // A loop of its own that runs one round and never executes tools.
    const ownLoop: Advisor & ToolLoopRole = {
      name: 'own-loop',
      order: Order.TOOL_CALLING,
      runsToolLoop: true,
      advise: (request, chain) => chain.next(request),
    };
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
      { text: 'never asked' },
    ]);
    const chunks = await lastValueFrom(
      ChatClient.builder(model)
        .defaultAdvisors(ownLoop)
        .build()
        .prompt('time?')
        .tools(getTime)
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    expect(model.calls).toBe(1);
    expect(ran).toEqual([]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });
});
