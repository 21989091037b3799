import type { IncomingMessage } from 'node:http';

/** The longest user message the chat endpoint accepts, in characters. */
export const MAX_MESSAGE_LENGTH = 4000;
const MAX_BODY_BYTES = 64 * 1024;

/** One decision on a tool call awaiting approval, as the page sends it. */
export interface ChatDecision {
  approvalId: string;
  approved: boolean;
  reason?: string;
}

/** The most decisions one request may carry. */
const MAX_DECISIONS = 20;

/** Why a chat request was refused: the HTTP status and a message saying what to send. */
export interface BadChatRequest {
  status: number;
  error: string;
}

/**
 * Reads the `{ "message": "…" }` or `{ "decisions": [{ approvalId, approved, reason? }] }`
 * body of `POST /api/chat`.
 * @param req The request (its content type was checked by the caller).
 * @returns The message or the decisions, or why it was refused (400 not JSON or no message,
 *   413 too long).
 */
export async function readChatMessage(
  req: IncomingMessage,
): Promise<string | ChatDecision[] | BadChatRequest> {
  const body = await readBody(req);
  if (typeof body !== 'string') return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { status: 400, error: 'The body is not JSON. Send {"message": "…"}.' };
  }
  const decisions =
    typeof parsed === 'object' && parsed !== null
      ? (parsed as Record<string, unknown>)['decisions']
      : undefined;
  if (decisions !== undefined) return readDecisions(decisions);
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

function readDecisions(value: unknown): ChatDecision[] | BadChatRequest {
  const bad = {
    status: 400,
    error:
      'Send "decisions" as a non-empty array of {"approvalId": "…", "approved": true|false, "reason"?: "…"}.',
  };
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_DECISIONS) return bad;
  const decisions: ChatDecision[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return bad;
    const { approvalId, approved, reason } = item as Record<string, unknown>;
    if (typeof approvalId !== 'string' || typeof approved !== 'boolean') return bad;
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > 500)) return bad;
    decisions.push({ approvalId, approved, ...(reason === undefined ? {} : { reason }) });
  }
  return decisions;
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
