import { tool, type Tool } from '../../lib/index.js';

/** What the `getTime` tool returns (and the model sees as JSON). */
export interface GetTimeResult {
  city: string;
  timeZone: string;
  /** `HH:MM`, 24-hour clock. */
  time: string;
  /** `YYYY-MM-DD` in that time zone. */
  date: string;
  weekday: string;
}

/** Options of {@link createGetTimeTool}. */
export interface GetTimeToolOptions {
  /** The clock; default `() => new Date()` (tests pass a fixed instant). */
  now?: () => Date;
}

/** Cities the tool knows, by lower-case name, with their IANA time zone. */
export const CITY_TIME_ZONES: Readonly<Record<string, string>> = Object.freeze({
  amsterdam: 'Europe/Amsterdam',
  auckland: 'Pacific/Auckland',
  bangkok: 'Asia/Bangkok',
  beijing: 'Asia/Shanghai',
  berlin: 'Europe/Berlin',
  'buenos aires': 'America/Argentina/Buenos_Aires',
  cairo: 'Africa/Cairo',
  chicago: 'America/Chicago',
  delhi: 'Asia/Kolkata',
  dubai: 'Asia/Dubai',
  'hong kong': 'Asia/Hong_Kong',
  honolulu: 'Pacific/Honolulu',
  istanbul: 'Europe/Istanbul',
  johannesburg: 'Africa/Johannesburg',
  lagos: 'Africa/Lagos',
  lisbon: 'Europe/Lisbon',
  london: 'Europe/London',
  'los angeles': 'America/Los_Angeles',
  madrid: 'Europe/Madrid',
  'mexico city': 'America/Mexico_City',
  moscow: 'Europe/Moscow',
  mumbai: 'Asia/Kolkata',
  nairobi: 'Africa/Nairobi',
  'new york': 'America/New_York',
  paris: 'Europe/Paris',
  reykjavik: 'Atlantic/Reykjavik',
  rome: 'Europe/Rome',
  'san francisco': 'America/Los_Angeles',
  'sao paulo': 'America/Sao_Paulo',
  seoul: 'Asia/Seoul',
  shanghai: 'Asia/Shanghai',
  singapore: 'Asia/Singapore',
  stockholm: 'Europe/Stockholm',
  sydney: 'Australia/Sydney',
  tokyo: 'Asia/Tokyo',
  toronto: 'America/Toronto',
  vancouver: 'America/Vancouver',
  warsaw: 'Europe/Warsaw',
  zurich: 'Europe/Zurich',
});

const parameters = {
  type: 'object',
  properties: {
    city: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'A city name such as "Paris", or an IANA time zone such as "Europe/Paris"',
    },
  },
  required: ['city'],
  additionalProperties: false,
} as const;

/**
 * The demo tool "current time in a city". It knows a few dozen cities and any IANA time
 * zone; an unknown city throws, which the tool loop turns into an error result the model
 * sees (and can apologise for), not a failed stream.
 *
 * @example
 * ```ts
 * const getTime = createGetTimeTool();
 * client.prompt('What time is it in Tokyo?').tools(getTime).stream().content();
 * ```
 * @param options The clock.
 * @returns The tool, named `getTime`.
 */
export function createGetTimeTool(
  options: GetTimeToolOptions = {},
): Tool<{ city: string }, GetTimeResult> {
  const { now = () => new Date() } = options;
  return tool({
    name: 'getTime',
    description:
      'The current local time, date and weekday in a city (or an IANA time zone such as Europe/Paris).',
    parameters,
    execute: ({ city }): GetTimeResult => {
      const timeZone = timeZoneOf(city);
      if (timeZone === undefined) {
        throw new Error(
          `Unknown city "${city}". Known cities: ${Object.keys(CITY_TIME_ZONES).join(', ')}; or pass an IANA time zone.`,
        );
      }
      return { city, timeZone, ...localTime(now(), timeZone) };
    },
  });
}

/** The time zone of a city name or IANA zone, or `undefined`. */
export function timeZoneOf(city: string): string | undefined {
  const known = CITY_TIME_ZONES[normalizeCity(city)];
  if (known !== undefined) return known;
  if (!city.includes('/')) return undefined;
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: city }).resolvedOptions().timeZone;
  } catch {
    return undefined; // Intl throws a RangeError for an unknown zone
  }
}

function normalizeCity(city: string): string {
  return city
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '') // São Paulo -> Sao Paulo
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

/** One formatter per zone: building an `Intl.DateTimeFormat` costs ~0.3 ms, formatting far less. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
    });
    formatters.set(timeZone, formatter); // bounded: valid IANA zones only
  }
  return formatter;
}

function localTime(instant: Date, timeZone: string): Omit<GetTimeResult, 'city' | 'timeZone'> {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((p) => p.type === type)?.value ?? '';
  return {
    time: `${part('hour')}:${part('minute')}`,
    date: `${part('year')}-${part('month')}-${part('day')}`,
    weekday: part('weekday'),
  };
}
