/**
 * Reading OsmChange files (`.osc`, `.osc.gz`, `.osc.bz2`) for `maphist update`: the whole file's
 * versions in memory (a minutely diff holds a few thousand, a daily one a few hundred thousand),
 * in file order. The caller sorts them (a change file may list an element in any order).
 *
 *   const { versions } = await readChangeFile('000466354.osc.gz');
 */

import { MaphistError } from '../core/errors.js';
import type { FileHeader, OsmVersion } from '../core/osm.js';
import { looksLikeXml, notOsm } from './detect-format.js';
import { openDetected } from './open-history.js';
import { OsmXmlParser } from './xml/osm-xml-parser.js';
import { XmlSource } from './xml/xml-source.js';

export interface ChangeFile {
  header: FileHeader;
  versions: OsmVersion[];
  /** Bytes of the file (compressed). */
  bytes: number;
}

export async function readChangeFile(path: string): Promise<ChangeFile> {
  const { input, detected } = await openDetected(path);
  if (detected.format === 'pbf') {
    await input.handle.close();
    throw new MaphistError(
      'INPUT_NOT_OSM',
      `${path} is an OSM PBF file; maphist update reads OsmChange XML (.osc, .osc.gz, .osc.bz2). Import history files with \`maphist import\`.`,
      { path },
    );
  }
  const source = new XmlSource(input, path, detected.compression);
  const parser = new OsmXmlParser(path, 1 << 30, true);
  const versions: OsmVersion[] = [];
  try {
    let first = true;
    for (let chunk = await source.next(); chunk !== null; chunk = await source.next()) {
      if (first && detected.compression !== 'none' && !looksLikeXml(chunk)) throw notOsm(`${path} (decompressed)`, chunk);
      first = false;
      parser.write(chunk);
      for (let b = parser.takeFullBatch(); b !== undefined; b = parser.takeFullBatch()) versions.push(...b);
    }
    parser.end();
    for (let b = parser.takeFullBatch(); b !== undefined; b = parser.takeFullBatch()) versions.push(...b);
    for (const v of parser.takeRest()) versions.push(v);
  } finally {
    await source.close();
  }
  return { header: parser.header, versions, bytes: input.size };
}
