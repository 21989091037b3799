// What every checked doc snippet may use without declaring it (scripts/check-snippets.mjs):
// the few names the documentation uses for "the client / model / tool / request you already
// have". Anything else a snippet uses it imports or declares itself. Listed in
// docs/testing.md#checked-examples; keep the two in step.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import type { ChatChunk, ChatClient, ChatModel, Tool } from 'rx-advisors';

declare global {
  /** A configured client. */
  const client: ChatClient;
  /** A chat model (a provider's, or a MockChatModel). */
  const model: ChatModel;
  /** Tools the text has defined. */
  const getTime: Tool;
  const getWeather: Tool;
  /** A stream of chunks, e.g. `client.prompt(…).stream().chunks()`. */
  const chunks$: Observable<ChatChunk>;
  /** A Node request and response (node:http, Express, Fastify's `reply.raw`). */
  const req: IncomingMessage;
  const res: ServerResponse;
}
