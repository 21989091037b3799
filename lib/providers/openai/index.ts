// rx-advisors/openai: a ChatModel over the official `openai` SDK (Chat Completions,
// OpenAI-compatible servers, Responses API). The SDK is an optional peer dependency.
export { OpenAiChatModel } from './openai-chat-model.js';
export type { OpenAiApi, OpenAiChatModelOptions } from './openai-chat-model-options.js';
export {
  OpenAiEmbeddingModel,
  type OpenAiEmbeddingModelOptions,
} from './openai-embedding-model.js';
