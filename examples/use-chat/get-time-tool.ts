import { tool, type Tool } from 'rx-advisors';

/** The cities `getTime` knows, with their IANA time zones. */
const TIME_ZONES: Readonly<Record<string, string>> = {
  Paris: 'Europe/Paris',
  Tokyo: 'Asia/Tokyo',
  London: 'Europe/London',
  'New York': 'America/New_York',
};

/**
 * The `getTime({ city })` tool: the time in a city, as `HH:MM` on a 24-hour clock. A city it
 * does not know is a tool error (the model sees it; the page shows the safe text).
 *
 * @example
 * ```ts
 * const getTime = createGetTimeTool(() => new Date('2026-12-01T11:00:00Z'));
 * ```
 * @param now The clock (tests pass a fixed instant).
 * @returns The tool.
 */
export function createGetTimeTool(now: () => Date): Tool<{ city: string }, string> {
  return tool({
    name: 'getTime',
    description: `The current time in a city (${Object.keys(TIME_ZONES).join(', ')}).`,
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
    execute: ({ city }) => {
      const timeZone = TIME_ZONES[city];
      if (timeZone === undefined) throw new Error(`No time zone known for ${city}.`);
      const time = new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(now());
      return `${time} in ${city}`;
    },
  });
}
