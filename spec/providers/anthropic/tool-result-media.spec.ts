// A tool (local, or from a real MCP server) returns an image: through the tool loop and the
// real @anthropic-ai/sdk, round 2's request carries it as a tool_result image block.
import { lastValueFrom } from 'rxjs';
import { McpToolSource } from 'rx-advisors/mcp';
import { ChatClient } from '../../../lib/client/chat-client.js';
import type { ToolResultContent } from '../../../lib/core/tool-result-content.js';
import { AnthropicChatModel } from '../../../lib/providers/anthropic/index.js';
import { tool } from '../../../lib/tools/tool-fn.js';
import { startHttpServer, type TestHttpServer } from '../../mcp/fixtures/http-server.js';
import { anthropicClient } from '../support/clients.js';
import { framesFromLines } from '../support/fixtures.js';
import { PNG_BASE64, PNG_BYTES } from '../support/media.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { syntheticAnthropicText } from '../support/synthetic-streams.js';

jest.setTimeout(20_000);

/** An Anthropic stream that calls `name` with `input`. */
function anthropicToolCall(name: string, input: object): string {
  return framesFromLines('anthropic', [
    JSON.stringify({
      type: 'message_start',
      message: {
        id: 'msg_tool',
        type: 'message',
        role: 'assistant',
        model: 'claude-synthetic',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 1 },
      },
    }),
    JSON.stringify({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_1', name, input: {} },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
    }),
    JSON.stringify({ type: 'content_block_stop', index: 0 }),
    JSON.stringify({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 9 },
    }),
    JSON.stringify({ type: 'message_stop' }),
  ]);
}

describe('AnthropicChatModel: a tool result with an image, through the tool loop', () => {
  let server: ReplayServer;
  let mcp: TestHttpServer;
  beforeAll(async () => {
    server = await startReplayServer();
    mcp = await startHttpServer();
  });
  afterAll(async () => {
    await Promise.all([server.close(), mcp.close()]);
  });

  const model = (): AnthropicChatModel =>
    new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' });

  it("sends a tool's image as an image block of its tool_result", async () => {
    server.enqueue(
      { kind: 'sse', body: anthropicToolCall('screenshot', { page: 'sales' }) },
      { kind: 'sse', body: syntheticAnthropicText('Sales are up.') },
    );
    const screenshot = tool({
      name: 'screenshot',
      description: 'A screenshot of a dashboard page',
      parameters: { type: 'object', properties: { page: { type: 'string' } }, required: ['page'] },
      execute: ({ page }) => ({ page, png: PNG_BYTES }),
      resultConverter: ({ page, png }): ToolResultContent => ({
        content: `The ${page} page.`,
        media: [{ mediaType: 'image/png', data: { bytes: png } }],
      }),
    });
    const before = server.requests.length;

    const text = await lastValueFrom(
      ChatClient.create(model()).prompt('How are sales?').tools(screenshot).call().content(),
    );

    expect(text).toBe('Sales are up.');
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1].body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: 'The sales page.' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
            },
          ],
        },
      ],
    });
  });

  it('sends the image an MCP tool returned (official SDK client, real server)', async () => {
    server.enqueue(
      { kind: 'sse', body: anthropicToolCall('media', {}) },
      { kind: 'sse', body: syntheticAnthropicText('A picture and a report.') },
    );
    const source = new McpToolSource({ server: { url: mcp.url } });
    try {
      const tools = (await source.listTools()).filter((t) => t.name === 'media');
      const before = server.requests.length;

      const text = await lastValueFrom(
        ChatClient.create(model())
          .prompt('What is there?')
          .tools(...tools)
          .call()
          .content(),
      );

      expect(text).toBe('A picture and a report.');
      expect(server.requests.slice(before)[1]?.body.messages.at(-1).content).toEqual([
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            {
              type: 'text',
              text:
                'Here:\n[image: image/png, 5 bytes]\n' +
                '[resource link: report file:///report.pdf (application/pdf)]',
            },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: 'aGVsbG8=' },
            },
          ],
        },
      ]);
    } finally {
      await source.close();
    }
  });
});
