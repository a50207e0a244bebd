/**
 * Temporary: `Statement` moved to src/engines/sql/statement.ts (both engines use it). This re-export
 * keeps store-export.ts compiling until its import names the new place; then delete this file.
 */
export { statement, type Statement } from '../../sql/statement.js';
