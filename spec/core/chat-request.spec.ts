import { ChatRequest } from '../../lib/index';

describe('ChatRequest', () => {
  const base = ChatRequest.create({
    messages: [{ role: 'user', content: 'Hi' }],
    options: { temperature: 1 },
  });

  it('derives new requests and never changes the original', () => {
    const derived = base
      .withOptions({ maxTokens: 10 })
      .appendMessages({ role: 'assistant', content: 'Hello' })
      .withToolContext({ userId: 7 });
    expect(derived.options).toEqual({ temperature: 1, maxTokens: 10 });
    expect(derived.messages).toHaveLength(2);
    expect(derived.toolContext).toEqual({ userId: 7 });
    expect(base.options).toEqual({ temperature: 1 });
    expect(base.messages).toHaveLength(1);
    expect(base.toolContext).toEqual({});
  });

  it('is frozen', () => {
    expect(Object.isFrozen(base)).toBe(true);
    expect(() => {
      (base as { options: unknown }).options = {};
    }).toThrow(TypeError);
  });

  it('shares one context map across derived requests', () => {
    const derived = base.withMessages([]).withTools([]);
    derived.context.set('k', 1);
    expect(base.context.get('k')).toBe(1);
  });

  it('finds the last user text', () => {
    const request = base.appendMessages(
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'second' },
    );
    expect(request.lastUserText).toBe('second');
    expect(ChatRequest.create().lastUserText).toBeUndefined();
  });
});
