import { connect, type Socket } from 'node:net';
import type { ControlRequest, ControlResponse } from './protocol.js';

export class ControlError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

/** Sends one request to the owner's control socket; resolves with the socket still open. */
export async function openControl(
  path: string,
  req: ControlRequest,
): Promise<{ result: unknown; socket: Socket }> {
  const socket = connect(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(`${JSON.stringify(req)}\n`);
  // Read exactly the first line; anything after it belongs to the caller (MCP stream).
  const line = await new Promise<string>((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const nl = buf.indexOf(10);
      if (nl === -1) return;
      socket.off('data', onData);
      socket.pause();
      const rest = buf.subarray(nl + 1);
      if (rest.length) socket.unshift(rest);
      resolve(buf.subarray(0, nl).toString('utf8'));
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('end', () =>
      reject(new ControlError('Closed', 'the engram owner closed the control connection')),
    );
  });
  const res = JSON.parse(line) as ControlResponse;
  if (!res.ok) {
    socket.destroy();
    throw new ControlError(res.error.code, res.error.message);
  }
  return { result: res.result, socket };
}

export async function callControl(path: string, req: ControlRequest): Promise<unknown> {
  const { result, socket } = await openControl(path, req);
  socket.destroy();
  return result;
}
