// Type declarations for unbzip2-stream (the package ships none): a factory for a classic
// through-stream that takes bzip2 bytes and emits the decompressed bytes.
declare module 'unbzip2-stream' {
  import type { Duplex } from 'node:stream';
  function unbzip2Stream(): Duplex;
  export default unbzip2Stream;
}
