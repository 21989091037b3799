// The demo on any AI SDK provider package (issue 19.5): `npm start` with DEMO_AI_SDK_PROVIDER
// naming @ai-sdk/mistral and DEMO_AI_SDK_BASE_URL pointing at a loopback server that replays
// Mistral's recorded stream (spec/providers/ai-sdk/fixtures). The real package builds the
// request, the bridge (AiSdkChatModel) reads the answer, the page's SSE carries it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { ChatClient, ProviderError } from '../../lib/index';
import { selectDemoModel } from '../../examples/demo/select-demo-model';
import { replay, MISTRAL_TEST_KEY } from '../providers/ai-sdk/support/ai-sdk-targets';
import { startReplayServer, type ReplayServer } from '../providers/support/replay-server';
import { postChat, tempDataDir } from './demo-test-kit';

jest.setTimeout(90_000);

const ROOT = join(__dirname, '..', '..');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startMain(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo/main.ts'], {
    cwd: ROOT,
    // No keys from the machine running the tests.
    env: { PATH: process.env['PATH'] ?? '', DEMO_DATA_DIR: tempDataDir(), PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

function urlPrinted(run: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.output());
      if (match !== null) resolve(match[1]);
    };
    run.child.stdout!.on('data', check);
    void run.exited.then(() => reject(new Error(`exited before printing a URL:\n${run.output()}`)));
  });
}

