// Summarises the .cpuprofile files of one run (`node --cpu-prof --cpu-prof-dir=DIR …`: one file per
// thread, workers included) by self time and by time under each function, per thread and per import
// phase (split at the main thread's first samples in buildWayStates and buildRelationStates, and after
// its last sample in buildRelationStates). Usage: node scripts/cpuprofile-summary.mjs DIR [topN]
import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2];
const TOP = +(process.argv[3] ?? 25);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort();
const profs = files.map((f) => ({ f, p: JSON.parse(readFileSync(dir + '/' + f, 'utf8')) }));
function prep(p) {
  const byId = new Map();
  for (const n of p.nodes) byId.set(n.id, n);
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const t = [];
  let ts = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    ts += p.timeDeltas[i];
    t.push(ts);
  }
  // duration of sample i = delta to the next one
  const dur = p.samples.map((_, i) => (i + 1 < t.length ? t[i + 1] - t[i] : 0));
  const stack = (id) => {
    const s = [];
    for (let x = id; x !== undefined; x = parent.get(x)) s.push(byId.get(x));
    return s;
  };
  return { byId, t, dur, stack };
}
const label = (n) => {
  const c = n.callFrame;
  const u = c.url.replace(/^.*\/(dist|node_modules)\//, '$1/');
  return `${c.functionName || '(anon)'} ${u ? u.split('/').slice(-1)[0] + ':' + (c.lineNumber + 1) : ''}`;
};
// Phase boundaries from the main thread (thread id 0 in the file name).
const main = profs.find((x) => /\.0\.\d+\.cpuprofile$/.test(x.f)) ?? profs[0];
const M = prep(main.p);
const firstWith = (re) => {
  for (let i = 0; i < main.p.samples.length; i++) if (M.stack(main.p.samples[i]).some((n) => re.test(n.callFrame.functionName))) return M.t[i];
  return Infinity;
};
const b = { ways: firstWith(/^buildWayStates$/), rels: firstWith(/^buildRelationStates$/) };
// The finish begins after the last buildRelationStates sample.
let lastRel = 0;
for (let i = 0; i < main.p.samples.length; i++)
  if (M.stack(main.p.samples[i]).some((n) => n.callFrame.functionName === 'buildRelationStates')) lastRel = M.t[i];
const bounds = [
  ['start', -Infinity],
  ['nodes', -Infinity],
  ['ways', b.ways],
  ['relations', b.rels],
  ['finish', lastRel + 1],
];
const phaseOf = (ts) => {
  let ph = 'nodes';
  for (const [n, s] of bounds.slice(1)) if (ts >= s) ph = n;
  return ph;
};
console.log(
  'phase starts (s from main start):',
  Object.fromEntries(bounds.slice(2).map(([n, s]) => [n, ((s - main.p.startTime) / 1e6).toFixed(2)])),
  'main end',
  ((main.p.endTime - main.p.startTime) / 1e6).toFixed(2),
);
for (const { f, p } of profs) {
  const P = prep(p);
  const perPhase = {};
  const self = new Map();
  const total = new Map();
  let busy = 0,
    all = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const n = P.byId.get(p.samples[i]);
    const d = P.dur[i] / 1000;
    all += d;
    const ph = phaseOf(P.t[i]);
    perPhase[ph] ??= { busy: 0, idle: 0, gc: 0 };
    const fn = n.callFrame.functionName;
    if (fn === '(idle)') {
      perPhase[ph].idle += d;
      continue;
    }
    busy += d;
    perPhase[ph].busy += d;
    if (fn === '(garbage collector)') perPhase[ph].gc += d;
    const l = label(n);
    self.set(l, (self.get(l) ?? 0) + d);
    const seen = new Set();
    for (const s of P.stack(p.samples[i])) {
      const ls = label(s);
      if (seen.has(ls)) continue;
      seen.add(ls);
      total.set(ls, (total.get(ls) ?? 0) + d);
    }
  }
  console.log(`\n=== ${f}: span ${((p.endTime - p.startTime) / 1e6).toFixed(2)} s, busy ${(busy / 1000).toFixed(2)} s`);
  for (const [ph, v] of Object.entries(perPhase))
    console.log(`  ${ph.padEnd(10)} busy ${(v.busy / 1000).toFixed(2)} s (gc ${(v.gc / 1000).toFixed(2)}), idle ${(v.idle / 1000).toFixed(2)} s`);
  const pr = (m, name) => {
    console.log(`  -- top ${name}`);
    for (const [l, d] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`   ${(d / 1000).toFixed(2).padStart(6)} s ${((100 * d) / busy).toFixed(1).padStart(5)}%  ${l}`);
  };
  pr(self, 'self');
  pr(total, 'total (subtree)');
}
