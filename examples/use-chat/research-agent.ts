import { agentTool, ChatClient, type ChatModel, type Tool } from 'rx-advisors';
import { MockChatModel } from 'rx-advisors/testing';

/** What the offline researcher answers for a task: a short paragraph, streamed word by word. */
export function researchNotes(task: string): string {
  return `Notes on ${task}: three sources agree, and the newest one is from this year.`;
}

/**
 * The researcher agent's model when no API key is set: `MockChatModel.respond`, answering the
 * task it is given with {@link researchNotes}, one word per `interval` ms (RxJS time), so
 * its progress is visible on the page.
 *
 * @example
 * ```ts
 * const researcher = ChatClient.create(createResearcherModel({ interval: 40 }));
 * ```
 * @param options Pacing.
 * @returns A new model.
 */
export function createResearcherModel(options: { interval?: number } = {}): ChatModel {
  const { interval = 40 } = options;
  return MockChatModel.respond(
    (request) => ({ text: researchNotes(request.lastUserText ?? ''), interval }),
    { provider: 'offline', model: 'offline-researcher' },
  );
}

/**
 * The `research({ task })` tool: a researcher agent (a `ChatClient` of its own, with its own
 * system text and model) that the chat's model calls like any tool (`agentTool`). Its chunks
 * reach the chat's stream as it writes; the route turns them into `data-agent-progress`
 * parts (`agentProgress()`), and the chat's model reads only its final text.
 *
 * @example
 * ```ts
 * const research = createResearchTool(createResearcherModel());
 * ```
 * @param model The researcher's model.
 * @returns The tool.
 */
export function createResearchTool(model: ChatModel): Tool<{ task: string }> {
  const researcher = ChatClient.builder(model)
    .defaultSystem('You research one question and answer in one short paragraph.')
    .build();
  return agentTool({
    client: researcher,
    name: 'research',
    description: 'A researcher agent: finds out about a topic and answers in one paragraph.',
  });
}
