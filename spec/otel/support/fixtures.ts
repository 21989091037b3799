import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient, tool, type Advisor, type ChatModel, type Tool } from '../../../lib/index';

export const getTime = tool({
  name: 'getTime',
  description: 'The current time in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  } as const,
  execute: ({ city }) => `12:00 in ${city}`,
});

export function client(model: ChatModel, advisors: Advisor[], tools: Tool[] = []): ChatClient {
  const builder = ChatClient.builder(model).defaultAdvisors(...advisors);
  return (tools.length > 0 ? builder.defaultTools(...tools) : builder).build();
}

/** Runs one streamed call to its end; the text, or the error. */
export async function run(
  chat: ChatClient,
  prompt = 'What time is it in Paris?',
): Promise<{ text: string } | { error: unknown }> {
  try {
    const parts = await lastValueFrom(chat.prompt(prompt).stream().content().pipe(toArray()));
    return { text: parts.join('') };
  } catch (error) {
    return { error };
  }
}
