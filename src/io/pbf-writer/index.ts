export { createPbfWriter, type PbfWriter, type PbfWriterOptions } from './pbf-writer.js';
