// rx-advisors/anthropic: a ChatModel over the official `@anthropic-ai/sdk` Messages API.
// The SDK is an optional peer dependency.
export { AnthropicChatModel, type AnthropicChatModelOptions } from './anthropic-chat-model.js';
