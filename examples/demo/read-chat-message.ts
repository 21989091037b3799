import type { IncomingMessage } from 'node:http';

/** The longest user message the chat endpoint accepts, in characters. */
export const MAX_MESSAGE_LENGTH = 4000;
const MAX_BODY_BYTES = 64 * 1024;

/** Why a chat request was refused: the HTTP status and a message saying what to send. */
export interface BadChatRequest {
  status: number;
  error: string;
}

/**
 * Reads the `{ "message": "…" }` body of `POST /api/chat`.
 * @param req The request (its content type was checked by the caller).
 * @returns The message, or why it was refused (400 not JSON or no message, 413 too long).
 */
export async function readChatMessage(req: IncomingMessage): Promise<string | BadChatRequest> {
  const body = await readBody(req);
  if (typeof body !== 'string') return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { status: 400, error: 'The body is not JSON. Send {"message": "…"}.' };
  }
  const message =
    typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)['message']
      : undefined;
  if (typeof message !== 'string' || message.trim() === '') {
    return { status: 400, error: 'Send a non-empty "message" string: {"message": "…"}.' };
  }
  if (message.length > MAX_MESSAGE_LENGTH) {
    return {
      status: 413,
      error: `The message has ${message.length} characters; at most ${MAX_MESSAGE_LENGTH} are accepted.`,
    };
  }
  return message;
}

async function readBody(req: IncomingMessage): Promise<string | BadChatRequest> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) {
      return { status: 413, error: `The body is larger than ${MAX_BODY_BYTES} bytes.` };
    }
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}
