import type { UIMessage } from 'ai';

/** What the server sends as `messageMetadata` on `finish` (usage, model, model calls). */
export interface AnswerMetadata {
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  model?: string;
  rounds?: number;
}

/** The data parts the server sends: `data-status` (see `model-call-status.ts`). */
export type ExampleDataParts = {
  status: { call: number; toolResults: number };
};

/** The UI message type of this page: `useChat`'s `UIMessage` with our metadata and data parts. */
export type ExampleMessage = UIMessage<AnswerMetadata, ExampleDataParts>;
