// The merchant's wall-clock time (a date picker's "2026-11-25", a time field's "18:30") as the ISO
// instant the API takes, with the zone's offset at that moment written out: "2026-11-25T18:30:00-06:00".

/** The UTC offset `timeZone` has at `at`, as "+hh:mm" / "-hh:mm". */
export function offsetAt(timeZone: string, at: Date): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }).formatToParts(at).find((p) => p.type === "timeZoneName")?.value;
  // "GMT-06:00", "GMT+05:30", or plain "GMT" for UTC itself.
  const match = /^GMT([+-]\d{2}:\d{2})$/.exec(name ?? "");
  return match ? match[1]! : "+00:00";
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;

/**
 * The instant `date` `time` is on the wall clocks of `timeZone`; undefined for malformed input. The
 * offset is read at that wall time taken as UTC and then at the corrected instant, which settles it
 * on either side of a daylight-saving change (Guatemala has none today, but a merchant's zone may).
 */
export function zonedInstant(date: string, time: string, timeZone: string): string | undefined {
  if (!DATE.test(date) || !TIME.test(time)) return undefined;
  const wall = Date.parse(`${date}T${time}:00Z`);
  if (Number.isNaN(wall)) return undefined;
  const minutes = (offset: string) => (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  let offset = offsetAt(timeZone, new Date(wall));
  offset = offsetAt(timeZone, new Date(wall - minutes(offset) * 60_000));
  return `${date}T${time}:00${offset}`;
}

/** The calendar day after `date` ("2026-12-31" → "2027-01-01"): a date range's exclusive end. */
export function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
