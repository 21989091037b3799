// Consumer check of `rx-advisors/run` (see root.ts).
import { ChatClient, type ChatModel } from 'rx-advisors';
import {
  DurableRunAdvisor,
  DurableRunError,
  InMemoryRunJournal,
  RunJournalError,
  type RunJournal,
} from 'rx-advisors/run';

export function durable(
  model: ChatModel,
  journal: RunJournal = new InMemoryRunJournal(),
): ChatClient {
  return ChatClient.builder(model).defaultAdvisors(new DurableRunAdvisor({ journal })).build();
}

export function resumable(error: unknown): boolean {
  return !RunJournalError.isInstance(error) && !DurableRunError.isInstance(error);
}
