import { randomBytes } from 'node:crypto';

/** A memory id: 24 lowercase hex characters. */
export const newId = (): string => randomBytes(12).toString('hex');

export const MEMORY_ID_RE = /^[0-9a-fA-F]{24}$/;
export const ITEM_ID_RE = /^(ei|it)_[0-9a-f]{24}$/;

/** A profile item id: `ei_` (explicit info) or `it_` (implicit trait) + 24 hex. */
export const newItemId = (kind: 'ei' | 'it'): string => `${kind}_${newId()}`;

/** Task ids are unique strings; a prefix makes them recognisable in logs. */
export const newTaskId = (): string => `task_${randomBytes(12).toString('hex')}`;

export const newRequestId = (): string => `req_${randomBytes(10).toString('hex')}`;
