import { lastValueFrom } from 'rxjs';
import { ChatClient, LoggerAdvisor, ProviderError } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

function recordingLogger() {
  const lines: { message: string; details: unknown }[] = [];
  return {
    lines,
    logger: { info: (message: string, details?: unknown) => lines.push({ message, details }) },
  };
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
});
