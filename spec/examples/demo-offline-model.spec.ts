import { lastValueFrom, map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import {
  ChatClient,
  ChatRequest,
  InvalidOptionsError,
  ToolCallingAdvisor,
  type ChatChunk,
} from '../../lib/index';
import { createGetTimeTool } from '../../examples/demo/get-time-tool';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { offlineReply } from '../../examples/demo/offline-reply';
import { createUsersRegisteredOnTool } from '../../examples/demo/users-registered-on-tool';
import { FIXED_NOW } from './demo-test-kit';

const tools = [createGetTimeTool({ now: () => FIXED_NOW }), createUsersRegisteredOnTool()];

function client(model = new OfflineDemoModel({ interval: 0, firstChunkDelay: 0 })) {
  return ChatClient.builder(model)
    .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
    .defaultTools(...tools)
    .build();
}

async function chunksOf(text: string): Promise<ChatChunk[]> {
  return lastValueFrom(client().prompt(text).stream().chunks().pipe(toArray()));
}

function textOf(chunks: ChatChunk[]): string {
  return chunks.map((c) => (c.type === 'text-delta' ? c.text : '')).join('');
}

describe('OfflineDemoModel, driving the real tool loop', () => {
  it('asks for getTime per city, in the order written, then answers from the results', async () => {
    const chunks = await chunksOf('What time is it in Tokyo and Paris?');
    const calls = chunks.filter((c) => c.type === 'tool-call');
    expect(calls.map((c) => c.type === 'tool-call' && c.arguments)).toEqual([
      '{"city":"Tokyo"}',
      '{"city":"Paris"}',
    ]);
    expect(textOf(chunks)).toBe(
      '(offline demo model) It is 21:30 on Monday 2024-01-15 in Tokyo (Asia/Tokyo). It is 13:30 on Monday 2024-01-15 in Paris (Europe/Paris).',
    );
    expect(chunks.filter((c) => c.type === 'text-delta').length).toBeGreaterThan(10);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('asks for the users of each date and lists them', async () => {
    const chunks = await chunksOf(
      'Which users registered on 2024-05-01 or signed up on 1999-01-01?',
    );
    expect(textOf(chunks)).toBe(
      '(offline demo model) 2 users registered on 2024-05-01: Ada Lovelace, Alan Turing. Nobody registered on 1999-01-01.',
    );
  });

  it('calls both tools in one round when asked both things', async () => {
    const chunks = await chunksOf('What time is it in Lisbon, and who joined on 2024-07-20?');
    const names = chunks.flatMap((c) => (c.type === 'tool-call' ? [c.name] : []));
    expect(names).toEqual(['getTime', 'usersRegisteredOn']);
    expect(chunks.filter((c) => c.type === 'round-start')).toHaveLength(2);
    expect(textOf(chunks)).toContain('1 user registered on 2024-07-20: Frances Allen.');
  });

  it('passes an unknown place to the tool and reports its error', async () => {
    const chunks = await chunksOf('What time is it in Atlantis?');
    const result = chunks.find((c) => c.type === 'tool-result');
    expect(result).toMatchObject({ name: 'getTime', isError: true });
    expect(textOf(chunks)).toBe(
      '(offline demo model) Sorry, that did not work. The tool "getTime" failed: Unknown city "Atlantis".',
    );
  });

  it('calls no tool that the request does not offer', async () => {
    const model = new OfflineDemoModel({ interval: 0, firstChunkDelay: 0 });
    const chunks = await lastValueFrom(
      ChatClient.create(model)
        .prompt('What time is it in Paris?')
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    expect(chunks.some((c) => c.type === 'tool-call')).toBe(false);
    expect(textOf(chunks)).toMatch(
      /^\(offline demo model\) I am an offline stand-in: no OPENAI_API_KEY/,
    );
  });

  it('answers from the conversation it is given (what memory supplies)', async () => {
    const model = new OfflineDemoModel({ interval: 0, firstChunkDelay: 0 });
    const answer = (messages: ChatRequest['messages']) =>
      lastValueFrom(
        ChatClient.create(model)
          .prompt()
          .messages(...messages)
          .call()
          .content(),
      );
    expect(
      await answer([
        { role: 'user', content: 'Hi, my name is Grace.' },
        { role: 'assistant', content: 'Nice to meet you.' },
        { role: 'user', content: "What's my name?" },
      ]),
    ).toBe('(offline demo model) Your name is Grace: you told me earlier in this session.');
    expect(await answer([{ role: 'user', content: 'Who am I?' }])).toContain(
      'You have not told me your name',
    );
    expect(
      await answer([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'hello' },
      ]),
    ).toContain('I remember 1 earlier message of yours in this session.');
  });

  it('reports an estimated usage, summed over rounds by the loop', async () => {
    const chunks = await chunksOf('What time is it in Paris?');
    const usage = chunks.find((c) => c.type === 'usage');
    expect(usage?.type === 'usage' && usage.usage).toEqual({
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
      totalTokens: expect.any(Number),
    });
    if (usage?.type !== 'usage') throw new Error('no usage');
    expect(usage.usage.totalTokens).toBe(usage.usage.inputTokens! + usage.usage.outputTokens!);
    expect(chunks.find((c) => c.type === 'metadata')).toMatchObject({
      rounds: 2,
      model: 'offline-demo',
    });
  });

  it('paces its chunks on RxJS time: first-chunk delay, then one delta per interval', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    testScheduler.run(({ expectObservable }) => {
      const model = new OfflineDemoModel({ firstChunkDelay: 3, interval: 2 });
      const request = ChatRequest.create({
        messages: [{ role: 'user', content: 'My name is Ada' }],
      });
      const words = offlineReplyWords(request);
      // metadata at frame 3, each word 2 frames after the one before, usage and finish with the last.
      const expected = '---m' + '-w'.repeat(words.length - 1) + '-(wuf|)';
      expectObservable(model.stream(request).pipe(map((chunk) => chunk.type))).toBe(expected, {
        m: 'metadata',
        w: 'text-delta',
        u: 'usage',
        f: 'finish',
      });
    });
  });

  it('rejects bad pacing options with InvalidOptionsError', () => {
    expect(() => new OfflineDemoModel({ interval: -1 })).toThrow(InvalidOptionsError);
    expect(() => new OfflineDemoModel({ firstChunkDelay: Number.NaN })).toThrow(
      /Invalid option "firstChunkDelay"/,
    );
  });

  it('is cold: nothing is worked out before subscription, each subscription is one call', async () => {
    const model = new OfflineDemoModel({ interval: 0, firstChunkDelay: 0 });
    const request = ChatRequest.create({ messages: [{ role: 'user', content: 'hello' }] });
    const stream$ = model.stream(request);
    const [a, b] = await Promise.all([
      lastValueFrom(stream$.pipe(toArray())),
      lastValueFrom(stream$.pipe(toArray())),
    ]);
    const idOf = (chunks: ChatChunk[]) => chunks.find((c) => c.type === 'metadata');
    expect(idOf(a)).not.toEqual(idOf(b)); // a fresh response id per call
    expect(textOf(a)).toBe(textOf(b));
  });
});

function offlineReplyWords(request: ChatRequest): string[] {
  const reply = offlineReply(request);
  if (reply.kind !== 'text') throw new Error('expected a text reply');
  return reply.text.match(/\S+\s*/g) ?? [];
}
