// The example adapter of docs/writing-a-provider.md, run against a scripted SDK-like
// client; and a check that the page shows exactly this code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  ChatRequest,
  InvalidOptionsError,
  ProviderError,
  ProviderIdleTimeoutError,
  ProviderProtocolError,
} from 'rx-advisors';
import { AcmeChatModel } from './example/acme-chat-model.js';
import { FakeAcmeClient, type AcmeStep } from './example/fake-acme-sdk.js';

const KEY = 'acme-key-0123456789';
const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
const start: AcmeStep = { type: 'start', id: 'r1', model: 'acme-1' };
const done = (reason: 'stop' | 'tool_use' = 'stop'): AcmeStep => ({
  type: 'done',
  reason,
  inputTokens: 3,
  outputTokens: 2,
});

function model(scripts: AcmeStep[][], idleTimeout?: number): [AcmeChatModel, FakeAcmeClient] {
  const client = new FakeAcmeClient(KEY, scripts);
  const options = idleTimeout === undefined ? {} : { idleTimeout };
  return [new AcmeChatModel({ client, model: 'acme-1', ...options }), client];
}

const errorOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('the example provider of docs/writing-a-provider.md', () => {
  it('streams text through a ChatClient, opening nothing until subscribed', async () => {
    const [acme, client] = model([
      [start, { type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }, done()],
    ]);
    const content$ = ChatClient.builder(acme).build().prompt('Hi').call().content();
    expect(client.bodies).toHaveLength(0);
    await expect(firstValueFrom(content$)).resolves.toBe('Hello');
    expect(client.bodies[0]).toEqual({
      model: 'acme-1',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [],
    });
  });

  it('assembles tool calls by index and ends with usage and finish', async () => {
    const [acme] = model([
      [
        start,
        { type: 'tool', index: 0, id: 'c1', name: 'lookup', args: '{"q":' },
        { type: 'tool', index: 0, args: '1}' },
        done('tool_use'),
      ],
    ]);
    const chunks = await lastValueFrom(acme.stream(request).pipe(toArray()));
    expect(chunks.slice(-3)).toEqual([
      { type: 'tool-call', id: 'c1', name: 'lookup', arguments: '{"q":1}' },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('turns an error event into a retryable ProviderError without the key', async () => {
    const [acme] = model([
      [start, { type: 'error', code: 'overloaded_error', message: `busy (${KEY})` }],
    ]);
    const error = await errorOf(lastValueFrom(acme.stream(request)));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'acme', retryable: true });
    expect((error as ProviderError).message).toBe(
      'acme: the stream reported an error (overloaded_error): busy ([redacted])',
    );
  });

  it('fails with a ProviderProtocolError on a negative tool index', async () => {
    const [acme] = model([[start, { type: 'tool', index: -1, args: '{}' }, done()]]);
    const error = await errorOf(lastValueFrom(acme.stream(request)));
    expect(ProviderProtocolError.isInstance(error)).toBe(true);
  });

  it('fails a stream that ends without done (retryable)', async () => {
    const [acme] = model([[start, { type: 'text', text: 'Hel' }]]);
    const error = await errorOf(lastValueFrom(acme.stream(request)));
    expect(error).toMatchObject({ provider: 'acme', retryable: true });
  });

  it('aborts a stalled call after idleTimeout with ProviderIdleTimeoutError', async () => {
    const [acme, client] = model([[start, 'stall']], 50);
    const error = await errorOf(lastValueFrom(acme.stream(request)));
    expect(ProviderIdleTimeoutError.isInstance(error)).toBe(true);
    expect(client.signals[0].aborted).toBe(true);
  });

  it('aborts the call when the subscriber unsubscribes', async () => {
    const [acme, client] = model([
      [start, { type: 'text', text: 'Hi' }, { pause: 10_000 }, done()],
    ]);
    const first = await new Promise<string>((resolve) => {
      const subscription = acme.stream(request).subscribe((chunk) => {
        if (chunk.type === 'text-delta') {
          resolve(chunk.text);
          subscription.unsubscribe();
        }
      });
    });
    expect(first).toBe('Hi');
    expect(client.signals[0].aborted).toBe(true);
  });

  it('makes one SDK call per subscription', async () => {
    const script = (): AcmeStep[] => [start, { type: 'text', text: 'x' }, done()];
    const [acme, client] = model([script(), script()]);
    const chunks$ = acme.stream(request);
    await lastValueFrom(chunks$);
    await lastValueFrom(chunks$);
    expect(client.bodies).toHaveLength(2);
  });

  it('rejects a bad idleTimeout and a missing client', () => {
    expect(() => model([], 0)).toThrow(InvalidOptionsError);
    expect(() => new AcmeChatModel({ client: {} as never, model: 'acme-1' })).toThrow(/client/);
  });

  it('is the code docs/writing-a-provider.md shows, verbatim', () => {
    const page = readFileSync(join(__dirname, '../../../docs/writing-a-provider.md'), 'utf8');
    for (const file of ['acme-chat-model.ts', 'fake-acme-sdk.ts']) {
      const source = readFileSync(join(__dirname, 'example', file), 'utf8');
      expect(page).toContain('```ts\n' + source + '```');
    }
  });
});
