// `npm start`: the demo server. Prints its URL; Ctrl-C (SIGINT) or SIGTERM stops it cleanly.
import { startDemoServer } from './demo-server.js';
import { selectDemoModel } from './select-demo-model.js';

async function main(): Promise<void> {
  const port = parsePort(process.env['PORT']);
  const choice = await selectDemoModel();
  const server = await startDemoServer({
    port,
    host: process.env['HOST'] || '127.0.0.1',
    model: choice.model,
    modelDescription: choice.description,
    dataDir: process.env['DEMO_DATA_DIR'] || '.data',
    log: (line) => console.error(line),
  });
  console.log(`rx-advisors demo with ${choice.description}`);
  console.log(`open ${server.url}  (Ctrl-C stops it)`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      console.log(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${signal}: stopping (${server.activeStreams} stream(s) running)`);
    server.close().then(
      () => console.log('stopped: server closed, streams unsubscribed, database closed'),
      (error: unknown) => {
        console.error('stopping failed:', error);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT=${value} is not a port number (0 to 65535; 0 picks a free port).`);
  }
  return port;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
