import type { Framework } from '../harness/types.js';
import { w7AiSdkAdapter } from './w7-ai-sdk.js';
import { w7FloorHttpAdapter } from './w7-floor-http.js';
import { w7RxAdvisorsAdapter } from './w7-rx-advisors.js';
import type { SseServerAdapter } from './w7-sse-adapter.js';

/** W7's servers: ours, the AI SDK, and the bare `node:http` floor. */
export const W7_ADAPTERS: readonly SseServerAdapter[] = [
  w7RxAdvisorsAdapter,
  w7AiSdkAdapter,
  w7FloorHttpAdapter,
];

/**
 * The adapter of a framework.
 * @param framework Its name.
 * @returns The adapter.
 */
export function w7Adapter(framework: string): SseServerAdapter {
  const adapter = W7_ADAPTERS.find((a) => a.framework === (framework as Framework));
  if (adapter === undefined) throw new Error(`W7: no server adapter ${framework}`);
  return adapter;
}
