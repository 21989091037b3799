import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { ChatClient, type ToolMessage } from 'rx-advisors';
import { MockChatModel } from 'rx-advisors/testing';
import { startDemoMcpTools } from '../../examples/demo/demo-mcp-tools.js';
import { startHttpServer, type TestHttpServer } from './fixtures/http-server.js';
import { TODAY } from './fixtures/test-mcp-server.js';

describe('the demo loads MCP tools from MCP_SERVERS or MCP_CONFIG', () => {
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startHttpServer();
  });
  afterAll(() => server.close());

  it('adds nothing without either variable', async () => {
    const mcp = await startDemoMcpTools({});
    expect(mcp.advisors).toEqual([]);
    expect(mcp.description).toBeUndefined();
  });

  it.each(['MCP_SERVERS', 'MCP_CONFIG'])(
    'offers the tools of the servers in %s',
    async (variable) => {
      const json = JSON.stringify([{ url: server.url, prefix: 'demo_' }]);
      const file = join(mkdtempSync(join(tmpdir(), 'rx-advisors-demo-mcp-')), 'mcp.json');
      writeFileSync(file, json);
      const mcp = await startDemoMcpTools(
        variable === 'MCP_SERVERS' ? { MCP_SERVERS: json } : { MCP_CONFIG: file },
      );
      const model = MockChatModel.script([{ toolCalls: [{ name: 'demo_today' }] }, { text: 'ok' }]);
      const client = ChatClient.builder(model)
        .defaultAdvisors(...mcp.advisors)
        .build();

      await lastValueFrom(client.prompt('date?').call().content());

      const results = model.requests[1]?.messages.filter(
        (m): m is ToolMessage => m.role === 'tool',
      );
      expect(results?.map((m) => m.content)).toEqual([TODAY]);
      expect(mcp.description).toBe(`http: ${server.url}`);
      await mcp.close();
    },
  );

  it('names the expected shape when the config is wrong', async () => {
    await expect(startDemoMcpTools({ MCP_SERVERS: '[{"prefix":"x"}]' })).rejects.toThrow(
      /JSON array of \{ "command", "args"\? \} or \{ "url" \}/,
    );
  });
});