describe('npm start with DEMO_AI_SDK_PROVIDER', () => {
  let replayServer: ReplayServer;
  beforeEach(async () => {
    replayServer = await startReplayServer();
  });
  afterEach(async () => {
    await replayServer.close();
  });

  it('answers through @ai-sdk/mistral (loaded by name) against a replayed Mistral stream', async () => {
    replayServer.enqueue(replay('mistral-text.chunks.txt'));
    const run = startMain({
      DEMO_AI_SDK_PROVIDER: '@ai-sdk/mistral',
      DEMO_AI_SDK_MODEL: 'mistral-small-latest',
      DEMO_AI_SDK_BASE_URL: replayServer.url,
      MISTRAL_API_KEY: MISTRAL_TEST_KEY, // the package's own variable
    });
    try {
      const url = await urlPrinted(run);
      expect(run.output()).toContain(
        `rx-advisors demo with AI SDK provider @ai-sdk/mistral, model mistral-small-latest at ${replayServer.url} (DEMO_AI_SDK_PROVIDER is set)`,
      );
      const info = await (await fetch(new URL('/api/info', url))).json();
      expect(info.provider).toBe('mistral.chat');

      const exchange = await postChat(url, 'Say hello');
      expect(exchange.text).toBe('Hello, world! This is a test response.');
      expect(exchange.events.at(-1)?.event).toBe('done');
      const finish = exchange.events.find((e) => e.event === 'finish');
      expect(finish?.data.reason).toBe('stop');

      // The real package made the request: Mistral's path, model, key, tools and the question.
      expect(replayServer.requests).toHaveLength(1);
      const [request] = replayServer.requests;
      expect(request.path).toBe('/chat/completions');
      expect(request.headers.authorization).toBe(`Bearer ${MISTRAL_TEST_KEY}`);
      expect(request.body.model).toBe('mistral-small-latest');
      expect(request.body.stream).toBe(true);
      expect(
        request.body.tools.map((t: { function: { name: string } }) => t.function.name),
      ).toEqual(['getTime', 'usersRegisteredOn', 'deleteUser']);
      const lastUser = request.body.messages
        .filter((m: { role: string }) => m.role === 'user')
        .at(-1);
      expect(JSON.stringify(lastUser.content)).toContain('Say hello');
      expect(run.output()).not.toContain(MISTRAL_TEST_KEY);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('says so, and how to install it, when the package is not installed', async () => {
    const run = startMain({
      DEMO_AI_SDK_PROVIDER: '@ai-sdk/not-installed-provider',
      DEMO_AI_SDK_MODEL: 'some-model',
    });
    expect(await run.exited).toBe(1);
    expect(run.output().trim()).toBe(
      'DEMO_AI_SDK_PROVIDER=@ai-sdk/not-installed-provider: the package is not installed. ' +
        'Install it next to the demo (npm install @ai-sdk/not-installed-provider) or pick another provider.',
    );
  });
});

describe('selectDemoModel with DEMO_AI_SDK_*', () => {
  it('picks the AI SDK provider before the OpenAI key', async () => {
    const choice = await selectDemoModel({
      env: {
        DEMO_AI_SDK_PROVIDER: '@ai-sdk/google',
        DEMO_AI_SDK_MODEL: 'gemini-2.5-flash',
        OPENAI_API_KEY: 'sk-ignored',
      },
    });
    expect(choice.kind).toBe('ai-sdk');
    expect(choice.modelName).toBe('gemini-2.5-flash');
    expect(choice.model.provider).toBe('google.generative-ai');
    expect(choice.description).toBe(
      'AI SDK provider @ai-sdk/google, model gemini-2.5-flash (DEMO_AI_SDK_PROVIDER is set)',
    );
  });

  it('passes DEMO_AI_SDK_API_KEY to the package and keeps it out of error messages', async () => {
    const server = await startReplayServer();
    try {
      // A provider that echoes the request's key in its error body.
      server.enqueue({
        kind: 'echo',
        status: 401,
        // The bare key (a bearer token would be redacted anyway, secrets or not).
        json: (request) => ({
          object: 'error',
          message: `Unknown key ${String(request.headers.authorization).slice('Bearer '.length)}`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        }),
      });
      const choice = await selectDemoModel({
        env: {
          DEMO_AI_SDK_PROVIDER: '@ai-sdk/mistral',
          DEMO_AI_SDK_MODEL: 'mistral-small-latest',
          DEMO_AI_SDK_BASE_URL: server.url,
          DEMO_AI_SDK_API_KEY: 'demo-secret-key-0123456789',
        },
      });
      const client = ChatClient.builder(choice.model).build();
      const failure: unknown = await lastValueFrom(client.prompt('Hi').call().content()).catch(
        (error: unknown) => error,
      );
      expect(server.requests[0]?.headers.authorization).toBe('Bearer demo-secret-key-0123456789');
      expect(ProviderError.isInstance(failure)).toBe(true);
      expect((failure as ProviderError).status).toBe(401);
      expect((failure as Error).message).toBe(
        'mistral.chat: the request failed with HTTP 401: Unknown key [redacted]',
      );
    } finally {
      await server.close();
    }
  });

  it.each([
    [
      { DEMO_AI_SDK_PROVIDER: '@ai-sdk/mistral' },
      'DEMO_AI_SDK_PROVIDER=@ai-sdk/mistral needs DEMO_AI_SDK_MODEL, the model id (e.g. mistral-small-latest).',
    ],
    [
      { DEMO_AI_SDK_PROVIDER: '../../etc/passwd', DEMO_AI_SDK_MODEL: 'm' },
      'DEMO_AI_SDK_PROVIDER=../../etc/passwd is not a package name (e.g. @ai-sdk/mistral or @ai-sdk/google).',
    ],
    [
      { DEMO_AI_SDK_PROVIDER: 'rxjs', DEMO_AI_SDK_MODEL: 'm' },
      'DEMO_AI_SDK_PROVIDER=rxjs has no create…() provider factory: is it an AI SDK provider package?',
    ],
    [
      { DEMO_PROVIDER: 'ai-sdk' },
      'DEMO_PROVIDER=ai-sdk needs DEMO_AI_SDK_PROVIDER (a provider package, e.g. @ai-sdk/mistral) and DEMO_AI_SDK_MODEL.',
    ],
  ])('refuses %j in words', async (env, message) => {
    await expect(selectDemoModel({ env })).rejects.toThrow(message);
  });
});
