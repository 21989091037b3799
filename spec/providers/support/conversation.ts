import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { ChatOptions } from '../../../lib/core/chat-options.js';
import type { Message } from '../../../lib/core/message.js';
import { tool } from '../../../lib/tools/tool-fn.js';

/** The tool both rounds offer. */
export const getTime = tool({
  name: 'getTime',
  description: 'The current time in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: ({ city }) => `12:00 in ${city}`,
});

/**
 * The second round of a tool conversation: the model asked for two tool calls in round
 * one; one tool succeeded, one failed; a second system message comes late on purpose.
 */
export function secondRoundRequest(options: ChatOptions = {}, extra: Message[] = []): ChatRequest {
  return ChatRequest.create({
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What time is it in Paris and Tokyo?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [
          { id: 'call_paris', name: 'getTime', arguments: '{"city":"Paris"}' },
          { id: 'call_tokyo', name: 'getTime', arguments: '{"city":"Tokyo"}' },
        ],
      },
      { role: 'tool', toolCallId: 'call_paris', name: 'getTime', content: '12:00 in Paris' },
      {
        role: 'tool',
        toolCallId: 'call_tokyo',
        name: 'getTime',
        content: 'Tokyo is not available',
        isError: true,
      },
      ...extra,
    ],
    tools: [getTime],
    options,
  });
}
