import { EMPTY, firstValueFrom, lastValueFrom, toArray, type Observable } from 'rxjs';
import { z } from 'zod';
import {
  ChatClient,
  EntityParseError,
  formatInstructions,
  InvalidOptionsError,
  Order,
  ProviderError,
  StructuredOutputError,
  StructuredOutputValidationAdvisor,
  typedJsonSchema,
  type ChatChunk,
  type UserMessage,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const person = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer', minimum: 0 },
    address: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name', 'age'],
  additionalProperties: false,
} as const;

function clientFor(
  model: MockChatModel,
  options: Partial<ConstructorParameters<typeof StructuredOutputValidationAdvisor>[0]> = {},
) {
  return ChatClient.builder(model)
    .defaultAdvisors(new StructuredOutputValidationAdvisor({ outputSchema: person, ...options }))
    .build();
}

function textOf(message: { content: string } | undefined): string {
  return message?.content ?? '';
}

describe('StructuredOutputValidationAdvisor', () => {
  it('defaults to order HIGHEST_PRECEDENCE + 250 and a readable name', () => {
    const advisor = new StructuredOutputValidationAdvisor({ outputSchema: person });
    expect(advisor.order).toBe(Order.HIGHEST_PRECEDENCE + 250);
    expect(advisor.order).toBe(Order.STRUCTURED_OUTPUT);
    expect(advisor.name).toBe('structured-output-validation');
  });

  it('makes one model call when the first answer is valid', async () => {
    const model = MockChatModel.script([{ text: '{"name": "Ada", "age": 36}' }]);
    const entity = await firstValueFrom(
      clientFor(model).prompt('Invent a person').call().entity(person),
    );
    expect(entity).toEqual({ name: 'Ada', age: 36 });
    expect(model.calls).toBe(1);
  });

  it('adds format instructions carrying the schema as a system message after the system text', async () => {
    const model = MockChatModel.script([{ text: '{"name": "Ada", "age": 36}' }]);
    await lastValueFrom(
      clientFor(model).prompt().system('Be brief.').user('Invent a person').call().content(),
    );
    const messages = model.requests[0].messages;
    expect(messages.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(messages[0].content).toBe('Be brief.');
    expect(messages[1].content).toContain('"additionalProperties": false');
    expect(messages[1].content).toContain('JSON Schema');
    expect(messages[2].content).toBe('Invent a person');
  });

  it('retries once with the errors when the first answer is invalid, keeping the original messages', async () => {
    const model = MockChatModel.script([
      { text: '{"name": 42, "age": 36}' },
      { text: '{"name": "Ada", "age": 36}' },
    ]);
    const entity = await firstValueFrom(
      clientFor(model).prompt('Invent a person').call().entity(person),
    );
    expect(entity).toEqual({ name: 'Ada', age: 36 });
    expect(model.calls).toBe(2);
    const [first, second] = model.requests;
    expect(first.messages).toHaveLength(2);
    expect(second.messages.slice(0, 2)).toEqual(first.messages);
    expect(second.messages[1]).toEqual({ role: 'user', content: 'Invent a person' });
    expect(second.messages[2]).toEqual({ role: 'assistant', content: '{"name": 42, "age": 36}' });
    const feedback = second.messages[3] as UserMessage;
    expect(feedback.role).toBe('user');
    expect(feedback.content).toContain('- /name: must be string');
  });

  it('reports every error of an answer: wrong types, nested objects, arrays, extra fields', async () => {
    const bad = JSON.stringify({
      name: 'Ada',
      age: 'old',
      address: { town: 'London' },
      tags: ['a', 7],
      extra: true,
    });
    const model = MockChatModel.script([{ text: bad }, { text: '{"name":"Ada","age":36}' }]);
    await lastValueFrom(clientFor(model).prompt('Invent a person').call().content());
    const feedback = textOf(model.requests[1].messages[3]);
    expect(feedback).toContain('- /age: must be integer');
    expect(feedback).toContain('- /address/city: is required but missing');
    expect(feedback).toContain('- /address/town: is not allowed (additionalProperties is false)');
    expect(feedback).toContain('- /tags/1: must be string');
    expect(feedback).toContain('- /extra: is not allowed (additionalProperties is false)');
  });

  it('treats empty text and malformed JSON as failures with a readable reason', async () => {
    const model = MockChatModel.script([
      { text: '' },
      { text: '{"name": "Ada", "age": }' },
      { text: '{"name":"Ada","age":36}' },
    ]);
    const entity = await firstValueFrom(clientFor(model).prompt('p').call().entity(person));
    expect(entity).toEqual({ name: 'Ada', age: 36 });
    expect(textOf(model.requests[1].messages[3])).toContain('(answer): the answer was empty');
    expect(textOf(model.requests[2].messages[3])).toContain('is not valid JSON');
    // Each retry carries only the previous answer and its errors, not the whole history.
    expect(model.requests[2].messages).toHaveLength(4);
  });

  it('treats an empty model stream as an empty answer and retries', async () => {
    const model = MockChatModel.respond((_request, call) =>
      call === 1 ? EMPTY : { text: '{"name":"Ada","age":36}' },
    );
    const entity = await firstValueFrom(clientFor(model).prompt('p').call().entity(person));
    expect(entity).toEqual({ name: 'Ada', age: 36 });
    expect(textOf(model.requests[1].messages[3])).toContain('(answer): the answer was empty');
  });

  it('accepts fenced JSON with prose around it', async () => {
    const model = MockChatModel.script([
      { text: 'Here you go:\n```json\n{"name": "Ada", "age": 36, "tags": ["x"]}\n```\nEnjoy!' },
    ]);
    const entity = await firstValueFrom(clientFor(model).prompt('p').call().entity(person));
    expect(entity).toEqual({ name: 'Ada', age: 36, tags: ['x'] });
    expect(model.calls).toBe(1);
  });

  it('fails with StructuredOutputError (attempts, errors, lastText) when no attempt passes', async () => {
    const model = MockChatModel.script([
      { text: 'no json' },
      { text: '{"name": 1, "age": 2}' },
      { text: '{"age": -1}' },
    ]);
    const error = await firstValueFrom(clientFor(model).prompt('p').call().content()).catch(
      (e: unknown) => e,
    );
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    const failure = error as StructuredOutputError;
    expect(failure.attempts).toBe(3);
    expect(failure.lastText).toBe('{"age": -1}');
    expect(failure.errors).toEqual([
      { attempt: 1, path: '', message: 'the answer contains no JSON object or array' },
      { attempt: 2, path: '/name', message: 'must be string' },
      { attempt: 3, path: '/name', message: 'is required but missing' },
      { attempt: 3, path: '/age', message: 'must be >= 0' },
    ]);
    expect(failure.message).toContain('after 3 attempt(s)');
    expect(model.calls).toBe(3);
  });

  it("returns the last answer with onExhausted: 'return-last'", async () => {
    const model = MockChatModel.script([{ text: 'nope' }, { text: 'still nope' }]);
    const response = await firstValueFrom(
      clientFor(model, { maxAttempts: 2, onExhausted: 'return-last' })
        .prompt('p')
        .call()
        .chatResponse(),
    );
    expect(response.text).toBe('still nope');
    expect(response.metadata.rounds).toBe(2);
    expect(model.calls).toBe(2);
  });

  it('sums usage over attempts and counts the model calls in metadata.rounds', async () => {
    const model = MockChatModel.script([
      { text: '{}', usage: { inputTokens: 10, outputTokens: 2 } },
      {
        text: '{"name":"Ada","age":36}',
        usage: { inputTokens: 30, outputTokens: 8, cacheReadTokens: 5 },
      },
    ]);
    const response = await firstValueFrom(clientFor(model).prompt('p').call().chatResponse());
    expect(response.usage).toEqual({
      inputTokens: 40,
      outputTokens: 10,
      totalTokens: 50,
      cacheReadTokens: 5,
    });
    expect(response.metadata).toEqual({ id: 'mock-2', model: 'mock-model', rounds: 2 });
    expect(response.finishReason).toBe('stop');
  });

  it('ends the outbound stream with one metadata, one usage and one finish, after a retry chunk', async () => {
    const model = MockChatModel.script([
      { text: '{}', usage: { inputTokens: 1, outputTokens: 1 } },
      { text: '{"name":"Ada","age":36}', usage: { inputTokens: 2, outputTokens: 2 } },
    ]);
    const chunks = await lastValueFrom(
      clientFor(model).prompt('p').stream().chunks().pipe(toArray()),
    );
    const types = chunks.map((c) => c.type);
    expect(types.filter((t) => t === 'usage')).toHaveLength(1);
    expect(types.filter((t) => t === 'finish')).toHaveLength(1);
    expect(types.filter((t) => t === 'metadata')).toHaveLength(1);
    expect(types.slice(-3)).toEqual(['metadata', 'usage', 'finish']);
    const retry = chunks.find((c) => c.type === 'retry') as Extract<ChatChunk, { type: 'retry' }>;
    expect(retry).toEqual({
      type: 'retry',
      attempt: 2,
      advisor: 'structured-output-validation',
      reason: expect.stringContaining('/name is required but missing'),
    });
    expect(types.indexOf('retry')).toBeGreaterThan(types.indexOf('text-delta'));
  });

  it('validates zod schemas with zod and types the entity', async () => {
    const Person = z.object({ name: z.string(), age: z.number().int().nonnegative() });
    const model = MockChatModel.script([
      { text: '{"name":"Ada","age":-3}' },
      { text: '{"name":"Ada","age":36}' },
    ]);
    const client = ChatClient.create(model);
    const entity = await firstValueFrom(
      client.prompt('p').call().entity(Person, { validate: true }),
    );
    const name: string = entity.name; // z.infer flows through
    expect(name).toBe('Ada');
    expect(textOf(model.requests[1].messages[3])).toMatch(/- \/age: .*>=0/);
    expect(textOf(model.requests[0].messages[0])).toContain('"minimum": 0');
  });

  it('types entity() from an as-const JSON Schema, typedJsonSchema and an explicit type argument', async () => {
    interface Person {
      name: string;
      age: number;
      address?: { city: string };
      tags?: string[];
    }
    const model = MockChatModel.script([{ text: '{"name":"Ada","age":36}' }], {
      onExhausted: 'repeat-last',
    });
    const client = ChatClient.create(model);
    // Each assignment fails to compile (npm run lint) if the inferred type is wrong or unknown.
    const fromConst: Observable<Person> = client.prompt('p').call().entity(person);
    const fromTyped: Observable<Person> = client
      .prompt('p')
      .call()
      .entity(typedJsonSchema<Person>({ type: 'object' }));
    const explicit: Observable<Person> = client
      .prompt('p')
      .call()
      .entity<Person>({ type: 'object' });
    const partials: Observable<{ name?: string }> = client.prompt('p').stream().entity(person);
    const value = await firstValueFrom(fromConst);
    // @ts-expect-error name is a string, not a number
    const wrong: number = value.name;
    expect(wrong).toBe('Ada');
    await expect(firstValueFrom(fromTyped)).resolves.toEqual({ name: 'Ada', age: 36 });
    await expect(firstValueFrom(explicit)).resolves.toEqual({ name: 'Ada', age: 36 });
    await expect(lastValueFrom(partials)).resolves.toEqual({ name: 'Ada', age: 36 });
  });

  it('validates draft-07 JSON Schemas', async () => {
    const draft7 = typedJsonSchema<{ items: [number, string] }>({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { items: { type: 'array', items: [{ type: 'number' }, { type: 'string' }] } },
      required: ['items'],
    });
    const model = MockChatModel.script([
      { text: '{"items":["x", 1]}' },
      { text: '{"items":[1,"x"]}' },
    ]);
    const entity = await firstValueFrom(
      ChatClient.create(model).prompt('p').call().entity(draft7, { validate: true }),
    );
    expect(entity.items).toEqual([1, 'x']);
    expect(textOf(model.requests[1].messages[3])).toContain('- /items/0: must be number');
  });

  it('asks for native structured output with native: true, and sends no instructions', async () => {
    const model = MockChatModel.script([{ text: '{"name":"Ada","age":36}' }]);
    await lastValueFrom(
      clientFor(model, { native: true, schemaName: 'person' }).prompt('p').call().content(),
    );
    const request = model.requests[0];
    expect(request.options.responseFormat).toEqual({
      type: 'json-schema',
      schema: person,
      name: 'person',
      strict: true,
    });
    expect(request.messages).toEqual([{ role: 'user', content: 'p' }]);
  });

  it('uses custom instructions and caps the feedback length', async () => {
    const many = { type: 'object', properties: {}, additionalProperties: false } as const;
    const bad = JSON.stringify(
      Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])),
    );
    const model = MockChatModel.script([{ text: bad }, { text: '{}' }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new StructuredOutputValidationAdvisor({
          outputSchema: many,
          instructions: (schema) => `FORMAT ${JSON.stringify(schema)}`,
          maxFeedbackLength: 500,
        }),
      )
      .build();
    await lastValueFrom(client.prompt('p').call().content());
    expect(textOf(model.requests[0].messages[0])).toBe(`FORMAT ${JSON.stringify(many)}`);
    const feedback = textOf(model.requests[1].messages[3]);
    expect(feedback.length).toBeLessThanOrEqual(500);
    expect(feedback).toMatch(/and \d+ more error\(s\)/);
  });

  it('passes provider errors through without retrying', async () => {
    const model = MockChatModel.script([{ text: '{"na', error: 'boom' }, { text: '{}' }]);
    const error = await lastValueFrom(clientFor(model).prompt('p').call().content()).catch(
      (e: unknown) => e,
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(model.calls).toBe(1);
  });

  it('fails the stream when a user callback (a zod refinement) throws', async () => {
    const Throws = z.object({ a: z.number() }).refine(() => {
      throw new Error('refinement exploded');
    });
    const model = MockChatModel.script([{ text: '{"a":1}' }]);
    const error = await lastValueFrom(
      ChatClient.create(model).prompt('p').call().entity(Throws, { validate: true }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe('refinement exploded');
  });

  it('does not validate a round that ends in tool calls (the caller drives the loop)', async () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] },
    ]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new StructuredOutputValidationAdvisor({ outputSchema: person }))
      .defaultAdvisorParams({ toolCallingAdvisorAutoRegister: false })
      .build();
    const response = await firstValueFrom(client.prompt('p').call().chatResponse());
    expect(response.finishReason).toBe('tool-calls');
    expect(model.calls).toBe(1);
  });

  it('keeps state per subscription: a re-subscription starts from attempt 1', async () => {
    const model = MockChatModel.respond((_request, call) => ({
      text: call % 2 === 1 ? '{}' : '{"name":"Ada","age":36}',
    }));
    const entity$ = clientFor(model, { maxAttempts: 2 }).prompt('p').call().entity(person);
    await expect(firstValueFrom(entity$)).resolves.toEqual({ name: 'Ada', age: 36 });
    await expect(firstValueFrom(entity$)).resolves.toEqual({ name: 'Ada', age: 36 });
    expect(model.calls).toBe(4);
  });

  it('rejects bad options with InvalidOptionsError', () => {
    expect(
      () => new StructuredOutputValidationAdvisor({ outputSchema: person, maxAttempts: 0 }),
    ).toThrow(InvalidOptionsError);
    expect(
      () => new StructuredOutputValidationAdvisor({ outputSchema: { type: 'nonsense' } }),
    ).toThrow(/valid JSON Schema/);
    expect(
      () =>
        new StructuredOutputValidationAdvisor({
          outputSchema: person,
          onExhausted: 'explode' as 'error',
        }),
    ).toThrow(/onExhausted/);
    expect(() => new StructuredOutputValidationAdvisor({ outputSchema: 'x' as never })).toThrow(
      /outputSchema/,
    );
  });

  it.each([
    ['maxIssues', { maxIssues: 0 }],
    ['maxDepth', { maxDepth: 1001 }],
    ['maxFeedbackLength', { maxFeedbackLength: 10 }],
    ['native', { native: 'yes' }],
    ['instructions', { instructions: 'always' }],
    ['schemaName', { schemaName: '' }],
  ])('rejects a bad %s, naming it', (option, bad) => {
    expect(
      () => new StructuredOutputValidationAdvisor({ outputSchema: person, ...(bad as object) }),
    ).toThrow(expect.objectContaining({ option }));
  });

  it('entity() without validate sends format instructions, parses once and fails with EntityParseError', async () => {
    const model = MockChatModel.script([{ text: '{"name": "Ada"}' }]);
    const error = await firstValueFrom(
      ChatClient.create(model).prompt('p').call().entity(person),
    ).catch((e: unknown) => e);
    expect(EntityParseError.isInstance(error)).toBe(true);
    expect((error as EntityParseError).errors).toEqual([
      { path: '/age', message: 'is required but missing' },
    ]);
    expect((error as EntityParseError).text).toBe('{"name": "Ada"}');
    expect(model.calls).toBe(1);
    expect(model.requests[0].messages).toEqual([
      {
        role: 'system',
        content: formatInstructions(
          new StructuredOutputValidationAdvisor({ outputSchema: person }).jsonSchema,
        ),
      },
      { role: 'user', content: 'p' },
    ]);
  });
});
