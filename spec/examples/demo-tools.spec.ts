import { ToolArgumentsError, type Tool, type ToolContext } from '../../lib/index';
import { createGetTimeTool, timeZoneOf } from '../../examples/demo/get-time-tool';
import { createUsersRegisteredOnTool } from '../../examples/demo/users-registered-on-tool';
import { FIXED_NOW } from './demo-test-kit';

const context: ToolContext = {
  values: {},
  signal: new AbortController().signal,
  toolCallId: 'call_1',
  round: 1,
};

function run<A, R>(tool: Tool<A, R>, argumentsText: string): R {
  return tool.execute(tool.parseArguments(argumentsText), context) as R;
}

describe('demo tool getTime', () => {
  const getTime = createGetTimeTool({ now: () => FIXED_NOW });

  it('gives the local time, date and weekday of a known city', () => {
    expect(run(getTime, '{"city":"Tokyo"}')).toEqual({
      city: 'Tokyo',
      timeZone: 'Asia/Tokyo',
      time: '21:30',
      date: '2024-01-15',
      weekday: 'Monday',
    });
    // Ten hours behind UTC: still the early hours of the same day.
    expect(run(getTime, '{"city":"Honolulu"}')).toMatchObject({
      time: '02:30',
      date: '2024-01-15',
    });
  });

  it('matches city names loosely (case, spaces, accents) and accepts IANA zones', () => {
    expect(run(getTime, '{"city":"  new   YORK "}')).toMatchObject({
      timeZone: 'America/New_York',
      time: '07:30',
    });
    expect(run(getTime, '{"city":"São Paulo"}')).toMatchObject({ timeZone: 'America/Sao_Paulo' });
    expect(run(getTime, '{"city":"Asia/Kathmandu"}')).toMatchObject({ time: '18:15' });
    expect(timeZoneOf('Not/AZone')).toBeUndefined();
  });

  it('throws for an unknown city, naming the cities it knows', () => {
    expect(() => run(getTime, '{"city":"Atlantis"}')).toThrow(
      /^Unknown city "Atlantis"\. Known cities: amsterdam, .*zurich; or pass an IANA time zone\.$/,
    );
  });

  it('rejects arguments that do not match its schema before running', () => {
    expect(() => getTime.parseArguments('{}')).toThrow(ToolArgumentsError);
    expect(() => getTime.parseArguments('{"city":"Paris","extra":1}')).toThrow(ToolArgumentsError);
    expect(() => getTime.parseArguments('{"city":')).toThrow(ToolArgumentsError);
  });

  it('reads the clock on every call', () => {
    let now = FIXED_NOW;
    const clocked = createGetTimeTool({ now: () => now });
    expect(run(clocked, '{"city":"London"}')).toMatchObject({ time: '12:30' });
    now = new Date('2024-07-01T12:30:00Z'); // summer time
    expect(run(clocked, '{"city":"London"}')).toMatchObject({ time: '13:30' });
  });
});

describe('demo tool usersRegisteredOn', () => {
  const usersRegisteredOn = createUsersRegisteredOnTool();

  it('lists the users registered on a date', () => {
    const result = run(usersRegisteredOn, '{"date":"2024-05-03"}');
    expect(result.count).toBe(3);
    expect(result.users.map((u) => u.name)).toEqual([
      'Edsger Dijkstra',
      'Barbara Liskov',
      'Donald Knuth',
    ]);
    expect(result.users[0]).toEqual({
      id: 4,
      name: 'Edsger Dijkstra',
      email: 'edsger@example.com',
    });
  });

  it('returns an empty list for a date nobody registered on', () => {
    expect(run(usersRegisteredOn, '{"date":"1999-01-01"}')).toEqual({
      date: '1999-01-01',
      count: 0,
      users: [],
    });
  });

  it('searches the table it was given', () => {
    const tool = createUsersRegisteredOnTool({
      users: [{ id: 1, name: 'Only', email: 'o@example.com', registeredOn: '2020-02-02' }],
    });
    expect(run(tool, '{"date":"2020-02-02"}').users).toEqual([
      { id: 1, name: 'Only', email: 'o@example.com' },
    ]);
  });

  it('rejects a date that is not YYYY-MM-DD', () => {
    expect(() => usersRegisteredOn.parseArguments('{"date":"May 3rd"}')).toThrow(
      ToolArgumentsError,
    );
    expect(() => usersRegisteredOn.parseArguments('{"day":"2024-05-03"}')).toThrow(
      ToolArgumentsError,
    );
  });
});
