import { lastValueFrom, map, of, toArray } from 'rxjs';
import {
  advisor,
  aggregate,
  ChatRequest,
  createAdvisorChain,
  InvalidOptionsError,
  Order,
  sortAdvisors,
  type Advisor,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const request = () => ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
const suffix = (name: string, order: number): Advisor =>
  advisor({
    name,
    order,
    after: map((c: ChatChunk) => (c.type === 'text-delta' ? { ...c, text: c.text + name } : c)),
  });

describe('createAdvisorChain', () => {
  it('sorts by order, keeping registration order for ties', () => {
    const a = suffix('a', 5);
    const b = suffix('b', Order.HIGHEST_PRECEDENCE);
    const c = suffix('c', 5);
    const d = suffix('d', Order.LOWEST_PRECEDENCE);
    expect(sortAdvisors([a, b, c, d]).map((x) => x.name)).toEqual(['b', 'a', 'c', 'd']);
    const chain = createAdvisorChain({ advisors: [a, b, c, d], model: MockChatModel.script([]) });
    expect(chain.advisors.map((x) => x.name)).toEqual(['b', 'a', 'c', 'd']);
  });

  it('always calls the model last, even after LOWEST_PRECEDENCE advisors', async () => {
    const seen: string[] = [];
    const model = MockChatModel.respond((r) => {
      seen.push(`model saw ${r.messages.length} messages`);
      return { text: 'x' };
    });
    const last = advisor({
      name: 'last',
      order: Order.LOWEST_PRECEDENCE,
      before: (r) => {
        seen.push('last advisor');
        return r.appendMessages({ role: 'user', content: 'added' });
      },
    });
    await lastValueFrom(createAdvisorChain({ advisors: [last], model }).next(request()));
    expect(seen).toEqual(['last advisor', 'model saw 2 messages']);
  });

  it('copy(after) gives the sub-chain of the advisors after that one', async () => {
    const a = suffix('a', 1);
    const b = suffix('b', 2);
    const c = suffix('c', 3);
    const model = MockChatModel.script([{ text: 'x' }, { text: 'x' }]);
    const chain = createAdvisorChain({ advisors: [c, a, b], model });
    const full = await lastValueFrom(chain.next(request()).pipe(aggregate()));
    const afterA = await lastValueFrom(chain.copy(a).next(request()).pipe(aggregate()));
    expect(full.text).toBe('xcba');
    expect(afterA.text).toBe('xcb');
  });

  it('rejects copy() with an advisor that is not in the chain', () => {
    const chain = createAdvisorChain({
      advisors: [suffix('a', 1)],
      model: MockChatModel.script([]),
    });
    expect(() => chain.copy(suffix('stranger', 1))).toThrow(InvalidOptionsError);
    expect(() => chain.copy(suffix('stranger', 1))).toThrow(/an advisor of this chain \(a\)/);
  });

  it('rejects an advisor without advise() or with a NaN order', () => {
    const model = MockChatModel.script([]);
    expect(() =>
      createAdvisorChain({ advisors: [{ name: 'x', order: 0 } as unknown as Advisor], model }),
    ).toThrow(InvalidOptionsError);
    expect(() =>
      createAdvisorChain({ advisors: [{ name: 'nan', order: NaN, advise: () => of() }], model }),
    ).toThrow(/nan\.order/);
  });

  it('does nothing until subscribed (cold)', async () => {
    const model = MockChatModel.script([{ text: 'x' }]);
    const next$ = createAdvisorChain({ advisors: [suffix('a', 1)], model }).next(request());
    expect(model.calls).toBe(0);
    await lastValueFrom(next$.pipe(toArray()));
    expect(model.calls).toBe(1);
  });
});

describe('advisor()', () => {
  it('validates its options', () => {
    expect(() => advisor({ name: '' })).toThrow(InvalidOptionsError);
    expect(() => advisor({ name: 'x', order: Number.NaN })).toThrow(/Invalid option "order"/);
  });

  it('defaults to order 0 and passes through with neither before nor after', async () => {
    const plain = advisor({ name: 'plain' });
    expect(plain.order).toBe(Order.DEFAULT);
    const model = MockChatModel.script([{ text: 'same' }]);
    const response = await lastValueFrom(
      createAdvisorChain({ advisors: [plain], model })
        .next(request())
        .pipe(aggregate()),
    );
    expect(response.text).toBe('same');
  });

  it('turns a throwing after() into the stream error', async () => {
    const failure = new Error('operator factory failed');
    const broken = advisor({
      name: 'broken',
      after: () => {
        throw failure;
      },
    });
    const model = MockChatModel.script([{ text: 'x' }]);
    await expect(
      lastValueFrom(createAdvisorChain({ advisors: [broken], model }).next(request())),
    ).rejects.toBe(failure);
  });
});
