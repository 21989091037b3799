import { lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  InvalidOptionsError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  SafeGuardAdvisor,
  type Message,
  type SafeGuardAdvisorOptions,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const REFUSAL = 'I cannot discuss that.';

/** Sends `messages` (the last one as the new user text) through a guard; the answer text. */
async function ask(
  options: SafeGuardAdvisorOptions,
  ...messages: Message[]
): Promise<{ text: string; calls: number }> {
  const model = MockChatModel.script([{ text: 'Fine.' }]);
  const client = ChatClient.builder(model)
    .defaultAdvisors(new SafeGuardAdvisor({ failureResponse: REFUSAL, ...options }))
    .build();
  const history = messages.slice(0, -1);
  const last = messages[messages.length - 1];
  const prompt = client.prompt().messages(...history);
  const text = await lastValueFrom(
    (last?.role === 'user' ? prompt.user(last.content) : prompt).call().content(),
  );
  return { text, calls: model.calls };
}

const user = (content: string): Message => ({ role: 'user', content });
const refuses = async (
  words: string[],
  text: string,
  extra: Partial<SafeGuardAdvisorOptions> = {},
) => (await ask({ sensitiveWords: words, ...extra }, user(text))).text === REFUSAL;

describe('SafeGuardAdvisor', () => {
  it('refuses a sensitive new user message without calling the model', async () => {
    const model = MockChatModel.script([{ text: 'the password is hunter2' }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new SafeGuardAdvisor({ sensitiveWords: ['password'], failureResponse: REFUSAL }),
      )
      .build();
    const response = await lastValueFrom(
      client.prompt('What is the admin PASSWORD?').call().chatResponse(),
    );
    expect(response.text).toBe(REFUSAL);
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

  it('passes harmless messages to the model', async () => {
    expect(await ask({ sensitiveWords: ['password'] }, user('How do I reset it?'))).toEqual({
      text: 'Fine.',
      calls: 1,
    });
    expect(await ask({ sensitiveWords: [] }, user('password'))).toEqual({
      text: 'Fine.',
      calls: 1,
    });
  });

  describe('whole words', () => {
    it.each([
      ['How do I use a passport?', false],
      ['Is it a bypass?', false],
      ['pass_word and pass2', false],
      ['Can I pass?', true],
      ['(pass)', true],
      ['pass', true],
      ['«pass»—ok', true],
    ])('"pass" in %j: refused %s', async (text, refused) => {
      expect(await refuses(['pass'], text)).toBe(refused);
    });

    it('matches a phrase across any whitespace run, not across punctuation', async () => {
      expect(await refuses(['secret plan'], 'the secret\n\t plan')).toBe(true);
      expect(await refuses(['secret plan'], 'the secret-plan')).toBe(false);
    });

    it('keeps words that start or end with punctuation whole on the outside', async () => {
      expect(await refuses(['c++'], 'I write c++ daily')).toBe(true);
      expect(await refuses(['c++'], 'I write c++x daily')).toBe(false);
      expect(await refuses(['#tag'], 'see #tag.')).toBe(true);
    });

    it('finds a match however many words overlap it', async () => {
      const words = ['plan', 'secret plan', 'the secret plan b', 'a'];
      expect(await refuses(words, 'the secret planet')).toBe(false);
      expect(await refuses(words, 'my secret plan')).toBe(true);
    });
  });

  describe('normalization', () => {
    it.each([
      ['case', 'PassWord'],
      ['full case folding (ß = ss)', 'STRAẞE', 'straße'],
      ['compatibility forms (full-width letters)', 'ｐａｓｓｗｏｒｄ'],
      ['compatibility forms (ligatures)', 'ﬁle', 'file'],
      ['zero-width space', 'pass\u200Bword'],
      ['zero-width joiner and word joiner', 'p\u200Dass\u2060word'],
      ['soft hyphen', 'pass\u00ADword'],
      ['byte order mark', '\uFEFFpassword'],
      ['combining marks', 'pässwörd'],
      ['decomposed marks', 'pa\u0308ssword'],
      ['Greek final sigma and accents', 'ΛΌΓΟΣ', 'λόγος'],
    ])('%s: %j matches', async (_, text, word = 'password') => {
      expect(await refuses([word], `x ${text} y`)).toBe(true);
    });

    it('normalizes the word list the same way', async () => {
      expect(await refuses(['ＰＡＳＳ\u200Bword', 'Café'], 'password')).toBe(true);
      expect(await refuses(['Café'], 'un cafe noir')).toBe(true);
    });

    it('keeps combining marks significant with stripMarks: false', async () => {
      const options = { stripMarks: false };
      expect(await refuses(['password'], 'pässword', options)).toBe(false);
      expect(await refuses(['cafe'], 'un cafe\u0301 noir', options)).toBe(false);
      expect(await refuses(['café'], 'un cafe\u0301 noir', options)).toBe(true);
    });

    it('does not match look-alike letters from other scripts (documented limit)', async () => {
      // Cyrillic "а" (U+0430) in place of the Latin "a"
      expect(await refuses(['password'], 'p\u0430ssword')).toBe(false);
    });
  });

  describe('which messages are checked (scope)', () => {
    const history = [
      user('tell me the password'),
      { role: 'assistant', content: 'Sure, the password is…' } as Message,
      user('go on'),
    ];

    it('checks every user message by default, so a client cannot hide a word in history', async () => {
      expect(await ask({ sensitiveWords: ['password'] }, ...history)).toEqual({
        text: REFUSAL,
        calls: 0,
      });
    });

    it("'last-user' checks only the newest user message", async () => {
      const options = { sensitiveWords: ['password'], scope: 'last-user' } as const;
      expect((await ask(options, ...history)).text).toBe('Fine.');
      expect((await ask(options, user('ok'), user('the password?'))).text).toBe(REFUSAL);
    });

    it("'all-user' ignores assistant and system texts; 'all-messages' checks them", async () => {
      const messages = [
        { role: 'system', content: 'Never reveal the password.' } as Message,
        { role: 'assistant', content: 'The password is hunter2.' } as Message,
        user('go on'),
      ];
      expect((await ask({ sensitiveWords: ['password'] }, ...messages)).text).toBe('Fine.');
      const all = { sensitiveWords: ['password'], scope: 'all-messages' } as const;
      expect((await ask(all, ...messages)).text).toBe(REFUSAL);
    });

    it('does not see history loaded by the memory advisor (it runs before it)', async () => {
      const chatMemory = new MessageWindowChatMemory();
      await chatMemory.add('c1', [
        user('my password leaked'),
        { role: 'assistant', content: 'Sorry.' },
      ]);
      const model = MockChatModel.script([{ text: 'Sure.' }]);
      const client = ChatClient.builder(model)
        .defaultAdvisors(
          new MessageChatMemoryAdvisor({ chatMemory }),
          new SafeGuardAdvisor({ sensitiveWords: ['password'] }),
        )
        .defaultAdvisorParams({ conversationId: 'c1' })
        .build();
      expect(await lastValueFrom(client.prompt('Anything else?').call().content())).toBe('Sure.');
      expect(model.requests[0]?.messages).toHaveLength(3);
    });
  });

  it('checks a 100 KB message against 10,000 words (linear matching)', async () => {
    const words = Array.from({ length: 10_000 }, (_, i) => `word${i.toString(36)}x`);
    const filler = 'lorem ipsum dolor sit amet '.repeat(3_800);
    expect(filler.length).toBeGreaterThan(100_000);
    expect(await refuses(words, filler)).toBe(false);
    expect(await refuses(words, `${filler} ${words[9_999]}.`)).toBe(true);
  });

  it('validates its options', () => {
    const bad: [unknown, string][] = [
      [{ sensitiveWords: [''] }, 'sensitiveWords'],
      [{ sensitiveWords: [' \u200B\u00AD '] }, 'sensitiveWords[0]'],
      [{ sensitiveWords: ['\u0301'] }, 'sensitiveWords[0]'],
      [{}, 'sensitiveWords'],
      [undefined, 'sensitiveWords'],
      [{ sensitiveWords: 'password' }, 'sensitiveWords'],
      [{ sensitiveWords: ['a'], scope: 'everything' }, 'scope'],
      [{ sensitiveWords: ['a'], stripMarks: 'yes' }, 'stripMarks'],
      [{ sensitiveWords: ['a'], order: 1.5 }, 'order'],
      [{ sensitiveWords: ['a'], name: '' }, 'name'],
      [{ sensitiveWords: ['a'], failureResponse: 42 }, 'failureResponse'],
    ];
    for (const [options, option] of bad) {
      let error: unknown;
      try {
        new SafeGuardAdvisor(options as SafeGuardAdvisorOptions);
      } catch (caught) {
        error = caught;
      }
      expect(InvalidOptionsError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ option });
    }
    const guard = new SafeGuardAdvisor({
      sensitiveWords: ['a'],
      order: undefined,
    } as unknown as SafeGuardAdvisorOptions);
    expect([guard.name, guard.order]).toEqual(['safe-guard', -2147483648 + 100]);
  });
});
