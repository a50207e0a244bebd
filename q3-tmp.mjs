import { DuckDBInstance } from '@duckdb/node-api';
const f = process.argv[2];
const i = await DuckDBInstance.create(f, { access_mode: 'READ_ONLY' }); const c = await i.connect();
for (const t of ['states', 'relation_members', 'way_nodes', 'current_parents']) {
  const r = (await c.runAndReadAll(`SELECT count(DISTINCT row_group_id) AS rg, count(DISTINCT block_id) AS blocks, (SELECT count(*) FROM ${t}) AS n FROM pragma_storage_info('${t}')`)).getRowObjectsJS()[0];
  console.log(t, r.rg, 'row groups for', r.n, 'rows (full groups:', Math.ceil(Number(r.n) / 122880), ')', r.blocks, 'blocks');
}
