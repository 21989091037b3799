import { type TestScheduler } from 'rxjs/testing';
import {
  ChatRequest,
  createAdvisorChain,
  MessageChatMemoryAdvisor,
  Order,
  tool,
  ToolCallingAdvisor,
  type ChatChunk,
  type ChatMemory,
  type Message,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { VirtualChatMemory } from './support/virtual-chat-memory';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const values = { a: t('Hel'), b: t('lo'), f: FINISH };
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

function run(model: MockChatModel, chatMemory: ChatMemory, text = 'Hi') {
  const chain = createAdvisorChain({
    advisors: [new MessageChatMemoryAdvisor({ chatMemory })],
    model,
  });
  return chain.next(
    ChatRequest.create({ messages: [user(text)], context: new Map([['conversationId', 'c1']]) }),
  );
}

describe('MessageChatMemoryAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('calls the model once the history is loaded, passes chunks on their own frames, completes once saved', () => {
    const memory = new VirtualChatMemory(2);
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-b-(f|)', values);
      // load: frames 0-2; model: 2-7; save: 7-9
      expectObservable(run(MockChatModel.fromStreams([model$]), memory)).toBe('---a-b-f-|', values);
      expectSubscriptions(model$.subscriptions).toBe('--^----!');
    });
    expect(memory.writes).toEqual([[user('Hi'), assistant('Hello')]]);
  });

  it('saves the user message alone and rethrows when the source errors', () => {
    const memory = new VirtualChatMemory();
    const error = new Error('boom');
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-#', values, error);
      expectObservable(run(MockChatModel.fromStreams([model$]), memory)).toBe(
        '-a-#',
        values,
        error,
      );
      expectSubscriptions(model$.subscriptions).toBe('^--!');
    });
    expect(memory.writes).toEqual([[user('Hi')]]);
  });

  it('errors at once, without calling the model, when the memory throws', () => {
    const error = new Error('no memory');
    const broken: ChatMemory = {
      get: () => {
        throw error;
      },
      add: () => Promise.resolve(),
      clear: () => Promise.resolve(),
    };
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-b-(f|)', values);
      expectObservable(run(MockChatModel.fromStreams([model$]), broken)).toBe(
        '#',
        undefined,
        error,
      );
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it('completes with nothing but stores the user message when the source is empty', () => {
    const memory = new VirtualChatMemory();
    testScheduler.run(({ cold, expectObservable }) => {
      const model$ = cold<ChatChunk>('|');
      expectObservable(run(MockChatModel.fromStreams([model$]), memory)).toBe('|');
    });
    expect(memory.conversations.get('c1')).toEqual([user('Hi')]);
  });

  it('tears the model call down on early unsubscription and keeps the user message only', () => {
    const memory = new VirtualChatMemory(1);
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-b-(f|)', values);
      expectObservable(run(MockChatModel.fromStreams([model$]), memory), '^---!').toBe(
        '--a-',
        values,
      );
      expectSubscriptions(model$.subscriptions).toBe('-^--!');
    });
    expect(memory.conversations.get('c1')).toEqual([user('Hi')]);
  });

  it('runs each subscription as its own turn; the second sees the first', () => {
    const memory = new VirtualChatMemory();
    const turn1 = { a: t('one'), f: FINISH };
    const turn2 = { b: t('two'), f: FINISH };
    let model!: MockChatModel;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first$ = cold('-a(f|)', turn1);
      const second$ = cold('-b(f|)', turn2);
      model = MockChatModel.fromStreams([first$, second$]);
      const result$ = run(model, memory, 'again');
      expectObservable(result$).toBe('-a(f|)', turn1);
      expectObservable(result$, '-----^').toBe('------b(f|)', turn2);
      expectSubscriptions(first$.subscriptions).toBe('^-!');
      expectSubscriptions(second$.subscriptions).toBe('-----^-!');
    });
    expect(model.requests[1]?.messages).toEqual([user('again'), assistant('one'), user('again')]);
    expect(memory.conversations.get('c1')).toEqual([
      user('again'),
      assistant('one'),
      user('again'),
      assistant('two'),
    ]);
  });

  it('inside the tool loop: each round loads, streams and saves before the next starts', () => {
    const memory = new VirtualChatMemory(2);
    const getTime = tool({
      name: 'getTime',
      description: 'The time in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      execute: () => 'noon',
    });
    const call: ChatChunk = { type: 'tool-call', id: 't1', name: 'getTime', arguments: '{}' };
    const toolCalls: ChatChunk = { type: 'finish', reason: 'tool-calls' };
    const final: Record<string, ChatChunk> = {
      a: t('Noon.'),
      m: { type: 'metadata', rounds: 2 },
      u: {
        type: 'usage',
        usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
      },
      f: FINISH,
    };
    let model!: MockChatModel;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1$ = cold('-(cf|)', { c: call, f: toolCalls });
      const round2$ = cold('-a(f|)', final);
      model = MockChatModel.fromStreams([round1$, round2$]);
      const chain = createAdvisorChain({
        advisors: [
          new MessageChatMemoryAdvisor({ chatMemory: memory, order: Order.TOOL_CALLING + 10 }),
          new ToolCallingAdvisor({ conversationHistory: false }),
        ],
        model,
      });
      const request = ChatRequest.create({
        messages: [user('Time?')],
        tools: [getTime],
        context: new Map([['conversationId', 'c1']]),
      });
      // round 1: load 0-2, model 2-3, save 3-5; round 2: load 5-7, model 7-9, save 9-11
      expectObservable(chain.next(request)).toBe('--------a--(muf|)', final);
      expectSubscriptions(round1$.subscriptions).toBe('--^!');
      expectSubscriptions(round2$.subscriptions).toBe('-------^-!');
    });
    const callMessage: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 't1', name: 'getTime', arguments: '{}' }],
    };
    const result: Message = { role: 'tool', toolCallId: 't1', name: 'getTime', content: 'noon' };
    expect(memory.writes).toEqual([
      [user('Time?'), callMessage],
      [result, assistant('Noon.')],
    ]);
    expect(model.requests[1]?.messages).toEqual([user('Time?'), callMessage, result]);
  });
});
