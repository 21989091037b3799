import { markdownTable, Report } from './harness/report.js';
import { fullConfig, quickConfig } from './workloads/config.js';
import { runW7 } from './workloads/w7-sse-server.js';
import { runW8 } from './workloads/w8-long-histories.js';
import { writeFileSync } from 'node:fs';
async function main() {
  const report = new Report();
  const config = process.argv.includes('--quick') ? quickConfig : fullConfig;
  if (process.argv.includes('W8')) await runW8(config, report);
  if (process.argv.includes('W7')) await runW7(config, report);
  console.log(markdownTable(report.results));
  console.log(report.notes.map((n) => `- ${n}`).join('\n'));
  writeFileSync(`/tmp/w7/rows-${process.argv.includes('W7') ? 'w7' : 'w8'}.json`, JSON.stringify(report.results, null, 2));
}
void main();
