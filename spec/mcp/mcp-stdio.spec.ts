import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { ChatClient, type ChatRequest, type ToolMessage } from 'rx-advisors';
import {
  McpConnectionError,
  McpToolSource,
  mcpToolsAdvisor,
  type McpStdioServer,
} from 'rx-advisors/mcp';
import { MockChatModel } from 'rx-advisors/testing';
import { alive } from '../support/process-alive';
import { TODAY } from './fixtures/test-mcp-server.js';

jest.setTimeout(30_000);

const cancelLog = join(mkdtempSync(join(tmpdir(), 'rx-advisors-mcp-')), 'cancelled.log');
const stdioServer: McpStdioServer = {
  command: process.execPath,
  args: ['--import', 'tsx', join(__dirname, 'fixtures', 'stdio-server.ts')],
  env: { PATH: process.env['PATH'] ?? '', MCP_CANCEL_LOG: cancelLog },
};

const toolResults = (request: ChatRequest | undefined): ToolMessage[] =>
  (request?.messages ?? []).filter((m): m is ToolMessage => m.role === 'tool');

const waitFor = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const cancellations = (): number =>
  existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8').split('\n').filter(Boolean).length : 0;

/** The live child processes of this test process. */
const childPids = (): string[] =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter((pid) => pid !== '' && alive(Number(pid)));

describe('MCP tools over stdio (a real SDK server in a child process)', () => {
  it('runs the seed scenario, then close() ends the child process', async () => {
    const source = new McpToolSource({ server: stdioServer });
    const model = MockChatModel.script([
      {
        toolCalls: [
          { name: 'pid', arguments: {} },
          { name: 'today', arguments: {} },
        ],
      },
      { toolCalls: [{ name: 'usersRegisteredOn', arguments: { date: TODAY } }] },
      { text: 'ada and grace.' },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(...(await source.listTools()))
      .build();

    const text = await lastValueFrom(client.prompt('Who registered today?').call().content());
    const [pid, date] = toolResults(model.requests[1]).map((m) => m.content);

    expect(text).toBe('ada and grace.');
    expect(date).toBe(TODAY);
    expect(toolResults(model.requests[2])[2]?.content).toBe('["ada","grace"]');
    expect(alive(Number(pid))).toBe(true);
    await source.close();
    await waitFor(() => !alive(Number(pid)));
  });

  it('per-call advisor: unsubscribing the chat stream cancels the call and ends the child', async () => {
    const model = MockChatModel.respond((request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'pid', arguments: {} }] }
        : { toolCalls: [{ name: 'slow', arguments: { ms: 60_000 } }] },
    );
    const client = ChatClient.builder(model)
      .defaultAdvisors(mcpToolsAdvisor({ server: stdioServer }))
      .build();
    const before = cancellations();

    const subscription = client.prompt('x').stream().chunks().subscribe();
    await waitFor(() => model.requests.length === 2);
    const pid = Number(toolResults(model.requests[1])[0]?.content);
    expect(alive(pid)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    subscription.unsubscribe();

    await waitFor(() => !alive(pid));
    expect(cancellations()).toBeGreaterThan(before);
  });

  it('a server that crashes mid-call gives the model an error result; the next call restarts it', async () => {
    const source = new McpToolSource({ server: stdioServer });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'pid', arguments: {} }] },
      { toolCalls: [{ name: 'crash', arguments: {} }] },
      { toolCalls: [{ name: 'pid', arguments: {} }] },
      { text: 'recovered' },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(...(await source.listTools()))
      .build();

    const text = await lastValueFrom(client.prompt('x').call().content());
    const [first, crashed, second] = toolResults(model.requests[3]);

    expect(text).toBe('recovered');
    expect(crashed?.isError).toBe(true);
    expect(crashed?.content).toMatch(/The tool "crash" failed: .*Connection closed/);
    expect(second?.isError).toBeUndefined();
    expect(second?.content).not.toBe(first?.content);
    expect(alive(Number(first?.content))).toBe(false);
    await source.close();
    await waitFor(() => !alive(Number(second?.content)));
  });

  it('rejects with a McpConnectionError when the command cannot start', async () => {
    const source = new McpToolSource({
      server: { command: join(__dirname, 'no-such-server'), stderr: 'ignore' },
    });

    const error: unknown = await source.listTools().catch((e: unknown) => e);

    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/no-such-server/);
    await source.close();
  });

  it('close() while connecting leaves no child process behind', async () => {
    const before = childPids();
    const source = new McpToolSource({ server: stdioServer });
    const listing = source.listTools().catch((e: unknown) => e);
    await waitFor(() => childPids().length > before.length);
    await source.close();

    expect(McpConnectionError.isInstance(await listing)).toBe(true);
    await waitFor(() => childPids().length === before.length);
  });
});
