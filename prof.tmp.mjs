import { openStore } from './dist/src/store/open-store.js';
import { createDuckDbStatsEngine } from './dist/src/engines/duckdb/stats.js';
import { parseFilter } from './dist/src/filter/index.js';
const store = await openStore('/tmp/v2stats-4c.duckdb');
const eng = await createDuckDbStatsEngine(store);
const edges = []; for (let k = 0; k <= 120; k++) edges.push(Date.UTC(2008, k, 1) / 1000);
const aoi = { id: 'a', geometry: { type: 'Polygon', coordinates: [[[1.4,42.42],[1.8,42.42],[1.8,42.66],[1.4,42.66],[1.4,42.42]]] }, bbox: [1.4,42.42,1.8,42.66] };
const filter = parseFilter('', { version: 2 });
for (let i = 0; i < 5; i++) { const t = performance.now(); const r = await eng.contributors({ aoi, edges, filter }); console.log((performance.now()-t).toFixed(0), 'ms', r.reduce((a,b)=>a+b,0)); }
const con = await store.connect();
const sql = globalThis.__sql;
for (const q of [sql, sql.replace(/AND \(geometry_type.*$/s, ''), sql.replace('rowid::DOUBLE AS r, geometry', 'count(*)')]) { const ms = []; for (let i = 0; i < 3; i++) { const t = performance.now(); await con.runAndReadAll(q); ms.push(performance.now() - t); } console.log(ms.map(x=>x.toFixed(0)).join(' '), q.slice(-200)); }
{
const ids = [...sql.matchAll(/\d+/g)].map(m => Number(m[0])).filter(x => x >= 246084);
const inList = /IN \(([\d,]+)\)/.exec(sql)[1].split(',').map(Number);
const groups = new Map(); for (const r of inList) { const g = Math.floor(r / 122880); if (!groups.has(g)) groups.set(g, []); groups.get(g).push(r); }
console.log('groups', groups.size);
const q = [...groups.values()].map(rs => `SELECT rowid, geometry FROM states WHERE rowid BETWEEN ${Math.min(...rs)} AND ${Math.max(...rs)} AND rowid IN (${rs.join(',')})`).join(' UNION ALL ');
const q2 = `SELECT rowid, geometry FROM states WHERE (${[...groups.values()].map(rs => `rowid BETWEEN ${Math.min(...rs)} AND ${Math.max(...rs)}`).join(' OR ')}) AND rowid IN (${inList.join(',')})`;
for (const x of [q, q2]) { const ms = []; for (let i = 0; i < 5; i++) { const t = performance.now(); await con.runAndReadAll(x); ms.push(performance.now() - t); } console.log(ms.map(x=>x.toFixed(0)).join(' ')); }
}
