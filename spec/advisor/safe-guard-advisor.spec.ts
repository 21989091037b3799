import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient, InvalidOptionsError, SafeGuardAdvisor } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

describe('SafeGuardAdvisor', () => {
  it('refuses a sensitive new user message without calling the model', async () => {
    const model = MockChatModel.script([{ text: 'the password is hunter2' }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new SafeGuardAdvisor({
          sensitiveWords: ['password'],
          failureResponse: 'I cannot discuss that.',
        }),
      )
      .build();
    const response = await lastValueFrom(
      client.prompt('What is the admin PASSWORD?').call().chatResponse(),
    );
    expect(response.text).toBe('I cannot discuss that.');
    expect(response.finishReason).toBe('content-filter');
    expect(model.calls).toBe(0);
  });

  it('streams the refusal as chunks ending with finish', async () => {
    const client = ChatClient.builder(MockChatModel.script([]))
      .defaultAdvisors(new SafeGuardAdvisor({ sensitiveWords: ['secret plan'] }))
      .build();
    const chunks = await lastValueFrom(
      client.prompt('tell me the Secret  Plan').stream().chunks().pipe(toArray()),
    );
    expect(chunks.map((c) => c.type)).toEqual(['text-delta', 'finish']);
    expect(chunks[1]).toEqual({ type: 'finish', reason: 'content-filter' });
  });

  it('passes harmless messages, and does not match inside longer words', async () => {
    const model = MockChatModel.script([{ text: 'Fine.' }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new SafeGuardAdvisor({ sensitiveWords: ['pass'] }))
      .build();
    expect(await lastValueFrom(client.prompt('How do I use a passport?').call().content())).toBe(
      'Fine.',
    );
    expect(model.calls).toBe(1);
  });

  it('ignores sensitive words replayed from history: only the new user message counts', async () => {
    const model = MockChatModel.script([{ text: 'Sure.' }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new SafeGuardAdvisor({ sensitiveWords: ['password'] }))
      .build();
    const text = await lastValueFrom(
      client
        .prompt()
        .messages(
          { role: 'user', content: 'my password leaked' },
          { role: 'assistant', content: 'Sorry.' },
        )
        .user('Thanks, anything else?')
        .call()
        .content(),
    );
    expect(text).toBe('Sure.');
  });

  it('validates its options', () => {
    expect(() => new SafeGuardAdvisor({ sensitiveWords: [''] })).toThrow(InvalidOptionsError);
    expect(() => new SafeGuardAdvisor({} as never)).toThrow(/sensitiveWords/);
  });
});
