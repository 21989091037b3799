import type { UIMessage } from 'ai';
import type { AgentProgress } from 'rx-advisors';

/** What the server sends as `messageMetadata` on `finish` (usage, model, model calls). */
export interface AnswerMetadata {
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  model?: string;
  rounds?: number;
}

/**
 * The data parts the server sends: `data-status` (see `model-call-status.ts`) and
 * `data-agent-progress` (a nested agent's progress, from `agentProgress()`).
 */
export type ExampleDataParts = {
  status: { call: number; toolResults: number };
  'agent-progress': AgentProgress;
};

/** The UI message type of this page: `useChat`'s `UIMessage` with our metadata and data parts. */
export type ExampleMessage = UIMessage<AnswerMetadata, ExampleDataParts>;
