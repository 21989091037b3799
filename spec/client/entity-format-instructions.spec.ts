import { lastValueFrom } from 'rxjs';
import { z } from 'zod';
import {
  ChatClient,
  formatInstructions,
  InvalidOptionsError,
  StructuredOutputValidationAdvisor,
  type Message,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const Person = z.object({ name: z.string() });
const personJson = new StructuredOutputValidationAdvisor({ outputSchema: Person }).jsonSchema;
const INSTRUCTIONS = formatInstructions(personJson);
const ada = () => MockChatModel.script([{ text: '{"name":"Ada"}' }]);
const systemTexts = (messages: readonly Message[] | undefined) =>
  (messages ?? []).filter((m) => m.role === 'system').map((m) => m.content);

describe('entity(): format instructions by default (as Spring AI sends them)', () => {
  it('call().entity(schema) sends them after the call system text, and parses the answer', async () => {
    const model = ada();
    const client = ChatClient.builder(model).defaultSystem('Be brief.').build();
    expect(await lastValueFrom(client.prompt('A person').call().entity(Person))).toEqual({
      name: 'Ada',
    });
    expect(model.requests[0]?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: 'A person' },
    ]);
  });

  it('stream().entity(schema) sends them too', async () => {
    const model = ada();
    await lastValueFrom(ChatClient.create(model).prompt('A person').stream().entity(Person));
    expect(systemTexts(model.requests[0]?.messages)).toEqual([INSTRUCTIONS]);
  });

  it('instructions: false sends none; a function writes them', async () => {
    const off = ada();
    await lastValueFrom(
      ChatClient.create(off).prompt('p').call().entity(Person, { instructions: false }),
    );
    expect(systemTexts(off.requests[0]?.messages)).toEqual([]);
    const custom = ada();
    await lastValueFrom(
      ChatClient.create(custom)
        .prompt('p')
        .call()
        .entity(Person, { instructions: (schema) => `JSON for ${Object.keys(schema).length}` }),
    );
    expect(systemTexts(custom.requests[0]?.messages)).toEqual([
      `JSON for ${Object.keys(personJson).length}`,
    ]);
  });

  it('native structured output (responseFormat json-schema) needs none', async () => {
    const model = ada();
    const client = ChatClient.builder(model)
      .defaultOptions({ responseFormat: { type: 'json-schema', schema: personJson } })
      .build();
    await lastValueFrom(client.prompt('p').call().entity(Person));
    expect(systemTexts(model.requests[0]?.messages)).toEqual([]);
    const viaValidate = ada();
    await lastValueFrom(
      ChatClient.create(viaValidate)
        .prompt('p')
        .call()
        .entity(Person, { validate: { native: true } }),
    );
    expect(systemTexts(viaValidate.requests[0]?.messages)).toEqual([]);
  });

  it('are sent once with validate, and once with a registered validation advisor', async () => {
    const validated = ada();
    await lastValueFrom(
      ChatClient.create(validated).prompt('p').call().entity(Person, { validate: true }),
    );
    expect(systemTexts(validated.requests[0]?.messages)).toEqual([INSTRUCTIONS]);
    const registered = ada();
    const client = ChatClient.builder(registered)
      .defaultAdvisors(new StructuredOutputValidationAdvisor({ outputSchema: Person }))
      .build();
    await lastValueFrom(client.prompt('p').call().entity(Person));
    expect(systemTexts(registered.requests[0]?.messages)).toEqual([INSTRUCTIONS]);
  });

  it('instructions: false also reaches the validation advisor', async () => {
    const model = ada();
    await lastValueFrom(
      ChatClient.create(model)
        .prompt('p')
        .call()
        .entity(Person, { validate: true, instructions: false }),
    );
    expect(systemTexts(model.requests[0]?.messages)).toEqual([]);
  });

  it('a bad instructions value is an InvalidOptionsError', () => {
    expect(() =>
      ChatClient.create(ada())
        .prompt('p')
        .call()
        .entity(Person, { instructions: 'yes' as never }),
    ).toThrow(InvalidOptionsError);
  });
});
