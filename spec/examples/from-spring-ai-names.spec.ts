// docs/from-spring-ai.md maps Spring AI 2.0 names to ours (issue 30, point 15). The Spring
// side was checked against spring-projects/spring-ai's source; this test checks our side:
// every rx-advisors name the page's mapping rows give exists, and the Spring names that
// 2.0 renamed are given with their 2.0 names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as root from 'rx-advisors';
import * as mcp from 'rx-advisors/mcp';

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'from-spring-ai.md'), 'utf8');

describe('docs/from-spring-ai.md', () => {
  it('names Spring AI 2.0 classes by their 2.0 names', () => {
    expect(page).toContain('`ToolExecutionEligibilityChecker` (2.0');
    expect(page).toContain(
      '`ToolCallingAdvisor` (2.0; `ToolCallAdvisor`, its 1.1 name, is deprecated)',
    );
    expect(page).not.toMatch(/\| `ToolCallAdvisor`, `ToolCallingManager`/);
    expect(page).toContain('Spring AI 2.0 has no round limit');
  });

  it('maps to names that exist in rx-advisors', () => {
    expect(root.Order.CHAT_MEMORY).toBe(root.Order.HIGHEST_PRECEDENCE + 200);
    for (const name of [
      'ToolCallingAdvisor',
      'ToolCallLimitError',
      'ToolLoopLimitError',
      'ToolRegistry',
      'PromptChatMemoryAdvisor',
      'StructuredOutputValidationAdvisor',
    ]) {
      expect(root).toHaveProperty(name);
    }
    expect(mcp).toHaveProperty('McpToolSource');
    expect(mcp).toHaveProperty('mcpToolsAdvisor');
    const hooks = Object.getOwnPropertyNames(root.ToolCallingAdvisor.prototype);
    for (const hook of [
      'initializeLoop',
      'beforeRound',
      'afterRound',
      'finalizeLoop',
      'isEligible',
      'nextRoundMessages',
      'toolErrorContent',
    ]) {
      expect(hooks).toContain(hook);
      expect(page).toContain(`\`${hook}\``);
    }
  });
});
