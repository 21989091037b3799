// A structured-output retry whose model call fails (here: the MockChatModel script runs out
// on the retry) reports both causes: the failure, and why there was a retry (the answer
// before was not valid JSON). Before, only `Invalid option "rounds"` reached the caller
// (issue 30, point 5).
import { lastValueFrom } from 'rxjs';
import { ChatClient, InvalidOptionsError, StructuredOutputError } from 'rx-advisors';
import { MockChatModel } from 'rx-advisors/testing';

const person = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
} as const;

async function failure(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded');
}

describe('entity() with validation, when the retry cannot run', () => {
  it('says the retry failed, why, and why there was a retry', async () => {
    const model = MockChatModel.script([{ text: 'Sure! Here is a person: Ada' }]);
    const error = await failure(
      lastValueFrom(
        ChatClient.create(model).prompt('A person').call().entity(person, { validate: true }),
      ),
    );
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    const structured = error as StructuredOutputError;
    expect(structured.message).toMatch(
      /^Attempt 2 \(a retry\) failed before it answered: InvalidOptionsError: Invalid option "rounds": got "call 2"; expected at most 1 model calls: the MockChatModel script ran out\. It was a retry because attempt 1's answer did not match the output schema: \(answer\) .+\.$/,
    );
    expect(structured.attempts).toBe(1);
    expect(structured.lastText).toBe('Sure! Here is a person: Ada');
    expect(structured.errors[0]).toMatchObject({ attempt: 1, path: '' });
    expect(InvalidOptionsError.isInstance(structured.cause)).toBe(true);
    expect(model.calls).toBe(2);
  });

  it('a failing first attempt (no retry yet) stays the error it was', async () => {
    const model = MockChatModel.script([]);
    const error = await failure(
      lastValueFrom(
        ChatClient.create(model).prompt('A person').call().entity(person, { validate: true }),
      ),
    );
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
  });

  it('attempts exhausted is still the plain StructuredOutputError', async () => {
    const model = MockChatModel.script([{ text: 'no' }, { text: 'still no' }]);
    const error = await failure(
      lastValueFrom(
        ChatClient.builder(model)
          .build()
          .prompt('A person')
          .call()
          .entity(person, { validate: { maxAttempts: 2 } }),
      ),
    );
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    expect((error as StructuredOutputError).message).toMatch(
      /^No answer matched the output schema after 2 attempt\(s\)/,
    );
    expect((error as Error).cause).toBeUndefined();
  });
});
