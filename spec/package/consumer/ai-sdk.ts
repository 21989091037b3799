// Consumer check of `rx-advisors/ai-sdk` (see root.ts and openai.ts). Only the peer
// `@ai-sdk/provider` is installed here, so the model is written against its V3 type (a
// provider package such as @ai-sdk/google gives the same shape).
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ChatModel } from 'rx-advisors';
import { AiSdkChatModel, type AiSdkLanguageModel } from 'rx-advisors/ai-sdk';

const languageModel: LanguageModelV3 = {
  specificationVersion: 'v3',
  provider: 'acme',
  modelId: 'acme-1',
  supportedUrls: {},
  doGenerate: () => Promise.reject(new Error('not used')),
  doStream: () => Promise.reject(new Error('not used')),
};
const accepted: AiSdkLanguageModel = languageModel;
export const model: ChatModel = new AiSdkChatModel({ model: accepted });
