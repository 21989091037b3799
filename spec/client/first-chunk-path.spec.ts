import { lastValueFrom, Observable, Subject, take, takeUntil, toArray } from 'rxjs';
import {
  advisor,
  ChatClient,
  InvalidOptionsError,
  ToolCallingAdvisor,
  ToolNotFoundError,
  type Advisor,
  type AdvisorChain,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { CallInterceptors } from '../../lib/advisor-api/index';

// The first-chunk path of a plain call (issue 32, point 3) shares a chain per client, lets
// the no-tools guard subscribe its chain with no Observable of its own and builds the call
// inside `content()`'s subscription. What is shared must hold no call's state.

const text = (value: string): ChatChunk => ({ type: 'text-delta', text: value });
const toolCall: ChatChunk = { type: 'tool-call', id: 'c1', name: 'lookup', arguments: '{}' };
const stop: ChatChunk = { type: 'finish', reason: 'stop' };

/** A model whose every call streams what the test pushes into that call's Subject. */
function pushedModel(): { model: MockChatModel; calls: Subject<ChatChunk>[]; left: number[] } {
  const calls: Subject<ChatChunk>[] = [];
  const left: number[] = [];
  const model = MockChatModel.respond((_request, call) => {
    const subject = new Subject<ChatChunk>();
    calls.push(subject);
    return new Observable<ChatChunk>((subscriber) => {
      const subscription = subject.subscribe(subscriber);
      return () => {
        left.push(call);
        subscription.unsubscribe();
      };
    });
  });
  return { model, calls, left };
}

function record(content$: Observable<unknown>): {
  seen: unknown[];
  error: unknown[];
  done: boolean[];
} {
  const log = { seen: [] as unknown[], error: [] as unknown[], done: [] as boolean[] };
  content$.subscribe({
    next: (delta) => log.seen.push(delta),
    error: (error: unknown) => log.error.push(error),
    complete: () => log.done.push(true),
  });
  return log;
}

describe('ChatClient: the first-chunk path', () => {
  it('builds the request at subscription, a new one (with its own context) per subscription', async () => {
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    const content$ = ChatClient.create(model).prompt('Hi').stream().content();
    expect(model.calls).toBe(0);
    expect(await lastValueFrom(content$.pipe(toArray()))).toEqual(['a']);
    expect(await lastValueFrom(content$.pipe(toArray()))).toEqual(['b']);
    const [first, second] = model.requests;
    expect(first).not.toBe(second);
    expect(first?.context).not.toBe(second?.context);
  });

  it('runs two calls at once on the shared chain, each with its own guard state', () => {
    const chains: AdvisorChain[] = [];
    const spy: Advisor = {
      name: 'spy',
      order: 0,
      advise: (request, chain) => {
        chains.push(chain);
        return chain.next(request);
      },
    };
    const { model, calls, left } = pushedModel();
    const client = ChatClient.builder(model).defaultAdvisors(spy).build();
    const a = record(client.prompt('A').stream().content());
    const b = record(client.prompt('B').stream().content());
    expect(chains).toHaveLength(2);
    expect(chains[0]).toBe(chains[1]);
    calls[0]?.next(text('a1'));
    calls[1]?.next(text('b1'));
    calls[1]?.next(toolCall);
    calls[0]?.next(text('a2'));
    calls[0]?.next(stop);
    calls[0]?.complete();
    expect(b.seen).toEqual(['b1']);
    expect(b.error[0]).toBeInstanceOf(ToolNotFoundError);
    expect(a).toEqual({ seen: ['a1', 'a2'], error: [], done: [true] });
    expect(left.sort()).toEqual([1, 2]);
  });

  it.each([
    ['stream().content()', (client: ChatClient) => client.prompt('Hi').stream().content()],
    ['stream().chunks()', (client: ChatClient) => client.prompt('Hi').stream().chunks()],
    ['call().content()', (client: ChatClient) => client.prompt('Hi').call().content()],
  ] as const)('fails %s at a tool call and leaves the model call', (_name, call) => {
    const { model, calls, left } = pushedModel();
    const log = record(call(ChatClient.create(model)));
    calls[0]?.next(text('x'));
    expect(left).toEqual([]);
    calls[0]?.next(toolCall);
    expect(log.error[0]).toBeInstanceOf(ToolNotFoundError);
    expect(left).toEqual([1]);
    expect(calls[0]?.observed).toBe(false);
  });

  it('passes a tool call over in content() when the call handles tool calls itself', () => {
    const { model, calls } = pushedModel();
    const log = record(
      ChatClient.create(model)
        .prompt('Hi')
        .advisorParams({ toolCallingAdvisorAutoRegister: false })
        .stream()
        .content(),
    );
    calls[0]?.next(toolCall);
    calls[0]?.next(text('after'));
    calls[0]?.complete();
    expect(log).toEqual({ seen: ['after'], error: [], done: [true] });
  });

  it('leaves the model call when a plain call is unsubscribed', () => {
    const { model, calls, left } = pushedModel();
    const subscription = ChatClient.create(model).prompt('Hi').stream().content().subscribe();
    expect(calls[0]?.observed).toBe(true);
    subscription.unsubscribe();
    expect(left).toEqual([1]);
    expect(calls[0]?.observed).toBe(false);
  });

  it('runs a call its own advisors once, then the next plain call without them', async () => {
    const ran: string[] = [];
    const named = (name: string, order: number): Advisor =>
      advisor({ name, order, before: (request) => (ran.push(name), request) });
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const client = ChatClient.builder(model).defaultAdvisors(named('default', 0)).build();
    await lastValueFrom(client.prompt('Hi').advisors(named('own', 1)).stream().content());
    await lastValueFrom(client.prompt('Hi').stream().content());
    await lastValueFrom(client.prompt('Hi').advisors(named('other', 1)).call().content());
    expect(ran).toEqual(['default', 'own', 'default', 'default', 'other']);
  });

  it('fails every call of a client with two tool loops (nothing is kept of a failed call)', async () => {
    const model = MockChatModel.script([{ text: 'a' }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor(), new ToolCallingAdvisor())
      .build();
    for (let i = 0; i < 2; i++) {
      await expect(lastValueFrom(client.prompt('Hi').stream().content())).rejects.toThrow(
        InvalidOptionsError,
      );
    }
    expect(model.calls).toBe(0);
  });

  it('runs a model-call interceptor an advisor registers in a call that sets no params', async () => {
    // The end of the chain skips the interceptor lookup for an empty context only: here the
    // context is empty when the call starts and holds the registry by the model call.
    const seen: string[] = [];
    const key = Symbol('spy');
    const registering = advisor({
      name: 'Registering',
      order: 0,
      before: (request) => {
        CallInterceptors.of(request.context).onModelCall(key, (call, proceed) => {
          seen.push(call.request.lastUserText ?? '');
          return proceed(call.request);
        });
        return request;
      },
    });
    const model = MockChatModel.script([{ text: 'a' }]);
    const client = ChatClient.builder(model).defaultAdvisors(registering).build();
    expect(await lastValueFrom(client.prompt('Hi').stream().content())).toBe('a');
    expect(seen).toEqual(['Hi']);
  });

  it('drops what a model emits after its stream ended (content() is stopped)', () => {
    const model = MockChatModel.respond(
      () =>
        new Observable<ChatChunk>((subscriber) => {
          subscriber.next(text('a'));
          subscriber.complete();
          // eslint-disable-next-line rxjs-x/no-redundant-notify -- the misbehaving model under test
          subscriber.next(text('late'));
        }),
    );
    const log = record(ChatClient.create(model).prompt('Hi').stream().content());
    expect(log).toEqual({ seen: ['a'], error: [], done: [true] });
  });

  it('starts one call per subscription of each content() Observable, run side by side', () => {
    const { model, calls } = pushedModel();
    const client = ChatClient.create(model);
    const a$ = client.prompt('A').stream().content();
    const b$ = client.prompt('B').stream().content();
    const logs = [record(a$), record(b$), record(a$)];
    calls.forEach((call, i) => call.next(text(`to ${i}`)));
    expect(model.requests.map((request) => request.lastUserText)).toEqual(['A', 'B', 'A']);
    expect(logs.map((log) => log.seen)).toEqual([['to 0'], ['to 1'], ['to 2']]);
  });

  /** A model that emits synchronously until its subscriber is closed (at most 1,000). */
  function endlessModel(before?: () => void): { model: MockChatModel; sent: number[] } {
    const sent = [0];
    const model = MockChatModel.respond(
      () =>
        new Observable<ChatChunk>((subscriber) => {
          before?.();
          while (!subscriber.closed && (sent[0] ?? 0) < 1000) {
            sent[0] = (sent[0] ?? 0) + 1;
            subscriber.next(text('x'));
          }
        }),
    );
    return { model, sent };
  }

  it('stops a synchronous model as soon as the consumer of content() unsubscribes', () => {
    const { model, sent } = endlessModel();
    const log = record(ChatClient.create(model).prompt('Hi').stream().content().pipe(take(2)));
    expect(log).toEqual({ seen: ['x', 'x'], error: [], done: [true] });
    expect(sent[0]).toBe(2);
  });

  it('stops a synchronous model at its next chunk when the consumer is stopped from outside', () => {
    const stop$ = new Subject<void>();
    const { model, sent } = endlessModel(() => stop$.next());
    const log = record(
      ChatClient.create(model).prompt('Hi').stream().content().pipe(takeUntil(stop$)),
    );
    expect(log).toEqual({ seen: [], error: [], done: [true] });
    // Not linked while the model's subscribe runs: one chunk reaches the layer, none the consumer.
    expect(sent[0]).toBe(1);
  });
});
