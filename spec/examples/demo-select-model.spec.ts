import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDemoServer, type DemoServer } from '../../examples/demo/demo-server';
import { selectDemoModel } from '../../examples/demo/select-demo-model';
import { OfflineDemoModel } from '../../examples/demo/offline-demo-model';
import { FIXED_NOW, postChat, tempDataDir } from './demo-test-kit';

describe('selectDemoModel', () => {
  it('runs the offline model when no key or base URL is set', async () => {
    const choice = await selectDemoModel({ env: {} });
    expect(choice.kind).toBe('offline');
    expect(choice.model).toBeInstanceOf(OfflineDemoModel);
    expect(choice.description).toContain('offline demo model');
  });

  it('picks OpenAI, Anthropic or an OpenAI-compatible server from the environment', async () => {
    const openai = await selectDemoModel({ env: { OPENAI_API_KEY: 'sk-test' } });
    expect([openai.kind, openai.model.provider, openai.modelName]).toEqual([
      'openai',
      'openai',
      'gpt-4o-mini',
    ]);
    const anthropic = await selectDemoModel({
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_MODEL: 'claude-haiku-4-5' },
    });
    expect([anthropic.kind, anthropic.model.provider, anthropic.modelName]).toEqual([
      'anthropic',
      'anthropic',
      'claude-haiku-4-5',
    ]);
    const local = await selectDemoModel({
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODEL: 'qwen3' },
    });
    expect([local.kind, local.model.provider, local.modelName]).toEqual([
      'openai-compatible',
      'openai-compatible',
      'qwen3',
    ]);
    expect(local.description).toContain('http://127.0.0.1:9/v1');
  });

  it('prefers OpenAI when both keys are set, and obeys DEMO_PROVIDER', async () => {
    const both = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' };
    expect((await selectDemoModel({ env: both })).kind).toBe('openai');
    expect((await selectDemoModel({ env: { ...both, DEMO_PROVIDER: 'anthropic' } })).kind).toBe(
      'anthropic',
    );
    expect((await selectDemoModel({ env: { ...both, DEMO_PROVIDER: 'offline' } })).kind).toBe(
      'offline',
    );
    await expect(selectDemoModel({ env: { DEMO_PROVIDER: 'gemini' } })).rejects.toThrow(
      'DEMO_PROVIDER=gemini is not one of ai-sdk, openai, openai-compatible, anthropic, offline.',
    );
    await expect(selectDemoModel({ env: { DEMO_PROVIDER: 'openai-compatible' } })).rejects.toThrow(
      /needs OPENAI_BASE_URL/,
    );
  });

  it('never puts an API key in its description', async () => {
    const choice = await selectDemoModel({ env: { OPENAI_API_KEY: 'sk-secret-123' } });
    expect(choice.description).not.toContain('sk-secret-123');
  });
});

/**
 * A loopback OpenAI-compatible server: Chat Completions streaming, round 1 asks for
 * getTime, round 2 answers from the tool result it was sent.
 */
interface CompletionBody {
  model: string;
  messages: { role: string; content: string }[];
  tools: { function: { name: string } }[];
}

async function startCompatibleServer(): Promise<{
  url: string;
  bodies: CompletionBody[];
  server: Server;
}> {
  const bodies: CompletionBody[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as CompletionBody;
      bodies.push(body);
      const toolMessage = body.messages.find((m) => m.role === 'tool');
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'cmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const usage = `data: ${JSON.stringify({ id: 'cmpl-1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (toolMessage === undefined) {
        res.write(
          chunk({
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: 'call_a',
                type: 'function',
                function: { name: 'getTime', arguments: '{"city":' },
              },
            ],
          }),
        );
        res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: '"Tokyo"}' } }] }, null));
        res.write(chunk({}, 'tool_calls'));
      } else {
        const time = JSON.parse(toolMessage.content).time;
        res.write(chunk({ role: 'assistant', content: 'In Tokyo it is ' }));
        res.write(chunk({ content: `${time}.` }));
        res.write(chunk({}, 'stop'));
      }
      res.end(`${usage}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies, server };
}

describe('the demo against an OpenAI-compatible server (OPENAI_BASE_URL)', () => {
  let demo: DemoServer | undefined;
  let upstream: Server | undefined;
  afterEach(async () => {
    await demo?.close();
    await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  });

  it('streams the real tool loop through the openai SDK', async () => {
    const compatible = await startCompatibleServer();
    upstream = compatible.server;
    const choice = await selectDemoModel({
      env: { OPENAI_BASE_URL: compatible.url, OPENAI_MODEL: 'local-model' },
    });
    demo = await startDemoServer({
      port: 0,
      model: choice.model,
      dataDir: tempDataDir(),
      now: () => FIXED_NOW,
    });
    const exchange = await postChat(demo.url, 'What time is it in Tokyo?');
    expect(exchange.text).toBe('In Tokyo it is 21:30.');
    expect(exchange.events.find((e) => e.event === 'tool-call')?.data).toMatchObject({
      name: 'getTime',
      arguments: '{"city":"Tokyo"}',
    });
    expect(exchange.events.find((e) => e.event === 'usage')?.data.usage).toMatchObject({
      inputTokens: 22,
      outputTokens: 14,
      totalTokens: 36,
    });
    expect(compatible.bodies).toHaveLength(2);
    expect(compatible.bodies[0].model).toBe('local-model');
    expect(compatible.bodies[0].tools.map((t) => t.function.name)).toEqual([
      'getTime',
      'usersRegisteredOn',
      'deleteUser',
    ]);
    expect(compatible.bodies[0].messages[0]).toMatchObject({ role: 'system' });
  });
});
