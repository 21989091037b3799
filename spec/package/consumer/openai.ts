// Consumer check of `rx-advisors/openai` (see root.ts): the SDK client a consumer builds must
// be the type the declarations expect, in ESM as in CommonJS (issue 14, point 1).
import OpenAI from 'openai';
import type { ChatModel } from 'rx-advisors';
import { OpenAiChatModel } from 'rx-advisors/openai';

export const model: ChatModel = new OpenAiChatModel({
  client: new OpenAI({ apiKey: 'sk-test' }),
  model: 'gpt-4o-mini',
});
