/**
 * A PrimitiveGroup of one message per element (ways, relations): the group's field number and
 * the function that writes one element's message body are all that differ between them.
 */
import { PbfWriter } from 'pbf';
import type { OsmVersion } from '../../core/osm.js';
import type { PrimitiveGroupEncoder } from './primitive-group-encoder.js';
import type { StringTable } from './string-table.js';

export interface ElementToWrite<T> {
  element: T;
  strings: StringTable;
}

export class MessageGroupEncoder<T extends OsmVersion> implements PrimitiveGroupEncoder<T> {
  private readonly group = new PbfWriter(new Uint8Array(1 << 20));
  /** Reused for every element: writeMessage takes the body writer's argument as an object. */
  private readonly current: ElementToWrite<T> = { element: undefined as unknown as T, strings: undefined as unknown as StringTable };
  count = 0;

  constructor(
    private readonly groupField: number,
    private readonly writeBody: (e: ElementToWrite<T>, pbf: PbfWriter) => void,
  ) {}

  get approximateBytes(): number {
    return this.group.pos;
  }

  add(element: T, strings: StringTable): void {
    this.current.element = element;
    this.current.strings = strings;
    this.group.writeMessage(this.groupField, this.writeBody, this.current);
    this.count++;
  }

  encodeGroup(): Uint8Array {
    return this.group.buf.subarray(0, this.group.pos);
  }

  clear(): void {
    this.group.pos = 0;
    this.count = 0;
  }
}
