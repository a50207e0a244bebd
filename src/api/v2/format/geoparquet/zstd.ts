/**
 * ZSTD for the Parquet writer. Node 20's zlib has no zstd (it arrives in Node 22.15), so this uses
 * the zstd WebAssembly build of @bokuweb/zstd-wasm, which must be initialised once (initZstd) before
 * the synchronous compressor the writer calls is used.
 */
import { compress, init } from '@bokuweb/zstd-wasm';

/** The compression level (zstd's default: a good speed/size balance for streamed downloads). */
const LEVEL = 3;

let ready: Promise<void> | undefined;
let initialised = false;

export function initZstd(): Promise<void> {
  ready ??= init().then(() => {
    initialised = true;
  });
  return ready;
}

export function zstdCompressor(): (input: Uint8Array) => Uint8Array {
  if (!initialised) throw new Error('initZstd() must complete before ZSTD compression is used');
  return (input) => compress(input, LEVEL);
}
