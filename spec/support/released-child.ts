// A child process for released-together.spec.ts:
//   tsx released-child.ts <pid file> <ok | hang-after-go>
//   tsx released-child.ts <pid file> fail-before-ready <another child's pid file>
// The pid file is written once the child is ready (waiting for its release); a child
// failing before it is ready first waits for the other's.
import { existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [pidFile, mode, other] = process.argv.slice(2) as [string, string, string | undefined];
if (mode === 'fail-before-ready') {
  const timer = setInterval(() => {
    if (other !== undefined && existsSync(other)) process.exit(1);
  }, 20);
  setTimeout(() => clearInterval(timer), 30_000);
} else {
  process.stdout.write('ready\n');
  writeFileSync(pidFile, String(process.pid));
  const lines = createInterface({ input: process.stdin });
  lines.once('line', () => {
    lines.close();
    process.stdin.destroy();
    if (mode === 'hang-after-go') setInterval(() => undefined, 1_000);
    else process.stdout.write(`done ${mode}\n`);
  });
}
