// Consumer check of `rx-advisors/ai-sdk` (see root.ts and openai.ts).
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { ChatModel } from 'rx-advisors';
import { AiSdkChatModel, type AiSdkLanguageModel } from 'rx-advisors/ai-sdk';

const languageModel: AiSdkLanguageModel = createGoogleGenerativeAI({ apiKey: 'test' })(
  'gemini-2.5-flash',
);
export const model: ChatModel = new AiSdkChatModel({ model: languageModel });
