/**
 * The progress bar of a changeset load on standard error, when that is a terminal (nothing
 * otherwise): bytes of the dump read, changesets read and kept. A planet dump takes a while.
 */
import { SingleBar, Presets } from 'cli-progress';
import type { ChangesetsProgress } from '../../store/changesets.js';

export interface ChangesetsBar {
  update(p: ChangesetsProgress): void;
  stop(): void;
}

export function changesetsBar(): ChangesetsBar {
  if (!process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  const bar = new SingleBar(
    {
      format: 'changesets |{bar}| {percentage}% | {read} read | {kept} kept | ETA {eta_formatted}',
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  let lastUpdate = 0;
  return {
    update(p) {
      const now = performance.now();
      if (bar.isActive && now - lastUpdate < 200) return;
      lastUpdate = now;
      const payload = { read: p.changesetsRead, kept: p.changesetsKept };
      if (!bar.isActive) bar.start(p.bytesTotal, p.bytesRead, payload);
      else bar.update(p.bytesRead, payload);
    },
    stop: () => bar.stop(),
  };
}
