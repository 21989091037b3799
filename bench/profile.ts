// Profiles one rx-advisors workload: `node --cpu-prof --cpu-prof-dir=bench/profiles --import tsx bench/profile.ts w1 [advisors]`.
import { rxAdvisorsAdapter } from './adapters/rx-advisors.js';
import { jsonFixture, textFixture } from './harness/fixtures.js';

async function main(): Promise<void> {
  const [workload = 'w1', arg = '5'] = process.argv.slice(2);
  const repeat = Number(process.env['REPEAT'] ?? 20);
  const started = performance.now();
  if (workload === 'w1') {
    const fixture = textFixture(100_000);
    for (let i = 0; i < repeat; i++) {
      const text = await rxAdvisorsAdapter.stream(fixture, Number(arg));
      if (text !== fixture.text) throw new Error('W1 text mismatch');
    }
    report(started, repeat * 100_000, 'ns/chunk', 1e6);
  } else if (workload === 'w2') {
    const fixture = textFixture(20);
    for (let i = 0; i < repeat * 10; i++) {
      const text = await rxAdvisorsAdapter.toolLoop(100, fixture);
      if (text !== fixture.text) throw new Error('W2 text mismatch');
    }
    report(started, repeat * 10 * 100, 'us/round', 1e3);
  } else if (workload === 'w4') {
    const fixture = textFixture(10);
    for (let i = 0; i < repeat * 1000; i++) await rxAdvisorsAdapter.firstChunk(fixture);
    report(started, repeat * 1000, 'us/call', 1e3);
  } else if (workload === 'w5') {
    const { w5Adapter } = await import('./adapters/w5-full-chain.js');
    const fixture = jsonFixture(10_000);
    for (let i = 0; i < repeat; i++) {
      const text = await w5Adapter.stream(fixture);
      if (text !== fixture.text) throw new Error('W5 text mismatch');
    }
    report(started, repeat * 10_000, 'ns/chunk', 1e6);
  } else {
    throw new Error(`unknown workload ${workload}`);
  }
}

function report(started: number, units: number, unit: string, scale: number): void {
  console.log(`${(((performance.now() - started) * scale) / units).toFixed(1)} ${unit}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
