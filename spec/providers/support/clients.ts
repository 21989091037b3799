import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import type { ChatChunk } from '../../../lib/core/chat-chunk.js';
import type { ReplayServer } from './replay-server.js';

/** Fake keys: tests assert that they never show up in an error message. */
export const OPENAI_TEST_KEY = 'sk-test-openai-0123456789abcdef';
export const ANTHROPIC_TEST_KEY = 'sk-ant-test-0123456789abcdef';

/** A real `openai` client pointed at the loopback server. */
export function openAiClient(server: ReplayServer, maxRetries = 0): OpenAI {
  return new OpenAI({
    apiKey: OPENAI_TEST_KEY,
    baseURL: `${server.url}/v1`,
    maxRetries,
    logLevel: 'off',
  });
}

/** A real `@anthropic-ai/sdk` client pointed at the loopback server. */
export function anthropicClient(server: ReplayServer, maxRetries = 0): Anthropic {
  return new Anthropic({
    apiKey: ANTHROPIC_TEST_KEY,
    baseURL: server.url,
    maxRetries,
    logLevel: 'off',
  });
}

/** Every chunk of a stream, once it completes. */
export function collect(chunks$: Observable<ChatChunk>): Promise<ChatChunk[]> {
  return lastValueFrom(chunks$.pipe(toArray()));
}

/** The error a stream fails with (fails the test when it completes instead). */
export async function failure(chunks$: Observable<unknown>): Promise<unknown> {
  try {
    await lastValueFrom(chunks$);
  } catch (error) {
    return error;
  }
  throw new Error('expected the stream to fail, but it completed');
}
