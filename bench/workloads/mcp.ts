import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ChatClient, ToolCallingAdvisor, type Tool } from 'rx-advisors';
import { McpToolSource } from 'rx-advisors/mcp';
import { collectText, noopTool } from '../adapters/rx-advisors.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { roundOf, textChunks, TOOL_NAME, toolRoundChunks } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { interleave } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import { quartiles } from '../harness/stats.js';
import type { BenchAdapter } from '../harness/types.js';
import type { BenchConfig } from './config.js';

type Variant = 'local' | 'mcp-stdio' | 'mcp-http';

/** The bench's MCP server: one tool, named like the local one, answering `ok`. */
function noopServer(): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(TOOL_NAME, { description: 'Does nothing' }, () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
  return server;
}

// The same server as a child process (plain CommonJS, so no TypeScript loader per call).
const STDIO_SERVER = `
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const server = new McpServer({ name: 'bench', version: '1.0.0' });
server.registerTool(${JSON.stringify(TOOL_NAME)}, { description: 'Does nothing' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
void server.connect(new StdioServerTransport());
`;

/** The server over Streamable HTTP on loopback, stateless (a server per request). */
async function startHttp(): Promise<{ url: string; http: Server }> {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const transport = new StreamableHTTPServerTransport({});
      const body: unknown =
        chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      res.on('close', () => void transport.close());
      void noopServer()
        .connect(transport)
        .then(() => transport.handleRequest(req, res, body));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, http };
}

/** A tool loop of `rounds` rounds over `tool`, timed on the wall clock (the tool is I/O). */
function loopAdapter(
  variant: Variant,
  tool: Tool,
  rounds: number,
): BenchAdapter & { run(): Promise<number> } {
  const fixture = textFixture(20);
  const final = textChunks(fixture);
  const client = ChatClient.builder(
    new BenchChatModel({
      script: (_call, request) =>
        roundOf(request) <= rounds ? toolRoundChunks(roundOf(request)) : final,
    }),
  )
    .defaultAdvisors(new ToolCallingAdvisor({ maxRounds: rounds + 1 }))
    .defaultTools(tool)
    .build();
  const fail = () => Promise.reject(new Error('not part of the MCP workload'));
  return {
    framework: 'rx-advisors',
    passThroughLabel: variant,
    toolLoopLabel: variant,
    stream: fail,
    toolLoop: fail,
    parked: fail,
    firstChunk: fail,
    async run() {
      const started = performance.now();
      const text = await collectText(client.prompt('Hi').stream().content());
      const elapsed = performance.now() - started;
      if (text !== fixture.text) throw new Error(`MCP ${variant}: final text mismatch`);
      return (elapsed * 1e3) / rounds;
    },
  };
}

/**
 * MCP overhead (`npm run bench -- --only=MCP`): W2's tool loop (20 rounds, one tool call a
 * round) with the local `noop` tool, and with the same tool served by a real MCP server
 * over stdio (a child process) and over Streamable HTTP (loopback, stateless). µs per
 * round on the wall clock; the difference to `local` is the per-call cost of MCP.
 */
export async function runMcp(config: BenchConfig, report: Report): Promise<void> {
  const rounds = config.w2Rounds[0] ?? 20;
  const { url, http } = await startHttp();
  const stdio = new McpToolSource({
    server: {
      command: process.execPath,
      args: ['-e', STDIO_SERVER],
      cwd: join(__dirname, '..', '..'),
    },
  });
  const remote = new McpToolSource({ server: { url } });
  try {
    const [[stdioTool], [httpTool]] = await Promise.all([stdio.listTools(), remote.listTools()]);
    const variants = [
      loopAdapter('local', noopTool, rounds),
      loopAdapter('mcp-stdio', stdioTool, rounds),
      loopAdapter('mcp-http', httpTool, rounds),
    ];
    const plan = { warmup: Math.min(config.w2Plan.warmup, 20), samples: config.w2Plan.samples };
    const samples = await interleave(
      variants,
      () => plan,
      (adapter) => (adapter as (typeof variants)[number]).run(),
      false,
    );
    for (const adapter of variants) {
      const values = samples.get(adapter) ?? [];
      if (values.length === 0) continue;
      report.addRow({
        workload: 'W2',
        params: { rounds, tool: adapter.toolLoopLabel },
        framework: 'rx-advisors',
        metric: 'us-per-round',
        ...quartiles(values),
      });
    }
    report.note(
      'W2 MCP: the tool loop with the local noop tool, and the same tool over MCP stdio (child process) and Streamable HTTP (loopback); wall clock, so the server side and the transport are included',
    );
  } finally {
    await Promise.all([stdio.close(), remote.close()]);
    http.closeAllConnections();
    http.close();
  }
}
