import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

// examples/tool-chain.ts is the README's first program: run it as a user would, without a
// key (scripted model) and with one (OPENAI_API_KEY, here against a loopback server that
// answers like OpenAI Chat Completions and plays the model's part).
const root = join(__dirname, '..', '..');
const file = join(root, 'examples', 'tool-chain.ts');
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const today = () => new Date().toISOString().slice(0, 10);

jest.setTimeout(30_000);

async function runExample(env: Record<string, string>): Promise<string> {
  const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _url, ...rest } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, [tsx, file], {
    cwd: root,
    env: { ...rest, ...env },
    encoding: 'utf8',
  });
  return stdout;
}

interface SentMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
}

/** One Chat Completions streaming answer, as SSE. */
function sse(delta: Record<string, unknown>, finish: string): string {
  const chunk = (choice: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, ...choice }] })}\n\n`;
  return (
    chunk({ delta, finish_reason: null }) +
    chunk({ delta: {}, finish_reason: finish }) +
    'data: [DONE]\n\n'
  );
}

/** Plays a model that calls getCurrentDate, then getUsersRegisteredOn, then answers. */
function fakeOpenAi(requests: SentMessage[][]): Server {
  const call = (id: string, name: string, args: unknown) => ({
    tool_calls: [
      { index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(args) } },
    ],
  });
  return createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (data: Buffer) => (body += data.toString()));
    req.on('end', () => {
      const { messages } = JSON.parse(body) as { messages: SentMessage[] };
      requests.push(messages);
      const tools = messages.filter((m) => m.role === 'tool');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (tools.length === 0) {
        res.end(sse(call('call_1', 'getCurrentDate', {}), 'tool_calls'));
      } else if (tools.length === 1) {
        res.end(
          sse(call('call_2', 'getUsersRegisteredOn', { date: tools[0].content }), 'tool_calls'),
        );
      } else {
        const users = JSON.parse(tools[1].content!) as string[];
        const answer = JSON.stringify({ date: tools[0].content, users });
        res.end(sse({ role: 'assistant', content: `Here you are: ${answer}` }, 'stop'));
      }
    });
  });
}

describe('examples/tool-chain.ts, the first program', () => {
  it('is the program the README shows', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(readFileSync(file, 'utf8').trim());
  });

  it('runs without an API key: the scripted model chains both tools', async () => {
    expect(await runExample({})).toBe(`${today()}: 2 new users (ada, grace)\n`);
  });

  it('runs the same program against OpenAI when OPENAI_API_KEY is set', async () => {
    const requests: SentMessage[][] = [];
    const server = fakeOpenAi(requests);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const output = await runExample({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      });
      expect(output).toBe(`${today()}: 2 new users (ada, grace)\n`);
      expect(requests).toHaveLength(3);
      expect(requests[2].filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
        today(),
        '["ada","grace"]',
      ]);
    } finally {
      server.close();
    }
  });
});
