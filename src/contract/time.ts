import { z } from 'zod';

/**
 * Points in time as callers send them: Unix milliseconds (a number, or a string of
 * digits) or an ISO 8601 date-time. Every time input of every operation goes through
 * `instantMs`, which accepts only instants from year 1 to year 9999 UTC: representable as
 * a JavaScript Date, as a PostgreSQL timestamptz and as a bigint, so nothing past the
 * contract can overflow or turn into an Invalid Date.
 */
/** 0001-01-01T00:00:00.000Z (Date.UTC maps years below 100 onto 1900-1999). */
export const MIN_INSTANT_MS = -62_135_596_800_000;
export const MAX_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const RANGE_MSG = 'must be a date between 0001-01-01 and 9999-12-31 (Unix ms or ISO 8601)';

/** The instant as Unix ms, or undefined when it is not a representable date. */
export function instantMs(v: unknown): number | undefined {
  let ms: number;
  if (typeof v === 'number') ms = v;
  else if (typeof v === 'string' && /^-?\d{1,16}$/.test(v)) ms = Number(v);
  else if (typeof v === 'string' && v.length <= 64 && /^[+-]?\d{4,6}-/.test(v)) ms = Date.parse(v);
  else return undefined;
  if (!Number.isFinite(ms)) return undefined;
  ms = Math.trunc(ms);
  return ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS ? ms : undefined;
}

/** A time filter value: Unix ms or ISO 8601, range-checked. */
export const Instant = z
  .union([z.number(), z.string().min(1).max(64)])
  .refine((v) => instantMs(v) !== undefined, RANGE_MSG);

/** An ISO 8601 date-time query parameter, range-checked and normalised to `toISOString()`. */
export const IsoInstant = z
  .string()
  .max(64)
  .refine(
    (s) => typeof instantMs(s) === 'number' && !/^-?\d+$/.test(s),
    `must be an ISO 8601 date-time; ${RANGE_MSG}`,
  )
  .transform((s) => new Date(instantMs(s)!).toISOString());

/** Unix milliseconds no earlier than `min` (a message's send time), range-checked. */
export const UnixMs = (min: number, minMessage: string) =>
  z.number().int().min(min, minMessage).max(MAX_INSTANT_MS, RANGE_MSG);
