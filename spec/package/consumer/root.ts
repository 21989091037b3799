// Consumer check of `rx-advisors`: type-checked against the packed tarball in every setup of
// spec/package/consumer-types.spec.ts (ESM and CommonJS nodenext, bundler, oldest TypeScript).
import { ChatClient, tool, type ChatModel, type ChatResponse } from 'rx-advisors';
import type { Observable } from 'rxjs';

const getTime = tool({
  name: 'getTime',
  description: 'The current time in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  } as const,
  execute: ({ city }) => `12:00 in ${city}`,
});

export function ask(model: ChatModel, question: string): Observable<ChatResponse> {
  return ChatClient.builder(model)
    .defaultTools(getTime)
    .build()
    .prompt(question)
    .call()
    .chatResponse();
}
