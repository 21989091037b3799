// `npm start`: the demo server. Prints its URL; Ctrl-C (SIGINT) or SIGTERM stops it cleanly.
import { startDemoMcpTools } from './demo-mcp-tools.js';
import { startDemoServer } from './demo-server.js';
import { startDemoStores } from './demo-stores.js';
import { startDemoTelemetry } from './demo-telemetry.js';
import { selectDemoDocs } from './select-demo-docs.js';
import { selectDemoModel } from './select-demo-model.js';

async function main(): Promise<void> {
  const port = parsePort(process.env['PORT']);
  const host = process.env['HOST'] || '127.0.0.1';
  // DEMO_OFFLINE_INTERVAL_MS: the offline model's pace between words (default 30 ms).
  const interval = process.env['DEMO_OFFLINE_INTERVAL_MS'];
  const choice = await selectDemoModel(
    interval ? { offline: { interval: parseMillis('DEMO_OFFLINE_INTERVAL_MS', interval) } } : {},
  );
  // DEMO_DOCS: the shipped document set (default), another folder, or off.
  const docs = await selectDemoDocs();
  const telemetry = await startDemoTelemetry(process.env);
  const mcp = await startDemoMcpTools(process.env);
  // REDIS_URL / DATABASE_URL: streams and chat memory shared by several instances.
  const stores = await startDemoStores(process.env);
  const server = await startDemoServer({
    port,
    host,
    model: choice.model,
    modelDescription: choice.description,
    dataDir: process.env['DEMO_DATA_DIR'] || '.data',
    // Answers are durable runs (a SQLite journal under the data folder): restarting the
    // server mid-answer lets the page finish it. DEMO_DURABLE_RUNS=off turns them off.
    durableRuns: process.env['DEMO_DURABLE_RUNS'] !== 'off',
    log: (line) => console.error(line),
    advisors: [...telemetry.advisors, ...mcp.advisors],
    ...(docs === undefined ? {} : { docs }),
    ...(stores.streams === undefined ? {} : { streams: stores.streams }),
    ...(stores.chatMemoryRepository === undefined
      ? {}
      : { chatMemoryRepository: stores.chatMemoryRepository }),
  }).catch(async (error: unknown) => {
    await stores.close();
    throw listenError(error, port, host);
  });
  console.log(`rx-advisors demo with ${choice.description}`);
  console.log(`stores: ${stores.description}`);
  console.log(`documents: ${docs === undefined ? 'off (DEMO_DOCS=off)' : docs.description}`);
  console.log(`open ${server.url}  (Ctrl-C stops it)`);
  if (telemetry.description !== undefined) console.log(`OpenTelemetry: ${telemetry.description}`);
  if (mcp.description !== undefined) console.log(`MCP tools from: ${mcp.description}`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      console.log(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    clearInterval(launcherWatch);
    console.log(`\n${signal}: stopping (${server.activeStreams} stream(s) running)`);
    server
      .close()
      .then(telemetry.shutdown)
      .then(mcp.close)
      .then(stores.close)
      .then(
        () => console.log('stopped: server closed, streams unsubscribed, database closed'),
        (error: unknown) => {
          console.error('stopping failed:', error);
          process.exitCode = 1;
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // `npm start` runs this under `sh -c`, and a shell does not pass on the SIGTERM npm
  // forwards to it: the shell exits and this process is re-parented. Take that as SIGTERM
  // (checked twice a second; the timer does not keep the process alive).
  const launcher = process.ppid;
  const launcherWatch = setInterval(() => {
    if (process.ppid !== launcher) stop('SIGTERM (the launcher, npm start, has exited)');
  }, 500);
  launcherWatch.unref();
}

/** A listen failure in words: which port, and how to pick another. */
function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const next = port === 65535 ? 3000 : port + 1;
  if (code === 'EADDRINUSE') {
    return new Error(
      `Port ${port} on ${host} is already in use (another demo still running?). ` +
        `Pick another port: PORT=${next} npm start, or PORT=0 npm start for any free port.`,
    );
  }
  if (code === 'EACCES') {
    return new Error(
      `Not allowed to listen on port ${port} on ${host} (ports below 1024 need privileges). ` +
        `Pick another port: PORT=3000 npm start, or PORT=0 npm start for any free port.`,
    );
  }
  return error;
}

function parseMillis(name: string, value: string): number {
  const millis = Number(value);
  if (!Number.isFinite(millis) || millis < 0) {
    throw new Error(`${name}=${value} is not a number of milliseconds (0 or more).`);
  }
  return millis;
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
