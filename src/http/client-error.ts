import type { Duplex } from 'node:stream';
import { EngramError } from '../core/errors.js';
import { newRequestId } from '../core/ids.js';
import { errorBody, styleForPath } from './errors.js';

/** How long an answered connection is read from before it is closed. */
const LINGER_MS = 10_000;

/** Connections whose refusal went out: the rest of their request is read and dropped. */
const answered = new WeakSet<Duplex>();

/**
 * A request Node's HTTP parser refuses before any route sees it (request line and headers
 * over Node's 16 KB limit, malformed HTTP) is answered in the documented error envelope of
 * its path, with X-Request-Id, instead of Node's bare status line. What the client still
 * sends after that (its body) is read and dropped, for at most LINGER_MS: the parser
 * reports each later chunk as another error, and closing the socket then, with data
 * unread, would reset the connection and lose the answer before the client reads it.
 */
export function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (answered.has(socket) && err.code !== 'ECONNRESET') return;
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
  answered.add(socket);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.end(
    `HTTP/1.1 ${e.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
  );
}
