import { AdvisorParams } from '../advisor-api/advisor-params.js';
import type { ChatRequest } from '../core/chat-request.js';
import { MissingConversationIdError } from '../errors/missing-conversation-id-error.js';

/**
 * The call's conversation id: the `conversationId` advisor param, else the advisor's
 * default; a `MissingConversationIdError` when there is neither.
 * @internal
 */
export function conversationIdOf(
  request: ChatRequest,
  advisor: string,
  defaultConversationId: string | undefined,
): string {
  const value = request.context.get(AdvisorParams.CONVERSATION_ID);
  if (typeof value === 'string' && value !== '') return value;
  if (value === undefined && defaultConversationId !== undefined) return defaultConversationId;
  throw new MissingConversationIdError({ advisor, value });
}
