/**
 * Opening the input file, with the failures a user can cause turned into INPUT_NOT_FOUND.
 */

import { open, type FileHandle } from 'node:fs/promises';
import { MaphistError } from '../core/errors.js';

export interface InputFile {
  handle: FileHandle;
  /** Size in bytes when opened. */
  size: number;
}

export async function openInputFile(path: string): Promise<InputFile> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw notFound(path, e);
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) {
      throw new MaphistError('INPUT_NOT_FOUND', `${path} is a directory; give the path of an OSM history file (.osh.pbf, .osh, .osh.gz, .osh.bz2).`, { path });
    }
    return { handle, size: stats.size };
  } catch (e) {
    await handle.close();
    throw e instanceof MaphistError ? e : notFound(path, e);
  }
}

function notFound(path: string, cause: unknown): MaphistError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') {
    return new MaphistError('INPUT_NOT_FOUND', `The input file ${path} does not exist; check the path.`, { path });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new MaphistError('INPUT_NOT_FOUND', `The input file ${path} cannot be read (permission denied); check its permissions.`, { path });
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new MaphistError('INPUT_NOT_FOUND', `The input file ${path} cannot be opened (${reason}).`, { path });
}

/** Reads up to `length` bytes at `position`; fewer only at the end of the file. */
export async function readAt(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const target = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(target, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? target : target.subarray(0, filled);
}
