import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient, InvalidOptionsError, Order, ReReadingAdvisor } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

describe('ReReadingAdvisor', () => {
  it('repeats the last user message with the RE2 wording, leaving history alone', async () => {
    const model = MockChatModel.script([{ text: 'Three.' }]);
    const client = ChatClient.builder(model).defaultAdvisors(new ReReadingAdvisor()).build();
    const text = await lastValueFrom(
      client
        .prompt()
        .system('Be brief.')
        .messages(
          { role: 'user', content: 'Earlier question' },
          { role: 'assistant', content: 'Earlier answer' },
        )
        .user('How many r in strawberry?')
        .call()
        .content(),
    );
    expect(text).toBe('Three.');
    expect(model.requests[0]?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Earlier question' },
      { role: 'assistant', content: 'Earlier answer' },
      {
        role: 'user',
        content: 'How many r in strawberry?\nRead the question again: How many r in strawberry?',
      },
    ]);
  });

  it('takes a template; special replacement patterns in the question stay literal', async () => {
    const model = MockChatModel.script([{ text: 'ok' }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new ReReadingAdvisor({ template: '{input} | again: {input}' }))
      .build();
    await lastValueFrom(client.prompt("cost $& or $'?").call().content());
    expect(model.requests[0]?.messages.at(-1)?.content).toBe(
      "cost $& or $'? | again: cost $& or $'?",
    );
  });

  it('passes a request without a user message and the stream unchanged', async () => {
    const model = MockChatModel.script([{ text: 'a b' }]);
    const client = ChatClient.builder(model).defaultAdvisors(new ReReadingAdvisor()).build();
    const chunks = await lastValueFrom(
      client.prompt().system('Only system.').stream().chunks().pipe(toArray()),
    );
    expect(model.requests[0]?.messages).toEqual([{ role: 'system', content: 'Only system.' }]);
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => c.text)).toEqual(['a', ' b']);
  });

  it('propagates a model error', async () => {
    const model = MockChatModel.script([{ text: 'x', error: new Error('boom') }]);
    const client = ChatClient.builder(model).defaultAdvisors(new ReReadingAdvisor()).build();
    await expect(lastValueFrom(client.prompt('q').call().content())).rejects.toThrow('boom');
  });

  it('validates its options and defaults to Order.RE_READING', () => {
    expect(() => new ReReadingAdvisor({ template: 'no slot' })).toThrow(InvalidOptionsError);
    expect(() => new ReReadingAdvisor({ name: '' })).toThrow(InvalidOptionsError);
    expect(new ReReadingAdvisor().order).toBe(Order.RE_READING);
    expect(Order.RE_READING).toBeGreaterThan(Order.QUESTION_ANSWER);
  });
});
