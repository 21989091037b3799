// `npm start` as a user runs it: a real process that prints its URL and stops on Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { postChat, tempDataDir } from './demo-test-kit';

jest.setTimeout(90_000);

const ROOT = join(__dirname, '..', '..');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startMain(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo/main.ts'], {
    cwd: ROOT,
    // No API keys from the machine running the tests: this is the offline demo.
    env: { PATH: process.env['PATH'] ?? '', DEMO_DATA_DIR: tempDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

function urlPrinted(run: Run): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.output());
      if (match !== null) resolve(match[1]);
    };
    run.child.stdout!.on('data', check);
    void run.exited.then(() => reject(new Error(`exited before printing a URL:\n${run.output()}`)));
  });
}

describe('npm start (examples/demo/main.ts)', () => {
  it('prints its URL, serves the page, and stops cleanly on SIGINT with a stream running', async () => {
    const run = startMain({ PORT: '0' });
    try {
      const url = await urlPrinted(run);
      expect(run.output()).toContain('rx-advisors demo with the offline demo model');
      expect((await fetch(url)).status).toBe(200);

      let stopped: Promise<number | null> | undefined;
      const exchange = await postChat(url, 'What time is it in Tokyo and Paris?', {
        onEvent: (event) => {
          if (event.event === 'text-delta' && stopped === undefined) {
            run.child.kill('SIGINT');
            stopped = run.exited;
          }
        },
      });
      expect(await stopped).toBe(0);
      expect(exchange.events.some((e) => e.event === 'done')).toBe(false); // cut off, not finished
      expect(run.output()).toContain('SIGINT: stopping (1 stream(s) running)');
      expect(run.output()).toContain(
        'stopped: server closed, streams unsubscribed, database closed',
      );
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('says which port is busy and how to pick another', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = busy.address() as AddressInfo;
      const run = startMain({ PORT: String(port) });
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(
        `Port ${port} on 127.0.0.1 is already in use (another demo still running?). ` +
          `Pick another port: PORT=${port + 1} npm start, or PORT=0 npm start for any free port.`,
      );
      expect(run.output()).not.toContain('EADDRINUSE');
    } finally {
      busy.close();
    }
  });

  it('refuses a PORT that is not a port number', async () => {
    const run = startMain({ PORT: 'eighty' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(
      'PORT=eighty is not a port number (0 to 65535; 0 picks a free port).',
    );
  });
});
