import type { Duplex } from 'node:stream';
import { EngramError } from '../core/errors.js';
import { newRequestId } from '../core/ids.js';
import { errorBody, styleForPath } from './errors.js';

/**
 * A request Node's HTTP parser refuses before any route sees it (request line and headers
 * over Node's 16 KB limit, malformed HTTP) is answered in the documented error envelope of
 * its path, with X-Request-Id, instead of Node's bare status line.
 */
export function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const e = tooLarge
    ? new EngramError('HeaderTooLarge', 'the request line and headers exceed 16 KB')
    : new EngramError('BadRequest', 'malformed HTTP request');
  const path = /^[A-Z]+ ([^ ?\r\n]+)/.exec(err.rawPacket?.toString('latin1') ?? '')?.[1] ?? '/';
  const id = newRequestId();
  const body = JSON.stringify(errorBody(e, styleForPath(path, e), id, path));
  socket.end(
    `HTTP/1.1 ${e.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
}
