// Consumer check of `rx-advisors/anthropic` (see root.ts and openai.ts).
import Anthropic from '@anthropic-ai/sdk';
import type { ChatModel } from 'rx-advisors';
import { AnthropicChatModel } from 'rx-advisors/anthropic';

export const model: ChatModel = new AnthropicChatModel({
  client: new Anthropic({ apiKey: 'sk-ant-test' }),
  model: 'claude-sonnet-4-5',
});
