// Starts the demo's telemetry from the environment, runs one call through a client with its
// advisors, shuts it down and prints how many advisors it got.
import { lastValueFrom } from 'rxjs';
import { startDemoTelemetry } from '../../../examples/demo/demo-telemetry';
import { MockChatModel } from '../../../lib/testing/index';
import { client } from './fixtures';

async function main(): Promise<void> {
  const telemetry = await startDemoTelemetry(process.env);
  const chat = client(MockChatModel.script([{ text: 'Hello.' }]), telemetry.advisors);
  const text = await lastValueFrom(chat.prompt('Hi').call().content());
  await telemetry.shutdown();
  process.stdout.write(JSON.stringify({ text, advisors: telemetry.advisors.length }));
}

void main();
