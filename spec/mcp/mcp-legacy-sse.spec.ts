import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { lastValueFrom } from 'rxjs';
import { ChatClient, type ToolMessage } from 'rx-advisors';
import { McpToolSource } from 'rx-advisors/mcp';
import { MockChatModel } from 'rx-advisors/testing';
import { buildTestServer, TODAY } from './fixtures/test-mcp-server.js';

describe('MCP tools over the legacy HTTP+SSE transport', () => {
  it('lists and calls tools, and watchListChanged: false keeps the list until refresh()', async () => {
    const transports = new Map<string, SSEServerTransport>();
    const http = createServer((req, res) => {
      if (req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        void buildTestServer().connect(transport);
        return;
      }
      const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
      void transports.get(id)?.handlePostMessage(req, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`;
    const source = new McpToolSource({
      server: { url, transport: 'sse' },
      watchListChanged: false,
    });
    try {
      const model = MockChatModel.script([
        {
          toolCalls: [
            { name: 'today', arguments: {} },
            { name: 'addTool', arguments: {} },
          ],
        },
        { text: 'ok' },
      ]);
      const tools = await source.listTools();
      const client = ChatClient.builder(model)
        .defaultTools(...tools)
        .build();

      await lastValueFrom(client.prompt('x').call().content());

      const results = model.requests[1]?.messages.filter(
        (m): m is ToolMessage => m.role === 'tool',
      );
      expect(results?.map((m) => m.content)).toEqual([TODAY, 'added extra1']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await source.listTools()).toBe(tools);
      source.refresh();
      expect((await source.listTools()).map((t) => t.name)).toContain('extra1');
    } finally {
      await source.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
