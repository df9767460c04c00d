import { expect } from 'vitest';

/** The v1 error body: code, message, request_id, path, timestamp. */
export const expectV1Error = (body: any, code: string, path: string) => {
  expect(body).toMatchObject({ code, path });
  expect(typeof body.message).toBe('string');
  expect(body.request_id).toMatch(/./);
  expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
};
