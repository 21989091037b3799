// rx-advisors/testing: a scripted mock model and helpers for tests and examples.
export { MockChatModel, type MockChatModelOptions, type MockResponse } from './mock-chat-model.js';
export type { MockRound, MockToolCall } from './mock-round.js';
export { mockChunks } from './mock-chunks.js';
