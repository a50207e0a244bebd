import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isMaphistError } from '../../core/errors.js';
import { formatStateTxt, formatStateYaml, parseProperties, parseState, parseStateTxt, parseStateYaml } from './state.js';

const T = Date.UTC(2013, 7, 4, 20, 13, 2) / 1000;

function refused(f: () => unknown, message: RegExp): void {
  assert.throws(f, (e) => isMaphistError(e) && e.code === 'REPLICATION_INVALID' && message.test(e.message));
}

describe('replication state files', () => {
  it('reads the planet minutely state.txt as osmosis writes it (comment, escaped colons)', () => {
    const text = '#Sun Aug 04 20:13:04 UTC 2013\nsequenceNumber=466354\ntimestamp=2013-08-04T20\\:13\\:02Z\n';
    assert.deepEqual(parseStateTxt(text, 'state.txt'), { sequence: 466354, timestamp: T });
    assert.deepEqual(parseState(text, 'state.txt'), { sequence: 466354, timestamp: T });
  });

  it('reads the other properties syntaxes: CRLF, `:` and blank separators, `!` comments, continuations, extra keys', () => {
    const text = '! a comment\r\n  txnMaxQueried = 123\r\nsequenceNumber : 7\r\ntimestamp 2013-08-04T20\\:13\\\r\n   \\:02Z\r\n';
    assert.deepEqual(parseStateTxt(text, 'x'), { sequence: 7, timestamp: T });
    assert.equal(parseProperties('a\\=b=c\\:d\\\\').get('a=b'), 'c:d\\');
    assert.equal(parseProperties('k=\\u0041').get('k'), 'A');
  });

  it('reads changeset replication state.yaml (fractional seconds, Z or an offset)', () => {
    assert.deepEqual(parseStateYaml('---\nlast_run: 2013-08-04 20:13:02.546447000 Z\nsequence: 6079424\n', 'state.yaml'), {
      sequence: 6079424,
      timestamp: T + 0.546447,
    });
    assert.deepEqual(parseState('---\nlast_run: 2013-08-04 22:13:02.000000000 +02:00\nsequence: 5\n', 'y'), { sequence: 5, timestamp: T });
    assert.deepEqual(parseState("last_run: '2013-08-04T20:13:02Z'\nsequence: 5 # comment\n", 'y'), { sequence: 5, timestamp: T });
  });

  it('writes what it reads (state.txt with escaped colons; state.yaml with nanoseconds)', () => {
    const txt = formatStateTxt({ sequence: 466354, timestamp: T });
    assert.match(txt, /^sequenceNumber=466354$/m);
    assert.match(txt, /^timestamp=2013-08-04T20\\:13\\:02Z$/m);
    assert.deepEqual(parseState(txt, 'x'), { sequence: 466354, timestamp: T });
    const yaml = formatStateYaml({ sequence: 6079424, timestamp: T + 0.5 });
    assert.equal(yaml, '---\nlast_run: 2013-08-04 20:13:02.500000000 Z\nsequence: 6079424\n');
    assert.deepEqual(parseState(yaml, 'x'), { sequence: 6079424, timestamp: T + 0.5 });
    assert.throws(() => formatStateTxt({ sequence: -1, timestamp: T }), RangeError);
  });

  it('refuses files that are not states, naming the file and what is wrong', () => {
    refused(() => parseState('', 'https://x/state.txt'), /^https:\/\/x\/state\.txt is not a replication state file: it has no sequenceNumber\.$/);
    refused(() => parseState('sequenceNumber=5\n', 'f'), /it has no timestamp/);
    refused(() => parseState('sequenceNumber=5a\ntimestamp=2013-08-04T20\\:13\\:02Z', 'f'), /sequenceNumber "5a" is not a sequence number/);
    refused(() => parseState('sequenceNumber=1000000000\ntimestamp=2013-08-04T20\\:13\\:02Z', 'f'), /is not a sequence number/);
    refused(() => parseState('sequenceNumber=5\ntimestamp=yesterday', 'f'), /timestamp "yesterday" is not a time/);
    refused(() => parseState('sequenceNumber=5\ntimestamp=2013-02-30T20\\:13\\:02Z', 'f'), /not a valid date/);
    refused(() => parseState('sequenceNumber=5\ntimestamp=2013-08-04T20\\:13\\:02', 'f'), /is not a time/);
    refused(() => parseState('<html><body>Not Found</body></html>', 'f'), /it has no sequenceNumber/);
    refused(() => parseState('---\nsequence: 5\n', 'f'), /it has no last_run/);
    refused(() => parseState('---\nlast_run: 2013-08-04 20:13:02 Z\n- a list item\n', 'f'), /line "- a list item" is not "key: value"/);
    refused(() => parseState('sequenceNumber=5\0\0', 'f'), /binary/);
  });
});
