// `kill -TERM` to the `npm start` process stops the demo server (issue 30, point 6): the
// signal has to pass through npm, its shell and the program runner. A real `npm start`
// (the package.json script, as a user runs it), a real SIGTERM to npm's own process, then
// the port must be closed and every process of the tree gone.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { tempDataDir } from './demo-test-kit';
import { alive, gone } from '../support/process-alive';

const ROOT = join(__dirname, '..', '..');

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm start', () => {
  it('stops the demo server on SIGTERM sent to npm', async () => {
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      // A process group of its own, so the test can clean up whatever is left.
      detached: true,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '/tmp',
        PORT: '0',
        DEMO_DATA_DIR: tempDataDir(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (data: Buffer) => (output += data.toString()));
    npm.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        npm.stdout.on('data', () => {
          const match = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
          if (match !== null) resolve(match[1]);
        });
        void exited.then(() => reject(new Error(`npm start exited early:\n${output}`)));
      });
      const port = Number(new URL(url).port);
      expect(await portAnswers(port)).toBe(true);

      npm.kill('SIGTERM');
      await exited;
      // The server's own process may take a moment after npm is gone: wait for the group.
      expect(await gone(-npm.pid!)).toBe(true);
      expect(await portAnswers(port)).toBe(false);
      expect(output).toMatch(/SIGTERM \(the launcher, npm start, has exited\): stopping/);
      expect(output).toContain('stopped: server closed, streams unsubscribed, database closed');
    } finally {
      if (alive(-npm.pid!)) process.kill(-npm.pid!, 'SIGKILL');
    }
  }, 120_000);
});
