import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A JSON body as the server received it. Tests walk into it freely and compare it with
 * `toEqual`, which is the assertion that matters, so it is deliberately loose.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WireJson = any;

/** One request the loopback server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (`undefined` when the body was empty). */
  body: WireJson;
}

/** How the server answers one request. */
export type Reply =
  | {
      kind: 'sse';
      /** The complete SSE body. */
      body: string;
      /** Write the body in pieces of this many bytes (default: one write). */
      chunkBytes?: number;
      /**
       * With `chunkBytes`: wait a macrotask between pieces, so the client really reads
       * them one by one instead of in one coalesced TCP read.
       */
      paced?: boolean;
      /** Write the body in two pieces split at this byte offset. */
      splitAt?: number;
      /** Destroy the socket after this many bytes have been written (a dropped connection). */
      dropAfterBytes?: number;
      /**
       * Keep the connection open after writing the body (for unsubscribe and stall tests);
       * with an empty body, the headers alone are sent.
       */
      hold?: boolean;
    }
  | { kind: 'json'; status: number; json: unknown; headers?: Record<string, string> }
  /** A JSON error body built from the request (a server that echoes what it received). */
  | { kind: 'echo'; status: number; json: (request: RecordedRequest) => unknown }
  /** Never answer (not even headers) until the client gives up. */
  | { kind: 'stall' };

/** A loopback HTTP server that answers each request with the next queued reply. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Queues replies, answered in order. */
  enqueue(...replies: Reply[]): void;
  /** Resolves when the client side closes a held or stalled (not yet ended) response. */
  nextClientClose(): Promise<void>;
  /** Resolves when the next request has been received (its body read). */
  nextRequest(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a loopback server on a random port.
 * @returns The running server.
 */
export async function startReplayServer(): Promise<ReplayServer> {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const closeWaiters: (() => void)[] = [];
  const requestWaiters: (() => void)[] = [];

  const onClientClose = (): void => {
    const waiter = closeWaiters.shift();
    waiter?.();
  };

  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text === '' ? undefined : JSON.parse(text),
      });
      requestWaiters.shift()?.();
      const reply = queue.shift();
      if (reply === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'replay server: no reply queued' } }));
        return;
      }
      answer(reply, requests[requests.length - 1], res, onClientClose);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    nextClientClose: () => new Promise<void>((resolve) => closeWaiters.push(resolve)),
    nextRequest: () => new Promise<void>((resolve) => requestWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function answer(
  reply: Reply,
  request: RecordedRequest,
  res: ServerResponse,
  onClientClose: () => void,
): void {
  if (reply.kind === 'stall') {
    res.on('close', onClientClose);
    return;
  }
  if (reply.kind === 'json') {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.json));
    return;
  }
  if (reply.kind === 'echo') {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.json(request)));
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const bytes = Buffer.from(reply.body, 'utf8');
  if (reply.dropAfterBytes !== undefined) {
    res.write(bytes.subarray(0, reply.dropAfterBytes), () => res.socket?.destroy());
    return;
  }
  const parts = pieces(bytes, reply);
  if (reply.paced === true) {
    res.socket?.setNoDelay(true);
    writePaced(res, parts, 0);
    return;
  }
  for (const piece of parts) res.write(piece);
  // With an empty body nothing is written: send the headers anyway (a stall after them).
  if (parts.length === 0) res.flushHeaders();
  if (reply.hold === true) {
    // The response never ends; the client closing the connection is what a test waits for.
    res.on('close', onClientClose);
    return;
  }
  res.end();
}

function writePaced(res: ServerResponse, parts: Buffer[], index: number): void {
  if (index >= parts.length) {
    res.end();
    return;
  }
  res.write(parts[index]);
  setImmediate(() => writePaced(res, parts, index + 1));
}

function pieces(bytes: Buffer, reply: { chunkBytes?: number; splitAt?: number }): Buffer[] {
  if (reply.splitAt !== undefined) {
    return [bytes.subarray(0, reply.splitAt), bytes.subarray(reply.splitAt)];
  }
  const size = reply.chunkBytes ?? bytes.length;
  const result: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    result.push(bytes.subarray(offset, offset + size));
  }
  return result;
}
