import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { lastValueFrom } from 'rxjs';
import { ChatClient, InvalidOptionsError, type ChatRequest, type ToolMessage } from 'rx-advisors';
import { McpToolError, McpToolSource, mcpToolsAdvisor } from 'rx-advisors/mcp';
import { MockChatModel } from 'rx-advisors/testing';
import { startHttpServer } from './fixtures/http-server.js';

const toolResults = (request: ChatRequest | undefined): ToolMessage[] =>
  (request?.messages ?? []).filter((m): m is ToolMessage => m.role === 'tool');

const context = () => ({
  values: {},
  signal: new AbortController().signal,
  toolCallId: 'c',
  round: 1,
});

/** A low-level SDK server whose tools answer whatever `results` says (valid or not). */
async function connectedTo(
  tools: { name: string; inputSchema?: Record<string, unknown> }[],
  answer: (name: string, progress: () => Promise<void>) => unknown,
): Promise<Client> {
  const server = new Server({ name: 'faulty', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({ inputSchema: { type: 'object' }, ...t })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const token = request.params._meta?.progressToken;
    const progress = () =>
      token === undefined
        ? Promise.resolve()
        : extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: 1 },
          });
    return answer(request.params.name, progress) as never;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('MCP faults', () => {
  it('a malformed result becomes an error result the model sees', async () => {
    const client = await connectedTo([{ name: 'bad' }, { name: 'good' }], (name) =>
      name === 'bad' ? { content: 'not an array' } : { content: [{ type: 'text', text: 'fine' }] },
    );
    const model = MockChatModel.script([
      {
        toolCalls: [
          { name: 'bad', arguments: {} },
          { name: 'good', arguments: {} },
        ],
      },
      { text: 'done' },
    ]);
    const source = new McpToolSource({ server: { client } });
    const chat = ChatClient.builder(model).defaultAdvisors(mcpToolsAdvisor({ source })).build();

    await expect(lastValueFrom(chat.prompt('x').call().content())).resolves.toBe('done');
    const [bad, good] = toolResults(model.requests[1]);
    expect(bad?.isError).toBe(true);
    expect(bad?.content).toMatch(/The tool "bad" failed/);
    expect(good).toMatchObject({ content: 'fine' });
    await client.close();
  });

  it('a call that never answers ends at requestTimeout with an error', async () => {
    const client = await connectedTo([{ name: 'hang' }], () => new Promise(() => {}));
    const [hang] = await new McpToolSource({ server: { client }, requestTimeout: 100 }).listTools();

    await expect(Promise.resolve(hang?.execute({}, context()))).rejects.toThrow(/timed out/i);
    await client.close();
  });

  it('a result over maxResultLength is an McpToolError, not a huge prompt', async () => {
    const client = await connectedTo([{ name: 'big' }], () => ({
      content: [{ type: 'text', text: 'x'.repeat(101) }],
    }));
    const [big] = await new McpToolSource({ server: { client }, maxResultLength: 100 }).listTools();

    const error: unknown = await Promise.resolve(big?.execute({}, context())).catch(
      (e: unknown) => e,
    );
    expect(McpToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ toolName: 'big', reason: 'too-long' });
    await client.close();
  });

  it('a tool name a model cannot take is a clear error when listing', async () => {
    const client = await connectedTo([{ name: 'files.read' }], () => ({ content: [] }));
    const source = new McpToolSource({ server: { client } });

    const error: unknown = await source.listTools().catch((e: unknown) => e);
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect(String(error)).toMatch(/files\.read/);
    await expect(
      new McpToolSource({ server: { client }, filter: (t) => t.name !== 'files.read' }).listTools(),
    ).resolves.toEqual([]);
    await client.close();
  });

  it('a throwing filter fails the listing; a throwing onProgress fails the call', async () => {
    const client = await connectedTo([{ name: 'a' }], () => ({ content: [] }));
    const filter = () => {
      throw new Error('filter broke');
    };
    await expect(new McpToolSource({ server: { client }, filter }).listTools()).rejects.toThrow(
      'filter broke',
    );
    await client.close();
    const withProgress = await connectedTo([{ name: 'p' }], async (_name, progress) => {
      await progress();
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    const onProgress = () => {
      throw new Error('progress handler broke');
    };
    const [p] = await new McpToolSource({
      server: { client: withProgress },
      onProgress,
    }).listTools();
    await expect(Promise.resolve(p?.execute({}, context()))).rejects.toThrow(
      'progress handler broke',
    );
    await withProgress.close();
  });

  it('an HTTP session the server dropped: that call fails, the next one reconnects', async () => {
    const server = await startHttpServer();
    const source = new McpToolSource({ server: { url: server.url } });
    try {
      const today = (await source.listTools()).find((t) => t.name === 'today')!;

      server.forgetSessions();
      await expect(Promise.resolve(today.execute({}, context()))).rejects.toThrow(/Error POSTing/);
      const again = (await source.listTools()).find((t) => t.name === 'today')!;

      await expect(Promise.resolve(again.execute({}, context()))).resolves.toEqual({
        content: '2026-12-01',
      });
      expect(server.sessions()).toBe(2);
    } finally {
      await source.close();
      await server.close();
    }
  });

  it('rejects bad options with an InvalidOptionsError naming the option', () => {
    expect(() => new McpToolSource({ server: { url: 'http://x' }, prefix: 'a.b' })).toThrow(
      /prefix/,
    );
    expect(() => new McpToolSource({ server: {} as never })).toThrow(/server/);
    expect(() => new McpToolSource({ server: { url: 'http://x' }, requestTimeout: 0 })).toThrow(
      /requestTimeout/,
    );
    expect(() => mcpToolsAdvisor({ source: [] })).toThrow(/source/);
    expect(() => mcpToolsAdvisor({ server: { url: 'http://x' }, order: 1e10 })).toThrow(/order/);
  });
});
