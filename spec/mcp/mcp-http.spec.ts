import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { ChatClient, ToolCallingAdvisor, type ChatRequest, type ToolMessage } from 'rx-advisors';
import {
  McpConnectionError,
  McpToolSource,
  mcpToolsAdvisor,
  type McpProgressEvent,
} from 'rx-advisors/mcp';
import { MockChatModel } from 'rx-advisors/testing';
import { startHttpServer, type TestHttpServer } from './fixtures/http-server.js';
import { TODAY } from './fixtures/test-mcp-server.js';

const toolResults = (request: ChatRequest | undefined): ToolMessage[] =>
  (request?.messages ?? []).filter((m): m is ToolMessage => m.role === 'tool');

const waitFor = async (check: () => boolean, ms = 5_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('MCP tools over Streamable HTTP (a real SDK server on loopback)', () => {
  let server: TestHttpServer;
  const cancelled: (string | number)[] = [];
  const sources: McpToolSource[] = [];
  const sourceFor = (options: Partial<ConstructorParameters<typeof McpToolSource>[0]> = {}) => {
    const source = new McpToolSource({ server: { url: server.url }, ...options });
    sources.push(source);
    return source;
  };

  beforeAll(async () => {
    server = await startHttpServer({ onCancelled: (id) => cancelled.push(id) });
  });
  afterEach(async () => {
    await Promise.all(sources.splice(0).map((source) => source.close()));
  });
  afterAll(() => server.close());

  it('runs the seed scenario: a date tool then a users tool, chained by the model', async () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'today', arguments: {} }] },
      { toolCalls: [{ name: 'usersRegisteredOn', arguments: { date: TODAY } }] },
      { text: 'ada and grace registered today.' },
    ]);
    const source = sourceFor();
    const client = ChatClient.builder(model)
      .defaultTools(...(await source.listTools()))
      .build();

    const text = await lastValueFrom(client.prompt('Who registered today?').call().content());

    expect(text).toBe('ada and grace registered today.');
    expect(toolResults(model.requests[1]).map((m) => m.content)).toEqual([TODAY]);
    expect(toolResults(model.requests[2]).map((m) => m.content)).toEqual([
      TODAY,
      '["ada","grace"]',
    ]);
  });

  it('offers the tools through the advisor, listing once for concurrent calls', async () => {
    const source = sourceFor({ prefix: 'srv_', filter: (t) => t.name !== 'crash' });
    const model = MockChatModel.respond((request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: 'srv_today', arguments: {} }] }
        : { text: `date ${toolResults(request)[0]?.content}` },
    );
    const client = ChatClient.builder(model).defaultAdvisors(mcpToolsAdvisor({ source })).build();
    const sessionsBefore = server.sessions();

    const texts = await Promise.all(
      [1, 2, 3].map(() => lastValueFrom(client.prompt('date?').call().content())),
    );

    expect(texts).toEqual([`date ${TODAY}`, `date ${TODAY}`, `date ${TODAY}`]);
    expect(server.sessions() - sessionsBefore).toBe(1);
    const offered = model.requests[0]?.tools.map((t) => t.name) ?? [];
    expect(offered).toContain('srv_usersRegisteredOn');
    expect(offered).not.toContain('srv_crash');
    expect(offered).not.toContain('today');
  });

  it('fails a call whose MCP tool names clash before any model call', async () => {
    const model = MockChatModel.script([{ text: 'never' }]);
    const a = sourceFor();
    const b = sourceFor();
    const client = ChatClient.builder(model)
      .defaultAdvisors(mcpToolsAdvisor({ source: [a, b] }))
      .build();

    await expect(lastValueFrom(client.prompt('hi').call().content())).rejects.toThrow(
      /two different tools are named "today"/,
    );
    expect(model.requests).toHaveLength(0);
  });

  it('turns results into text and media: output schema, isError, validation before sending', async () => {
    const tools = await sourceFor().listTools();
    const byName = (name: string) => tools.find((t) => t.name === name)!;
    const context = { values: {}, signal: new AbortController().signal, toolCallId: 'c', round: 1 };

    await expect(byName('weather').execute({ city: 'Oslo' }, context)).resolves.toEqual({
      content: '{"city":"Oslo","celsius":21}',
    });
    await expect(byName('fail').execute({}, context)).rejects.toThrow('The database is down.');
    await expect(byName('media').execute({}, context)).resolves.toEqual({
      content:
        'Here:\n[image: image/png, 5 bytes]\n[resource link: report file:///report.pdf (application/pdf)]',
      media: [{ mediaType: 'image/png', data: { base64: 'aGVsbG8=' } }],
    });
    expect(() => byName('usersRegisteredOn').parseArguments('{"date":"soon"}')).toThrow(/pattern/);
    expect(byName('usersRegisteredOn').inputSchema).not.toHaveProperty('$schema');
  });

  it('gives the model the image of a result as media, unless told to describe it', async () => {
    const image = { mediaType: 'image/png', data: { base64: 'aGVsbG8=' } };
    const text =
      'Here:\n[image: image/png, 5 bytes]\n[resource link: report file:///report.pdf (application/pdf)]';
    const roundTwo = async (options: {
      resultMedia?: 'attach' | 'describe';
      maxResultMediaBytes?: number;
    }) => {
      const model = MockChatModel.script([
        { toolCalls: [{ name: 'media', arguments: {} }] },
        { text: 'Seen.' },
      ]);
      const client = ChatClient.builder(model)
        .defaultTools(...(await sourceFor(options).listTools()))
        .build();
      await lastValueFrom(client.prompt('Show me.').call().content());
      return toolResults(model.requests[1]);
    };

    expect(await roundTwo({})).toEqual([
      { role: 'tool', toolCallId: 'call_1_0', name: 'media', content: text, media: [image] },
    ]);
    expect(await roundTwo({ resultMedia: 'describe' })).toStrictEqual([
      { role: 'tool', toolCallId: 'call_1_0', name: 'media', content: text },
    ]);
    const [tooBig] = await roundTwo({ maxResultMediaBytes: 4 });
    expect(tooBig).toMatchObject({ isError: true });
    expect(tooBig?.media).toBeUndefined();
    expect(tooBig?.content).toMatch(
      /5 bytes of images and files, more than maxResultMediaBytes \(4\)/,
    );
  });

  it('gives the model an error result for isError and lets the loop go on', async () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'fail', arguments: {} }] },
      { text: 'Sorry, the database is down.' },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(...(await sourceFor().listTools()))
      .build();

    const text = await lastValueFrom(client.prompt('x').call().content());

    expect(text).toBe('Sorry, the database is down.');
    const [result] = toolResults(model.requests[1]);
    expect(result?.isError).toBe(true);
    expect(result?.content).toContain('The database is down.');
  });

  it('sends the marked toolContext values as _meta, and reports progress', async () => {
    const events: McpProgressEvent[] = [];
    const tools = await sourceFor({
      metaKeys: ['userId'],
      onProgress: (e) => events.push(e),
    }).listTools();
    const model = MockChatModel.script([
      {
        toolCalls: [
          { name: 'echoMeta', arguments: {} },
          { name: 'progress', arguments: { steps: 2 } },
        ],
      },
      { text: 'ok' },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(...tools)
      .build();

    await lastValueFrom(
      client.prompt('x').toolContext({ userId: 7, secret: 's' }).call().content(),
    );

    const [meta, progress] = toolResults(model.requests[1]);
    expect(JSON.parse(meta?.content ?? '{}')).toMatchObject({ userId: 7 });
    expect(meta?.content).not.toContain('secret');
    expect(progress?.content).toBe('2 steps');
    expect(events.map((e) => [e.toolName, e.progress, e.total, e.message])).toEqual([
      ['progress', 1, 2, 'step 1'],
      ['progress', 2, 2, 'step 2'],
    ]);
  });

  it.each([true, false])(
    'the advisor sends progress as transient data chunks (emitProgress: %s)',
    async (emitProgress) => {
      const model = MockChatModel.script([
        { toolCalls: [{ id: 'call-1', name: 'progress', arguments: { steps: 2 } }] },
        { text: 'done' },
      ]);
      const client = ChatClient.builder(model)
        .defaultAdvisors(mcpToolsAdvisor({ source: sourceFor(), emitProgress }))
        .build();

      const chunks = await lastValueFrom(client.prompt('x').stream().chunks().pipe(toArray()));

      const data = chunks.filter((c) => c.type === 'data');
      expect(data).toEqual(
        emitProgress
          ? [1, 2].map((step) => ({
              type: 'data',
              name: 'tool-progress',
              id: 'call-1',
              transient: true,
              data: {
                toolName: 'progress',
                toolCallId: 'call-1',
                progress: step,
                total: 2,
                message: `step ${step}`,
              },
            }))
          : [],
      );
      expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
      expect(toolResults(model.requests[1])[0]?.content).toBe('2 steps');
    },
  );

  it('re-lists the tools after notifications/tools/list_changed', async () => {
    const source = sourceFor();
    const before = await source.listTools();
    const addTool = before.find((t) => t.name === 'addTool')!;
    const context = { values: {}, signal: new AbortController().signal, toolCallId: 'c', round: 1 };

    const hasExtra = (tools: readonly { name: string }[]) =>
      tools.some((t) => /^extra\d+$/.test(t.name));

    await addTool.execute({}, context);
    // The notification arrives on the session's event stream, a moment after the call.
    let after = await source.listTools();
    for (let i = 0; i < 100 && !hasExtra(after); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await source.listTools();
    }

    expect(hasExtra(before)).toBe(false);
    expect(hasExtra(after)).toBe(true);
  });

  it('cancels the MCP request when the tool times out, and the model sees the timeout', async () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'slow', arguments: { ms: 30_000 } }] },
      { text: 'too slow' },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(...(await sourceFor().listTools()))
      .defaultAdvisors(new ToolCallingAdvisor({ toolTimeout: 200 }))
      .build();
    const cancelledBefore = cancelled.length;

    const text = await lastValueFrom(client.prompt('x').call().content());

    expect(text).toBe('too slow');
    expect(toolResults(model.requests[1])[0]?.isError).toBe(true);
    await waitFor(() => cancelled.length > cancelledBefore);
  });

  it('sends notifications/cancelled when the chat stream is unsubscribed', async () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'slow', arguments: { ms: 30_000 } }] },
    ]);
    const client = ChatClient.builder(model)
      .defaultTools(...(await sourceFor().listTools()))
      .build();
    const cancelledBefore = cancelled.length;

    const subscription = client.prompt('x').stream().chunks().subscribe();
    await waitFor(() => model.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    subscription.unsubscribe();

    await waitFor(() => cancelled.length > cancelledBefore);
  });

  it('uses a client the caller connected, and never closes it', async () => {
    const client = new Client({ name: 'caller', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const source = new McpToolSource({ server: { client } });

    expect((await source.listTools()).length).toBeGreaterThan(5);
    await source.close();

    await expect(client.ping()).resolves.toBeDefined();
    await expect(source.listTools()).rejects.toThrow(McpConnectionError);
    await client.close();
  });

  it('rejects with a McpConnectionError when the server is unreachable, and retries later', async () => {
    const source = sourceFor({ server: { url: 'http://127.0.0.1:9/mcp' }, connectTimeout: 2_000 });

    const error: unknown = await source.listTools().catch((e: unknown) => e);

    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect((error as McpConnectionError).server).toBe('http: http://127.0.0.1:9/mcp');
    await expect(source.listTools()).rejects.toThrow(/could not be connected/);
  });

  it('fails the call (not the process) when the advisor cannot reach its server', async () => {
    const model = MockChatModel.script([{ text: 'never' }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(mcpToolsAdvisor({ server: { url: 'http://127.0.0.1:9/mcp' } }))
      .build();

    const error: unknown = await firstValueFrom(
      client.prompt('x').stream().chunks().pipe(toArray()),
    ).catch((e: unknown) => e);

    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect(model.requests).toHaveLength(0);
  });
});
