// The useChat example: bundles the page with esbuild (in memory), then serves it and the chat
// routes with the offline model (no API key needed).
//   npx tsx examples/use-chat/server.ts          # http://127.0.0.1:3000/
//   PORT=0 npx tsx examples/use-chat/server.ts   # any free port; the URL is printed
import { buildClient } from './build-client.js';
import { startUseChatServer } from './use-chat-server.js';

async function main(): Promise<void> {
  const bundle = await buildClient();
  const port = Number(process.env['PORT'] ?? 3000);
  const server = await startUseChatServer({ bundle, port });
  console.log(`useChat example on ${server.url} (page script: ${bundle.bytes} bytes)`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
