import { McpToolError } from 'rx-advisors/mcp';
import { mcpResultText } from '../../lib/mcp/mcp-result-text.js';

const options = { toolName: 't', hasOutputSchema: false, maxResultLength: 1_000 };
const errorOf = (result: unknown, opts = options): McpToolError => {
  try {
    mcpResultText(result, opts);
  } catch (error) {
    if (McpToolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('no error');
};

describe('mcpResultText', () => {
  it('joins text parts with newlines', () => {
    const result = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    };
    expect(mcpResultText(result, options)).toBe('a\nb');
  });

  it('uses structuredContent when the tool declares an output schema, else the text', () => {
    const result = {
      content: [{ type: 'text', text: '21 degrees' }],
      structuredContent: { c: 21 },
    };
    expect(mcpResultText(result, { ...options, hasOutputSchema: true })).toBe('{"c":21}');
    expect(mcpResultText(result, options)).toBe('21 degrees');
    expect(mcpResultText({ content: [], structuredContent: { c: 21 } }, options)).toBe('{"c":21}');
  });

  it('turns audio, embedded resources and unknown parts into short references', () => {
    const result = {
      content: [
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        {
          type: 'resource',
          resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'secret' },
        },
        { type: 'hologram' },
      ],
    };
    expect(mcpResultText(result, options)).toBe(
      '[audio: audio/wav, 3 bytes]\n[resource: file:///a.txt (text/plain)]\n[hologram content]',
    );
  });

  it('reads the 2024-10-07 toolResult shape', () => {
    expect(mcpResultText({ toolResult: { ok: true } }, options)).toBe('{"ok":true}');
  });

  it('isError: true throws with the text, or a generic message without one', () => {
    expect(errorOf({ isError: true, content: [{ type: 'text', text: 'no' }] })).toMatchObject({
      message: 'no',
      reason: 'tool-error',
      toolName: 't',
    });
    expect(errorOf({ isError: true, content: [] }).message).toBe(
      'The MCP tool "t" reported an error.',
    );
  });

  it('malformed results throw a McpToolError with reason malformed', () => {
    for (const bad of [
      null,
      'text',
      { content: {} },
      { content: [42] },
      { content: [{ type: 'text' }] },
    ]) {
      expect(errorOf(bad).reason).toBe('malformed');
    }
  });

  it('a text longer than maxResultLength is refused', () => {
    const result = { content: [{ type: 'text', text: 'x'.repeat(11) }] };
    expect(errorOf(result, { ...options, maxResultLength: 10 }).reason).toBe('too-long');
    expect(mcpResultText(result, { ...options, maxResultLength: 11 })).toHaveLength(11);
  });
});
