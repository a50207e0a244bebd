/**
 * Visits the coordinates of a 2D WKB geometry without building it (no arrays, no objects): a cheap
 * pass for tests that only look at vertices, such as "does any vertex lie inside the area", run
 * before deciding whether a geometry must be decoded and clipped at all.
 */
const HEADER_BYTES = 5;

/**
 * True as soon as `test(x, y)` is true for a vertex (visited in WKB order); false when none is.
 * Throws on truncated or unknown WKB like decodeWkb.
 */
export function someWkbVertex(bytes: Uint8Array, test: (x: number, y: number) => boolean): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  let le = true;
  const need = (n: number) => {
    if (offset + n > view.byteLength) throw new Error(`WKB: truncated input, need ${n} more bytes at offset ${offset} of ${view.byteLength}`);
  };
  const count = () => {
    need(4);
    const n = view.getUint32(offset, le);
    offset += 4;
    return n;
  };
  const positions = (n: number): boolean => {
    need(n * 16);
    for (let i = 0; i < n; i++, offset += 16) if (test(view.getFloat64(offset, le), view.getFloat64(offset + 8, le))) return true;
    return false;
  };
  const geometry = (): boolean => {
    need(HEADER_BYTES);
    const order = view.getUint8(offset);
    if (order !== 0 && order !== 1) throw new Error(`WKB: invalid byte order marker ${order} at offset ${offset}`);
    le = order === 1;
    const type = view.getUint32(offset + 1, le);
    offset += HEADER_BYTES;
    switch (type) {
      case 1:
        return positions(1);
      case 2:
        return positions(count());
      case 3: {
        const rings = count();
        for (let i = 0; i < rings; i++) if (positions(count())) return true;
        return false;
      }
      case 4:
      case 5:
      case 6:
      case 7: {
        const n = count();
        for (let i = 0; i < n; i++) if (geometry()) return true;
        return false;
      }
      default:
        throw new Error(`WKB: unsupported geometry type ${type} (only 2D types 1-7 are read)`);
    }
  };
  return geometry();
}
