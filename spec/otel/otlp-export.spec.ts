import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** One span as OTLP/JSON sends it. */
interface OtlpSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** A loopback OTLP/HTTP receiver (JSON protocol): collects every exported span. */
function startReceiver(): Promise<{
  server: Server;
  url: string;
  spans: OtlpSpan[];
  paths: string[];
}> {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans) {
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/v1/traces`, spans, paths });
    }),
  );
}

/** An OTLP attribute value as a plain value. */
function plain(value: Record<string, unknown>): unknown {
  if ('stringValue' in value) return value['stringValue'];
  if ('intValue' in value) return Number(value['intValue']);
  if ('doubleValue' in value) return value['doubleValue'];
  if ('boolValue' in value) return value['boolValue'];
  if ('arrayValue' in value) {
    const { values = [] } = value['arrayValue'] as { values?: Record<string, unknown>[] };
    return values.map(plain);
  }
  return value;
}

const attributesOf = (span: OtlpSpan) =>
  Object.fromEntries(span.attributes.map(({ key, value }) => [key, plain(value)]));

/** Runs the child that exports through the real exporter; resolves with what it printed. */
function runChild(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'support', script), ...args],
      { cwd: join(__dirname, '..', '..'), timeout: 60_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe('OpenTelemetryAdvisor through the real OTLP/HTTP exporter', () => {
  it('exports the span tree of a two-round tool call to an OTLP/HTTP receiver', async () => {
    const receiver = await startReceiver();
    try {
      expect(JSON.parse(await runChild('otlp-export-child.ts', [receiver.url]))).toEqual({
        text: 'It is noon.',
      });

      expect(receiver.paths[0]).toBe('POST /v1/traces application/json');
      const byName = (name: string) => receiver.spans.filter((span) => span.name === name);
      const [call] = byName('invoke_workflow OpenTelemetryAdvisor');
      const rounds = byName('chat');
      const [toolSpan] = byName('execute_tool getTime');
      expect(receiver.spans).toHaveLength(4);
      expect(call.parentSpanId ?? '').toBe('');
      expect(rounds.map((span) => span.parentSpanId)).toEqual([call.spanId, call.spanId]);
      expect(toolSpan.parentSpanId).toBe(rounds[0].spanId);
      expect(attributesOf(rounds[0])).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'mock',
        'gen_ai.response.id': 'resp-1',
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 5,
      });
      expect(attributesOf(toolSpan)).toMatchObject({
        'gen_ai.tool.name': 'getTime',
        'gen_ai.tool.call.id': 'call-1',
        'rx_advisors.round': 1,
      });
      expect(attributesOf(call)).toMatchObject({
        'rx_advisors.rounds': 2,
        'gen_ai.usage.output_tokens': 12,
      });
    } finally {
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  }, 60_000);

  it('the demo exports to OTEL_EXPORTER_OTLP_ENDPOINT when it is set, and loads nothing otherwise', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = receiver.url.replace('/v1/traces', '');
      const on = await runChild('demo-telemetry-child.ts', [], {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      });
      expect(JSON.parse(on)).toEqual({ text: 'Hello.', advisors: 1 });
      expect(receiver.spans.map((span) => span.name).sort()).toEqual([
        'chat',
        'invoke_workflow OpenTelemetryAdvisor',
      ]);
      const off = await runChild('demo-telemetry-child.ts', [], {
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
      });
      expect(JSON.parse(off)).toEqual({ text: 'Hello.', advisors: 0 });
      expect(receiver.spans).toHaveLength(2);
    } finally {
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  }, 60_000);
});
