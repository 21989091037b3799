// Runs one two-round tool call with spans exported through the real OTLP/HTTP exporter to
// the URL in argv[2], then flushes. A child process because the exporter loads `http` with
// a dynamic import(), which Jest's CommonJS runtime refuses.
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { lastValueFrom } from 'rxjs';
import { OpenTelemetryAdvisor } from '../../../lib/otel/index';
import { MockChatModel } from '../../../lib/testing/index';
import { client, getTime } from './fixtures';

async function main(url: string): Promise<void> {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  const model = MockChatModel.script([
    {
      toolCalls: [{ id: 'call-1', name: 'getTime', arguments: { city: 'Paris' } }],
      usage: { inputTokens: 10, outputTokens: 5 },
      id: 'resp-1',
    },
    { text: 'It is noon.', usage: { inputTokens: 20, outputTokens: 7 }, id: 'resp-2' },
  ]);
  const chat = client(model, [new OpenTelemetryAdvisor({ tracerProvider })], [getTime]);
  const text = await lastValueFrom(chat.prompt('What time is it in Paris?').call().content());
  await tracerProvider.forceFlush();
  await tracerProvider.shutdown();
  process.stdout.write(JSON.stringify({ text }));
}

void main(process.argv[2] ?? '');
