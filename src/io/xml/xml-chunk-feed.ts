/**
 * Bytes to a saxes parser, chunk by chunk, for the XML readers (history and changeset dumps): UTF-8
 * decoded in streaming mode (a character split across chunks stays whole), failures turned into
 * catalog errors — bad UTF-8 or XML through the reader's own `corrupt`, a document that ends early
 * into INPUT_TRUNCATED.
 */
import { SaxesParser } from 'saxes';
import { MaphistError } from '../../core/errors.js';

export class XmlChunkFeed {
  readonly sax = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  private readonly text = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly path: string,
    private readonly corrupt: (why: string) => MaphistError,
  ) {}

  write(bytes: Uint8Array): void {
    let chunk: string;
    try {
      chunk = this.text.decode(bytes, { stream: true });
    } catch {
      throw this.corrupt('it is not valid UTF-8 text');
    }
    try {
      this.sax.write(chunk);
    } catch (e) {
      if (e instanceof MaphistError) throw e;
      throw this.corrupt(`it is not well-formed XML (${(e as Error).message})`);
    }
  }

  /** The end of the input: an unfinished document means the file was cut off. */
  end(): void {
    try {
      this.sax.write(this.text.decode());
      this.sax.close();
    } catch (e) {
      if (e instanceof MaphistError) throw e;
      throw new MaphistError(
        'INPUT_TRUNCATED',
        `${this.path} ends in the middle of the XML document (${(e as Error).message}); the file was probably cut off ` +
          'while downloading or copying. Get a complete copy and import again.',
        { path: this.path },
      );
    }
  }
}
