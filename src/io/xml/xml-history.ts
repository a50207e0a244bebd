/**
 * The XML reader: streams the (decompressed) file through the OSM XML parser on the calling
 * thread and hands out the records in batches of BATCH_SIZE (the last one smaller).
 *
 * Opening reads just far enough to know the header (the <osm> attributes and <bounds>, which
 * come before the first element); iteration continues from there.
 */

import type { OsmVersion } from '../../core/osm.js';
import { looksLikeXml, notOsm } from '../detect-format.js';
import type { InputFile } from '../input-file.js';
import type { OpenedHistory } from '../opened-history.js';
import { OsmXmlParser } from './osm-xml-parser.js';
import { XmlSource, type XmlCompression } from './xml-source.js';

export const BATCH_SIZE = 8000;

/** Opens an XML history (plain, gzip or bzip2 as detected). Takes over `input`. */
export async function openXmlHistory(input: InputFile, path: string, compression: XmlCompression): Promise<OpenedHistory> {
  const source = new XmlSource(input, path, compression);
  const parser = new OsmXmlParser(path, BATCH_SIZE);
  try {
    let first = true;
    while (!parser.headerComplete) {
      const chunk = await source.next();
      if (chunk === null) {
        parser.end();
        break;
      }
      // Compressed files were recognised by their compression magic only; check the content.
      if (first && compression !== 'none' && !looksLikeXml(chunk)) throw notOsm(`${path} (decompressed)`, chunk);
      first = false;
      parser.write(chunk);
    }
  } catch (e) {
    await source.close();
    throw e;
  }
  return new XmlHistory(input, source, parser);
}

class XmlHistory implements OpenedHistory {
  readonly format = 'xml' as const;
  private started = false;
  private closed = false;
  private finished = false;

  constructor(
    private readonly input: InputFile,
    private readonly source: XmlSource,
    private readonly parser: OsmXmlParser,
  ) {}

  get header() {
    return this.parser.header;
  }

  progress(): { bytesRead: number; bytesTotal: number } {
    return { bytesRead: this.finished ? this.input.size : this.source.bytesRead(), bytesTotal: this.input.size };
  }

  async *batches(): AsyncGenerator<OsmVersion[]> {
    if (this.started) throw new Error('OpenedHistory.batches() can be iterated only once');
    if (this.closed) throw new Error('OpenedHistory.batches() called after close()');
    this.started = true;
    const parser = this.parser;
    try {
      for (;;) {
        for (let batch = parser.takeFullBatch(); batch !== undefined; batch = parser.takeFullBatch()) yield batch;
        const chunk = await this.source.next();
        if (chunk === null) break;
        parser.write(chunk);
      }
      // A file cut off shows only at its end: deliver the complete versions before saying so.
      let endError: unknown;
      try {
        parser.end();
      } catch (e) {
        endError = e;
      }
      for (let batch = parser.takeFullBatch(); batch !== undefined; batch = parser.takeFullBatch()) yield batch;
      const rest = parser.takeRest();
      if (rest.length > 0) yield rest;
      if (endError !== undefined) throw endError;
      this.finished = true;
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.source.close();
  }
}
