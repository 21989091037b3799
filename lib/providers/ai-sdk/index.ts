// rx-advisors/ai-sdk: a ChatModel over any AI SDK language model (specification V3 or V2).
// The AI SDK provider packages are optional peer dependencies, imported here as types only.
export { AiSdkChatModel, type AiSdkChatModelOptions } from './ai-sdk-chat-model.js';
export type { AiSdkLanguageModel } from './ai-sdk-language-model.js';
export {
  AiSdkEmbeddingModel,
  type AiSdkEmbeddingModelOptions,
  type AiSdkEmbeddingModelSpec,
} from './ai-sdk-embedding-model.js';
