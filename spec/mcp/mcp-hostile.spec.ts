import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { lastValueFrom } from 'rxjs';
import { ChatClient, ToolCallingAdvisor } from 'rx-advisors';
import { MockChatModel } from 'rx-advisors/testing';
import { McpConnectionError, McpToolError, McpToolSource } from 'rx-advisors/mcp';

const context = () => ({
  values: {},
  signal: new AbortController().signal,
  toolCallId: 'c',
  round: 1,
});

async function hostile(
  tools: () => Record<string, unknown>[],
  answer: (name: string, signal: AbortSignal) => unknown,
  onServer?: (server: Server, serverSide: InMemoryTransport) => void,
) {
  const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools() }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (request, extra) => answer(request.params.name, extra.signal) as never,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  onServer?.(server, serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('MCP hostile servers (issue 30, point 12)', () => {
  it('10,000 tools: a clear error at the maxTools limit', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      name: `t${i}`,
      inputSchema: { type: 'object' },
    }));
    const client = await hostile(
      () => many,
      () => ({ content: [] }),
    );
    const error = await new McpToolSource({ server: { client } })
      .listTools()
      .catch((e: unknown) => e);
    expect(String(error)).toContain('maxTools');
  });

  it('tools named __proto__ and constructor are ordinary tools, no prototype is touched', async () => {
    const client = await hostile(
      () => [
        { name: '__proto__', inputSchema: { type: 'object' } },
        { name: 'constructor', inputSchema: { type: 'object' } },
      ],
      (name) => ({ content: [{ type: 'text', text: `ran ${name}` }] }),
    );
    const tools = await new McpToolSource({ server: { client } }).listTools();
    expect(tools.map((t) => t.name)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(await tools[0].execute({}, context()))).toContain('ran __proto__');
    expect(JSON.stringify(await tools[1].execute({}, context()))).toContain('ran constructor');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a deeply nested input schema fails the listing with a clear error naming the tool, never a stack overflow', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5_000; i++) schema = { type: 'object', properties: { a: schema } };
    const client = await hostile(
      () => [{ name: 'deep', inputSchema: schema }],
      () => ({ content: [] }),
    );
    const error = await new McpToolSource({ server: { client } })
      .listTools()
      .catch((e: unknown) => e);
    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect(String(error)).toContain('"deep"');
    expect(String(error)).toContain('maxSchemaDepth (64)');
    expect(String(error)).not.toContain('call stack');
    const shallow = await hostile(
      () => [
        { name: 'ok', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
      ],
      () => ({ content: [] }),
    );
    expect(await new McpToolSource({ server: { client: shallow } }).listTools()).toHaveLength(1);
  });

  it('a self-referencing ($ref) input schema is accepted: the tool runs with nested arguments, wrong ones are refused, nothing recurses without end', async () => {
    // A tree: each node's children are nodes again (`$ref` into `$defs`), and a root that
    // refers to itself (`$ref: '#'`). Valid JSON Schema, finite as JSON, infinite if expanded.
    const tree = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
      $defs: {
        node: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['label'],
        },
      },
    };
    const self = { type: 'object', properties: { next: { $ref: '#' }, n: { type: 'number' } } };
    const received: unknown[] = [];
    const client = await hostile(
      () => [
        { name: 'tree', inputSchema: tree },
        { name: 'chain', inputSchema: self },
      ],
      (name) => ({ content: [{ type: 'text', text: `ran ${name}` }] }),
    );
    const tools = await new McpToolSource({ server: { client } }).listTools();
    expect(tools.map((t) => t.name)).toEqual(['tree', 'chain']);
    let nested: Record<string, unknown> = { label: 'leaf' };
    for (let i = 0; i < 20; i++) nested = { label: `n${i}`, children: [nested] };
    let chain: Record<string, unknown> = { n: 0 };
    for (let i = 1; i < 20; i++) chain = { n: i, next: chain };
    // Arguments as deep as the recursive schema allows (unbounded): the JSON depth limit holds.
    const abyss = `${'{"next":'.repeat(5_000)}{"n":0}${'}'.repeat(5_000)}`;
    const model = MockChatModel.script([
      {
        toolCalls: [
          { name: 'tree', arguments: { root: nested } },
          { name: 'chain', arguments: chain },
          { name: 'tree', arguments: { root: { children: [{ label: 1 }] } } },
          { name: 'chain', arguments: abyss },
        ],
      },
      { text: 'done' },
    ]);
    const chat = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor())
      .defaultTools(...tools)
      .build();
    expect(await lastValueFrom(chat.prompt('Go').call().content())).toBe('done');
    const results = model.requests[1].messages.filter((m) => m.role === 'tool');
    received.push(...results.map((m) => (m as { content: string }).content));
    expect(received[0]).toContain('ran tree');
    expect(received[1]).toContain('ran chain');
    // The third call breaks the schema inside the recursion: refused before the server sees it.
    expect(received[2]).not.toContain('ran tree');
    expect(received[2]).toContain('/root/children/0/label: must be string');
    expect(results[2]).toMatchObject({ isError: true });
    expect(received[3]).not.toContain('ran chain');
    expect(results[3]).toMatchObject({ isError: true });
    expect(received[3]).toContain('maxDepth 64');
    expect(received[3]).not.toContain('call stack');
  });

  it('a tool that never answers: aborting the call cancels it on the server', async () => {
    let cancelled = false;
    const client = await hostile(
      () => [{ name: 'hang', inputSchema: { type: 'object' } }],
      (_name, signal) =>
        new Promise(() => signal.addEventListener('abort', () => (cancelled = true))),
    );
    const [hang] = await new McpToolSource({ server: { client } }).listTools();
    const controller = new AbortController();
    const call = Promise.resolve(
      hang.execute({}, { ...context(), signal: controller.signal }),
    ).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await call).toBeInstanceOf(Error);
    for (let i = 0; i < 50 && !cancelled; i++) await new Promise((r) => setTimeout(r, 20));
    expect(cancelled).toBe(true);
  });

  it('a server that crashes mid-call: the call fails with an error, the process goes on', async () => {
    let transport: InMemoryTransport | undefined;
    const client = await hostile(
      () => [{ name: 'crash', inputSchema: { type: 'object' } }],
      () => {
        setTimeout(() => void transport?.close(), 10);
        return new Promise(() => {});
      },
      (_server, serverSide) => (transport = serverSide),
    );
    const [crash] = await new McpToolSource({ server: { client } }).listTools();
    const error = await Promise.resolve(crash.execute({}, context())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
  });

  it('a 50 MB result is an McpToolError (too-long), not a 50 MB prompt', async () => {
    const client = await hostile(
      () => [{ name: 'big', inputSchema: { type: 'object' } }],
      () => ({ content: [{ type: 'text', text: 'x'.repeat(50 * 1024 * 1024) }] }),
    );
    const [big] = await new McpToolSource({ server: { client } }).listTools();
    const error = await Promise.resolve(big.execute({}, context())).catch((e: unknown) => e);
    expect(McpToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'too-long' });
  });

  it('a list_changed storm does not make a listing per notification', async () => {
    let listings = 0;
    let server: Server | undefined;
    const client = await hostile(
      () => {
        listings++;
        return [{ name: 'a', inputSchema: { type: 'object' } }];
      },
      () => ({ content: [] }),
      (s) => (server = s),
    );
    const source = new McpToolSource({ server: { client } });
    await source.listTools();
    for (let i = 0; i < 1000; i++) void server?.sendToolListChanged();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.all([source.listTools(), source.listTools(), source.listTools()]);
    expect(listings).toBeLessThanOrEqual(3);
  });

  it("a tool that never answers: the loop's toolTimeout cancels it on the server", async () => {
    let cancelled = false;
    const client = await hostile(
      () => [{ name: 'hang', inputSchema: { type: 'object' } }],
      (_name, signal) =>
        new Promise(() => signal.addEventListener('abort', () => (cancelled = true))),
    );
    const tools = await new McpToolSource({ server: { client } }).listTools();
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'hang', arguments: {} }] },
      { text: 'It timed out.' },
    ]);
    const chat = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor({ toolTimeout: 100 }))
      .defaultTools(...tools)
      .build();
    expect(await lastValueFrom(chat.prompt('Go').call().content())).toBe('It timed out.');
    for (let i = 0; i < 50 && !cancelled; i++) await new Promise((r) => setTimeout(r, 20));
    expect(cancelled).toBe(true);
  });
});
