import { lastValueFrom, toArray } from 'rxjs';
import { advisor, ChatClient, type Advisor, type AdvisorChain } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

// What a plain call shares with the calls before it instead of building anew (issue 32,
// point 3): the client's own options and tool context, and the chain of a call that adds
// no advisors. Sharing is only safe because what is shared cannot be changed.
describe('ChatClient: what calls share', () => {
  it('gives a call that sets no options the client options, frozen', async () => {
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    const client = ChatClient.builder(model).defaultOptions({ temperature: 0 }).build();
    await lastValueFrom(client.prompt('Hi').stream().content().pipe(toArray()));
    await lastValueFrom(client.prompt('Hi').stream().content().pipe(toArray()));
    const [first, second] = model.requests;
    expect(first?.options).toBe(second?.options);
    expect(Object.isFrozen(first?.options)).toBe(true);
    expect(Object.isFrozen(first?.toolContext)).toBe(true);
    expect(() => {
      (first?.options as Record<string, unknown>)['temperature'] = 1;
    }).toThrow(TypeError);
  });

  it('still merges a call options over the client options, in a copy', async () => {
    const model = MockChatModel.script([{ text: 'a' }]);
    const client = ChatClient.builder(model).defaultOptions({ temperature: 0 }).build();
    await lastValueFrom(client.prompt('Hi').options({ maxTokens: 5 }).call().content());
    expect(model.requests[0]?.options).toEqual({ temperature: 0, maxTokens: 5 });
    expect(Object.isFrozen(model.requests[0]?.options)).toBe(false);
  });

  it('runs calls that add no advisors on one chain, and a call that adds one on its own', async () => {
    const chains: AdvisorChain[] = [];
    const spy: Advisor = {
      name: 'spy',
      order: 0,
      advise: (request, chain) => {
        chains.push(chain);
        return chain.next(request);
      },
    };
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const client = ChatClient.builder(model).defaultAdvisors(spy).build();
    await lastValueFrom(client.prompt('Hi').call().content());
    await lastValueFrom(client.prompt('Hi').call().content());
    await lastValueFrom(
      client
        .prompt('Hi')
        .advisors(advisor({ name: 'extra', order: 5 }))
        .call()
        .content(),
    );
    expect(chains[0]).toBe(chains[1]);
    expect(chains[2]).not.toBe(chains[0]);
    const names = (chain: AdvisorChain | undefined) => chain?.advisors.map((a) => a.name).sort();
    expect(names(chains[2])).toEqual(['NoToolsGuard', 'extra', 'spy']);
    expect(names(chains[0])).toEqual(['NoToolsGuard', 'spy']);
  });
});
