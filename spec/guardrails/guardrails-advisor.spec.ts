import { lastValueFrom, Observable, of, toArray } from 'rxjs';
import { ChatClient, tool, type ChatChunk } from '../../lib/index';
import {
  GuardrailsAdvisor,
  GuardrailTrippedError,
  wordGuardrail,
  type GuardrailsAdvisorOptions,
  type InputGuardrail,
} from '../../lib/guardrails/index';
import { MockChatModel } from '../../lib/testing/index';

const texts = (chunks: readonly ChatChunk[]) =>
  chunks.flatMap((c) => (c.type === 'text-delta' ? [c.text] : []));

function client(model: MockChatModel, options: GuardrailsAdvisorOptions) {
  return ChatClient.builder(model).defaultAdvisors(new GuardrailsAdvisor(options)).build();
}

const codeNames = wordGuardrail({
  name: 'code-names',
  words: ['project zebra'],
  message: 'Withheld.',
});

describe('GuardrailsAdvisor', () => {
  it('passes an answer that trips nothing, whole and in order', async () => {
    const model = MockChatModel.script([{ text: ['The ', 'zebra ', 'project ', 'is fine.'] }]);
    const chunks = await lastValueFrom(
      client(model, { input: [codeNames], output: [codeNames] })
        .prompt('Tell me about zebras')
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    expect(texts(chunks).join('')).toBe('The zebra project is fine.');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('stops a request that trips an input guardrail: the safe message, finish content-filter', async () => {
    const model = MockChatModel.script([{ text: 'It is a secret.' }]);
    const response = await lastValueFrom(
      client(model, { input: [codeNames] })
        .prompt('What is Project  ZEBRA?')
        .call()
        .chatResponse(),
    );
    expect(response.text).toBe('Withheld.');
    expect(response.finishReason).toBe('content-filter');
    // A synchronous guardrail decides before the model is subscribed.
    expect(model.calls).toBe(0);
  });

  it('withdraws the partial answer when the output trips, and never sends the phrase', async () => {
    const model = MockChatModel.script([
      { text: ['Our ', 'next ', 'launch ', 'is ', 'proj', 'ect ze', 'bra, ', 'soon.'] },
    ]);
    const chunks = await lastValueFrom(
      client(model, { output: [codeNames] })
        .prompt('What is next?')
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    const sent = texts(chunks);
    const tripIndex = chunks.findIndex((c) => c.type === 'guardrail-tripped');
    expect(chunks[tripIndex]).toEqual({
      type: 'guardrail-tripped',
      guardrail: 'code-names',
      stage: 'output',
      message: 'Withheld.',
      withdraw: true,
    });
    const before = texts(chunks.slice(0, tripIndex)).join('');
    expect(before.length).toBeGreaterThan(0);
    expect(before).not.toMatch(/p/);
    expect(sent.at(-1)).toBe('Withheld.');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'content-filter' });
    const response = await lastValueFrom(
      client(MockChatModel.script([{ text: ['Our ', 'proj', 'ect ze', 'bra'] }]), {
        output: [codeNames],
      })
        .prompt('x')
        .call()
        .chatResponse(),
    );
    expect(response.text).toBe('Withheld.');
  });

  it("fails with GuardrailTrippedError under onTrip: 'error'", async () => {
    const model = MockChatModel.script([{ text: 'project zebra' }]);
    const error: unknown = await lastValueFrom(
      client(model, { output: [codeNames], onTrip: 'error' })
        .prompt('x')
        .stream()
        .content(),
    ).catch((e: unknown) => e);
    expect(GuardrailTrippedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      guardrail: 'code-names',
      stage: 'output',
      safeMessage: 'Withheld.',
    });
  });

  it('runs an asynchronous input check alongside the model, and aborts the model on a trip', async () => {
    let aborted = false;
    const model = MockChatModel.respond(
      () =>
        new Observable<ChatChunk>((subscriber) => {
          subscriber.next({ type: 'text-delta', text: 'Sure: ' });
          return () => (aborted = true);
        }),
    );
    const slow: InputGuardrail = {
      name: 'moderation',
      checkInput: () =>
        new Promise((resolve) =>
          setTimeout(() => resolve({ tripped: true, message: 'Not here.', reason: 'flagged' }), 5),
        ),
    };
    const trips: GuardrailTrippedError[] = [];
    const chunks = await lastValueFrom(
      client(model, { input: [slow], onTripped: (trip) => trips.push(trip) })
        .prompt('hello')
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    expect(model.calls).toBe(1);
    expect(aborted).toBe(true);
    expect(texts(chunks)).toEqual(['Not here.']);
    expect(trips.map((t) => [t.guardrail, t.reason])).toEqual([['moderation', 'flagged']]);
  });

  it('runs no tool before the input guardrails pass', async () => {
    const runs: string[] = [];
    const getTime = tool({
      name: 'getTime',
      description: 'time',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => {
        runs.push('getTime');
        return '12:00';
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: {} }] },
      { text: 'Noon.' },
    ]);
    const tripping: InputGuardrail = {
      name: 'late',
      checkInput: () => new Promise((resolve) => setTimeout(() => resolve({ tripped: true }), 5)),
    };
    const text = await lastValueFrom(
      client(model, { input: [tripping] })
        .prompt('time?')
        .tools(getTime)
        .call()
        .content(),
    );
    expect(runs).toEqual([]);
    expect(text).toBe('Sorry, I cannot help with that.');
    const passing: InputGuardrail = { name: 'ok', checkInput: () => of({ tripped: false }) };
    const model2 = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: {} }] },
      { text: 'Noon.' },
    ]);
    expect(
      await lastValueFrom(
        client(model2, { input: [passing] })
          .prompt('time?')
          .tools(getTime)
          .call()
          .content(),
      ),
    ).toBe('Noon.');
    expect(runs).toEqual(['getTime']);
  });
});
