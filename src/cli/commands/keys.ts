/**
 * `maphist keys create|list|revoke|set-quota [--db PATH]`: manages the API keys of version 2 in
 * the keys file beside the history database (docs/api-keys.md). Works while the server runs.
 */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { generateApiKey, generateKeyId, hashApiKey } from '../../auth/api-key.js';
import { DEFAULT_DAILY_QUOTA, DEFAULT_PER_MINUTE } from '../../auth/api-key-hook.js';
import { insertKey, keysDbPathFor, readKeys, revokeKey, setKeyLimits } from '../../auth/key-store.js';
import { DAY_MS } from '../../auth/rate-limiter.js';
import { DEFAULT_DB } from '../defaults.js';

export const KEYS_USAGE = `usage: maphist keys <action> [--db PATH] [--keys-db PATH]
  create [--name N] [--per-minute N] [--daily-quota N]   make a key; prints it once
  list                                                   ids, names, limits and usage (never the keys)
  revoke <id>                                            the key is refused from now on
  set-quota <id> [--per-minute N] [--daily-quota N]      change a key's limits
The keys file is <db without .duckdb>.keys.duckdb beside --db (default ${DEFAULT_DB}), or --keys-db.`;

const OPTIONS = {
  db: { type: 'string', default: DEFAULT_DB },
  'keys-db': { type: 'string' },
  name: { type: 'string' },
  'per-minute': { type: 'string' },
  'daily-quota': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function keysCommand(argv: string[], out: (line: string) => void = console.log): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [action, id, ...extra] = positionals;
  if (values.help || action === 'help') {
    out(KEYS_USAGE);
    return;
  }
  const path = values['keys-db'] ?? keysDbPathFor(values.db!);
  const perMinute = positiveInteger(values['per-minute'], '--per-minute');
  const dailyQuota = positiveInteger(values['daily-quota'], '--daily-quota');
  const needsId = action === 'revoke' || action === 'set-quota';
  if (extra.length > 0 || (needsId ? id === undefined : id !== undefined)) throw usage(`keys ${action ?? ''}: wrong number of arguments`);
  switch (action) {
    case 'create': {
      const key = generateApiKey();
      const record = {
        id: generateKeyId(),
        name: values.name ?? '',
        sha256: hashApiKey(key),
        createdMs: Date.now(),
        revokedMs: null,
        perMinute: perMinute ?? null,
        dailyQuota: dailyQuota ?? null,
      };
      await insertKey(path, record);
      out(`created key ${record.id}${record.name ? ` (${record.name})` : ''} in ${path}`);
      out(`key: ${key}`);
      out('Keep it now: it is stored only as a hash and cannot be shown again. Send it as the Authorization header.');
      return;
    }
    case 'list': {
      const { keys, usage } = await readKeys(path);
      const now = Date.now();
      out(['id', 'name', 'created', 'revoked', 'per-minute', 'daily-quota', 'used-today'].join('\t'));
      for (const k of keys) {
        const w = usage.get(k.id);
        const used = w && now < w.start + DAY_MS ? w.used : 0;
        out(
          [
            k.id,
            k.name || '-',
            new Date(k.createdMs).toISOString(),
            k.revokedMs === null ? '-' : new Date(k.revokedMs).toISOString(),
            k.perMinute ?? `${DEFAULT_PER_MINUTE} (default)`,
            k.dailyQuota ?? `${DEFAULT_DAILY_QUOTA} (default)`,
            used,
          ].join('\t'),
        );
      }
      return;
    }
    case 'revoke':
      if (!(await revokeKey(path, id!, Date.now()))) throw notFound(id!, path);
      out(`revoked key ${id}`);
      return;
    case 'set-quota':
      if (perMinute === undefined && dailyQuota === undefined) throw usage('keys set-quota: give --per-minute and/or --daily-quota');
      if (!(await setKeyLimits(path, id!, { perMinute, dailyQuota }))) throw notFound(id!, path);
      out(
        `key ${id}: ${[perMinute !== undefined && `per-minute ${perMinute}`, dailyQuota !== undefined && `daily-quota ${dailyQuota}`].filter(Boolean).join(', ')}`,
      );
      return;
    default:
      throw usage(action === undefined ? 'keys: which action?' : `keys: unknown action '${action}'`);
  }
}

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw usage(`${flag} takes a whole number of at least 1`);
  return n;
}

function usage(message: string): MaphistError {
  return new MaphistError('CLI_USAGE', `${message}\n${KEYS_USAGE}`);
}

function notFound(id: string, path: string): MaphistError {
  return new MaphistError('KEY_NOT_FOUND', `There is no key with id ${id} in ${path}. \`maphist keys list\` shows the ids.`);
}
