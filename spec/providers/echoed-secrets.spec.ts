// Issue 13.7 (provider half): a server that echoes the client's defaultHeaders /
// defaultQuery values into its error body must not put them into ProviderError messages.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { ChatRequest, ProviderError } from 'rx-advisors';
import { AnthropicChatModel } from 'rx-advisors/anthropic';
import { OpenAiChatModel } from 'rx-advisors/openai';
import { failure } from './support/clients.js';
import {
  startReplayServer,
  type RecordedRequest,
  type ReplayServer,
} from './support/replay-server.js';

jest.setTimeout(20_000);

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
const HEADER_SECRET = 'hdr-secret-7f3a9c21e4';
const QUERY_SECRET = 'q secret/+=7f3a9c21';
const ARRAY_HEADER_SECRET = 'tuple-secret-5b8e2d';

/** What a careless gateway answers: every header and the URL it received, quoted. */
function echo(received: RecordedRequest): unknown {
  return {
    error: {
      type: 'invalid_request_error',
      message: `rejected ${received.path} with x-custom-auth=${String(
        received.headers['x-custom-auth'],
      )} and x-tenant-key=${String(received.headers['x-tenant-key'])}`,
    },
  };
}

describe('secrets a server echoes in its error text, through the real SDK clients', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  it('redacts the openai client’s defaultHeaders and defaultQuery values', async () => {
    const client = new OpenAI({
      apiKey: 'sk-test-openai-0123456789abcdef',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      logLevel: 'off',
      defaultHeaders: { 'X-Custom-Auth': HEADER_SECRET, 'X-Tenant-Key': ARRAY_HEADER_SECRET },
      defaultQuery: { key: QUERY_SECRET },
    });
    server.enqueue({ kind: 'echo', status: 400, json: echo });
    const error = await failure(new OpenAiChatModel({ client, model: 'gpt-test' }).stream(request));
    expect(ProviderError.isInstance(error)).toBe(true);
    const { message } = error as ProviderError;
    // The server did echo them: the test would pass vacuously otherwise.
    const received = server.requests[server.requests.length - 1];
    expect(received.headers['x-custom-auth']).toBe(HEADER_SECRET);
    expect(received.path).toContain('key=');
    expect(message).toContain('rejected /v1/chat/completions?key=[redacted]');
    expect(message).toContain('x-custom-auth=[redacted]');
    expect(message).toContain('x-tenant-key=[redacted]');
    for (const secret of [HEADER_SECRET, ARRAY_HEADER_SECRET, 'q secret', '7f3a9c21']) {
      expect(message).not.toContain(secret);
    }
    expect((error as ProviderError).status).toBe(400);
  });

  it('redacts the Anthropic client’s defaultHeaders, given as a Headers object', async () => {
    const client = new Anthropic({
      apiKey: 'sk-ant-test-0123456789abcdef',
      baseURL: server.url,
      maxRetries: 0,
      logLevel: 'off',
      defaultHeaders: new Headers({ 'x-custom-auth': HEADER_SECRET }),
      defaultQuery: { key: QUERY_SECRET },
    });
    server.enqueue({ kind: 'echo', status: 400, json: echo });
    const model = new AnthropicChatModel({ client, model: 'claude-test' });
    const { message } = (await failure(model.stream(request))) as ProviderError;
    expect(server.requests[server.requests.length - 1].headers['x-custom-auth']).toBe(
      HEADER_SECRET,
    );
    expect(message).toContain('x-custom-auth=[redacted]');
    expect(message).toContain('key=[redacted]');
    expect(message).not.toContain(HEADER_SECRET);
    expect(message).not.toContain('7f3a9c21');
  });
});
