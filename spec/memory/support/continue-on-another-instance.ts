import { lastValueFrom } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type ChatMemoryRepository,
  type Message,
} from '../../../lib/index';
import { MockChatModel } from '../../../lib/testing/index';

/**
 * One turn through a ChatClient with memory on `repository` (one "instance"); returns the
 * messages the model was sent.
 */
export async function turnOn(
  repository: ChatMemoryRepository,
  prompt: string,
  answer: string,
): Promise<readonly Message[]> {
  const model = MockChatModel.script([{ text: answer }]);
  const chatMemory = new MessageWindowChatMemory({ maxMessages: 40, repository });
  const client = ChatClient.builder(model)
    .defaultSystem('Be brief.')
    .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
    .build();
  await lastValueFrom(
    client.prompt(prompt).advisorParams({ conversationId: 'ada' }).call().content(),
  );
  return model.requests[0]?.messages ?? [];
}

/** The request instance B sends after instance A answered one turn. */
export const continuedOnB: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'I am Ada.' },
  { role: 'assistant', content: 'Hello Ada.' },
  { role: 'user', content: 'Who am I?' },
];
