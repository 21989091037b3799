import { EMPTY, lastValueFrom, Subject, UnsubscriptionError, type Subscription } from 'rxjs';
import {
  ChatClient,
  ChatRequest,
  createAdvisorChain,
  InvalidOptionsError,
  LoggerAdvisor,
  ProviderError,
  type ChatChunk,
  type ChatOptions,
  type LoggerAdvisorOptions,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

function recordingLogger() {
  const lines: { message: string; details: unknown }[] = [];
  return {
    lines,
    logger: { info: (message: string, details?: unknown) => lines.push({ message, details }) },
  };
}

/** `{ a: { a: … { [leaf]: value } } }`, `depth` levels deep. */
function nested(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let value: Record<string, unknown> = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Runs one call with `options` through a LoggerAdvisor; the logged request details. */
async function loggedOptions(options: ChatOptions, advisorOptions: LoggerAdvisorOptions = {}) {
  const { lines, logger } = recordingLogger();
  const chain = createAdvisorChain({
    advisors: [new LoggerAdvisor({ logger, ...advisorOptions })],
    model: MockChatModel.script([{ text: 'ok' }]),
  });
  await lastValueFrom(chain.next(ChatRequest.create({ options })));
  const details = lines[0]?.details as { options: Record<string, unknown> };
  return { options: details.options, json: JSON.stringify(details) };
}

describe('LoggerAdvisor', () => {
  it('logs the request and the aggregated response, leaving the stream unchanged', async () => {
    const { lines, logger } = recordingLogger();
    const client = ChatClient.builder(
      MockChatModel.script([{ text: 'Hello there', usage: { inputTokens: 3, outputTokens: 2 } }]),
    )
      .defaultAdvisors(new LoggerAdvisor({ logger }))
      .build();
    const text = await lastValueFrom(client.prompt('Hi').call().content());
    expect(text).toBe('Hello there');
    expect(lines.map((l) => l.message)).toEqual(['[logger] request', '[logger] response']);
    expect(lines[0].details).toEqual({
      messages: [{ role: 'user', content: 'Hi' }],
      options: {},
      tools: [],
    });
    expect(lines[1].details).toMatchObject({ text: 'Hello there', usage: { totalTokens: 5 } });
  });

  it('never logs secrets found in options', async () => {
    const { lines, logger } = recordingLogger();
    const client = ChatClient.builder(MockChatModel.script([{ text: 'ok' }]))
      .defaultAdvisors(new LoggerAdvisor({ logger }))
      .defaultOptions({
        temperature: 0,
        extra: {
          apiKey: 'sk-secret-123',
          headers: { Authorization: 'Bearer sk-secret-123' },
          user: 'u1',
        },
      })
      .build();
    await lastValueFrom(client.prompt('Hi').call().content());
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain('sk-secret-123');
    expect(lines[0].details).toMatchObject({
      options: {
        temperature: 0,
        extra: { apiKey: '[redacted]', headers: '[redacted]', user: 'u1' },
      },
    });
  });

  it('logs an error and passes it on', async () => {
    const { lines, logger } = recordingLogger();
    const client = ChatClient.builder(
      MockChatModel.script([{ text: 'par', error: 'upstream failed' }]),
    )
      .defaultAdvisors(new LoggerAdvisor({ logger }))
      .build();
    await expect(lastValueFrom(client.prompt('Hi').call().content())).rejects.toBeInstanceOf(
      ProviderError,
    );
    expect(lines.map((l) => l.message)).toEqual(['[logger] request', '[logger] error']);
    expect(lines[1].details).toBe('mock: upstream failed');
  });

  describe('cancellation (the caller unsubscribes early)', () => {
    /** A client over a model stream the test drives; the logger and the model's subscription. */
    function liveCall(advisorOptions: LoggerAdvisorOptions = {}) {
      const { lines, logger } = recordingLogger();
      const model$ = new Subject<ChatChunk>();
      const client = ChatClient.builder(MockChatModel.fromStreams([model$]))
        .defaultAdvisors(new LoggerAdvisor({ logger, ...advisorOptions }))
        .defaultOptions({ extra: { apiKey: 'sk-secret-123', user: 'u1' } })
        .build();
      const seen: string[] = [];
      const subscription: Subscription = client
        .prompt('Hi')
        .stream()
        .content()
        .subscribe({ next: (text) => seen.push(text), error: () => undefined });
      return { lines, model$, seen, subscription };
    }

    it('logs what streamed so far as one cancelled entry; the request keeps secrets redacted', () => {
      const { lines, model$, seen, subscription } = liveCall();
      model$.next({ type: 'text-delta', text: 'Hel' });
      model$.next({ type: 'text-delta', text: 'lo' });
      model$.next({ type: 'usage', usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } });
      subscription.unsubscribe();
      expect(seen).toEqual(['Hel', 'lo']);
      expect(model$.observed).toBe(false);
      expect(lines.map((l) => l.message)).toEqual(['[logger] request', '[logger] cancelled']);
      expect(lines[1].details).toMatchObject({
        text: 'Hello',
        finishReason: 'other',
        usage: { inputTokens: 3, outputTokens: 1 },
      });
      const logged = JSON.stringify(lines);
      expect(logged).not.toContain('sk-secret-123');
      expect(lines[0].details).toMatchObject({ options: { extra: { apiKey: '[redacted]' } } });
      // Nothing more once the call is over, whatever the model does next.
      model$.next({ type: 'text-delta', text: ' there' });
      model$.complete();
      expect(lines).toHaveLength(2);
    });

    it('passes the partial response through formatResponse, under the advisor name', () => {
      const { lines, model$, subscription } = liveCall({
        name: 'audit',
        formatResponse: (r) => `${r.text}|${r.finishReason}`,
      });
      model$.next({ type: 'text-delta', text: 'par' });
      subscription.unsubscribe();
      expect(lines.map((l) => `${l.message}=${String(l.details)}`).slice(1)).toEqual([
        '[audit] cancelled=par|other',
      ]);
    });

    it('logs one final entry per call, whichever of complete, error or unsubscribe ends it', async () => {
      const ends: [string, (model$: Subject<ChatChunk>, s: Subscription) => void][] = [
        ['[logger] response', (model$) => model$.complete()],
        ['[logger] error', (model$) => model$.error(new Error('down'))],
        ['[logger] cancelled', (_model$, subscription) => subscription.unsubscribe()],
      ];
      for (const [expected, end] of ends) {
        const { lines, model$, subscription } = liveCall();
        model$.next({ type: 'text-delta', text: 'x' });
        end(model$, subscription);
        subscription.unsubscribe();
        await Promise.resolve();
        expect(lines.map((l) => l.message)).toEqual(['[logger] request', expected]);
      }
    });

    it('a logger that throws on cancellation: the model is still unsubscribed, unsubscribe() reports it', () => {
      const boom = new Error('log sink down');
      let calls = 0;
      const model$ = new Subject<ChatChunk>();
      const chain = createAdvisorChain({
        advisors: [
          new LoggerAdvisor({
            logger: {
              info: () => {
                if (++calls === 2) throw boom;
              },
            },
          }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      const subscription = chain.next(ChatRequest.create()).subscribe();
      model$.next({ type: 'text-delta', text: 'x' });
      let thrown: unknown;
      try {
        subscription.unsubscribe();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UnsubscriptionError);
      expect((thrown as UnsubscriptionError).errors).toEqual([boom]);
      expect(model$.observed).toBe(false);
      expect(subscription.closed).toBe(true);
    });
  });

  it('uses custom formatters, and logs anew for every subscription', async () => {
    const { lines, logger } = recordingLogger();
    const client = ChatClient.builder(MockChatModel.script([{ text: 'one' }, { text: 'two' }]))
      .defaultAdvisors(
        new LoggerAdvisor({
          logger,
          name: 'audit',
          formatRequest: (r) => r.lastUserText,
          formatResponse: (r) => r.text,
        }),
      )
      .build();
    const content$ = client.prompt('Hi').call().content();
    await lastValueFrom(content$);
    await lastValueFrom(content$);
    expect(lines.map((l) => `${l.message}=${String(l.details)}`)).toEqual([
      '[audit] request=Hi',
      '[audit] response=one',
      '[audit] request=Hi',
      '[audit] response=two',
    ]);
  });

  it('sits inside the tool loop by default (order 0, after HIGHEST_PRECEDENCE + 300)', () => {
    expect(new LoggerAdvisor().order).toBe(0);
  });

  describe('redaction (any depth)', () => {
    it('redacts a secret nested deeper than 8 levels', async () => {
      const { json } = await loggedOptions({ extra: nested(10, { apiKey: 'sk-deep-123' }) });
      expect(json).not.toContain('sk-deep-123');
      expect(json).toContain('"apiKey":"[redacted]"');
    });

    it('logs objects past maxDepth (default 32) as [truncated], never raw', async () => {
      const extra = nested(40, { password: 'hunter2', note: 'deep' });
      const truncated = await loggedOptions({ extra });
      expect(truncated.json).toContain('"[truncated]"');
      expect(truncated.json).not.toContain('hunter2');
      expect(truncated.json).not.toContain('deep');
      const whole = await loggedOptions({ extra }, { maxDepth: Infinity });
      expect(whole.json).toContain('"password":"[redacted]","note":"deep"');
      expect(whole.json).not.toContain('hunter2');
    });

    it('logs a cyclic option as [circular], so the details stay serializable', async () => {
      const extra: Record<string, unknown> = { nested: nested(9, {}) };
      ((extra['nested'] as Record<string, unknown>)['a'] as Record<string, unknown>)['loop'] =
        extra;
      const { options } = await loggedOptions({ extra });
      expect(JSON.stringify(options)).toContain('"loop":"[circular]"');
    });

    it('logs token counts (maxTokens) instead of redacting them', async () => {
      const { options } = await loggedOptions({ maxTokens: 256, temperature: 0.2 });
      expect(options).toEqual({ maxTokens: 256, temperature: 0.2 });
    });
  });

  it('fails the call with the error of a throwing formatter or logger, before the model', async () => {
    const model = MockChatModel.script([{ text: 'ok' }]);
    const boom = new Error('formatter failed');
    const client = ChatClient.builder(model)
      .defaultAdvisors(
        new LoggerAdvisor({
          logger: recordingLogger().logger,
          formatRequest: () => {
            throw boom;
          },
        }),
      )
      .build();
    await expect(lastValueFrom(client.prompt('Hi').call().content())).rejects.toBe(boom);
    const throwing = ChatClient.builder(model)
      .defaultAdvisors(
        new LoggerAdvisor({
          logger: {
            info: () => {
              throw boom;
            },
          },
        }),
      )
      .build();
    await expect(lastValueFrom(throwing.prompt('Hi').call().content())).rejects.toBe(boom);
    expect(model.calls).toBe(0);
  });

  it('logs an empty response when the model stream is empty', async () => {
    const { lines, logger } = recordingLogger();
    const chain = createAdvisorChain({
      advisors: [new LoggerAdvisor({ logger, formatResponse: (r) => r.text })],
      model: MockChatModel.fromStreams([EMPTY]),
    });
    await lastValueFrom(chain.next(ChatRequest.create()), { defaultValue: 'none' });
    expect(lines.map((l) => [l.message, l.details])).toEqual([
      ['[logger] request', { messages: [], options: {}, tools: [] }],
      ['[logger] response', ''],
    ]);
  });

  it('validates its options', () => {
    const bad: [LoggerAdvisorOptions, string][] = [
      [{ logger: {} as never }, 'logger'],
      [{ order: 0.5 }, 'order'],
      [{ name: '' }, 'name'],
      [{ formatRequest: 'x' as never }, 'formatRequest'],
      [{ formatResponse: 1 as never }, 'formatResponse'],
      [{ maxDepth: 0 }, 'maxDepth'],
      [{ maxDepth: 2.5 }, 'maxDepth'],
    ];
    for (const [options, option] of bad) {
      expect(() => new LoggerAdvisor(options)).toThrow(InvalidOptionsError);
      expect(() => new LoggerAdvisor(options)).toThrow(new RegExp(`"${option}"`));
    }
    expect(new LoggerAdvisor({ maxDepth: Infinity }).name).toBe('logger');
  });
});
