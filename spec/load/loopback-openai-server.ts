// A stateless OpenAI-compatible chat server on loopback for the load test and its bench
// script: a request whose last message is the user's asks for the `echo` tool with the
// chat's id; a request that carries the tool's result answers with it. Every answer is a
// function of the request alone, so a crossed answer (chat A's text in chat B) is visible.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The running server: its base URL (for the SDK's `baseURL`), and a close. */
export interface LoopbackOpenAi {
  readonly baseURL: string;
  /** Chat completion requests answered so far. */
  readonly requests: () => number;
  close(): Promise<void>;
}

interface WireMessage {
  role: string;
  content?: string | null;
}

function frame(body: object): string {
  return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'load', ...body })}\n\n`;
}

function reply(messages: readonly WireMessage[]): string {
  const chat = messages.find((m) => m.role === 'user')?.content ?? '';
  const tool = messages.find((m) => m.role === 'tool');
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const parts =
    tool === undefined
      ? [
          frame({
            choices: [
              {
                index: 0,
                delta: {
                  role: 'assistant',
                  tool_calls: [
                    {
                      index: 0,
                      id: `call-${chat}`,
                      type: 'function',
                      function: { name: 'echo', arguments: JSON.stringify({ chat }) },
                    },
                  ],
                },
                finish_reason: null,
              },
            ],
          }),
          frame({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
        ]
      : [
          frame({
            choices: [
              { index: 0, delta: { role: 'assistant', content: 'answer: ' }, finish_reason: null },
            ],
          }),
          frame({
            choices: [{ index: 0, delta: { content: String(tool.content) }, finish_reason: null }],
          }),
          frame({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
        ];
  return `${parts.join('')}${frame({ choices: [], usage })}data: [DONE]\n\n`;
}

/**
 * Starts the server on 127.0.0.1 and a free port.
 * @returns The server; close it when done.
 */
export async function startLoopbackOpenAi(): Promise<LoopbackOpenAi> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (data: string) => (body += data));
    request.on('end', () => {
      requests++;
      const { messages } = JSON.parse(body) as { messages: WireMessage[] };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(reply(messages));
    });
  });
  server.keepAliveTimeout = 1_000;
  // 2,000 connections arrive at once: a backlog of Node's default 511 would reset some.
  await new Promise<void>((resolve) =>
    server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
