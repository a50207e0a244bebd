/** The Jackson-style JSON writer, Java double printing, DecimalFormat rounding and the CSV writer. */
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { javaDoubleToString } from './java-double.js';
import { round2, round6, roundHalfEven, roundHalfEvenExact } from './decimal-format.js';
import { RecordsLayout, prettyJson, prettyJsonPaced, type JsonValue } from './pretty-json.js';
import { writeCsv } from './csv.js';

describe('javaDoubleToString', () => {
  it('prints like Double.toString', () => {
    const cases: [number, string][] = [
      [5, '5.0'],
      [0, '0.0'],
      [-0, '-0.0'],
      [40, '40.0'],
      [0.5, '0.5'],
      [0.001, '0.001'],
      [0.000123, '1.23E-4'],
      [9999999, '9999999.0'],
      [1e7, '1.0E7'],
      [10209402.58, '1.020940258E7'],
      [1.5e300, '1.5E300'],
      [28660.519999999997, '28660.519999999997'],
      [-3868.09, '-3868.09'],
      [123456.7, '123456.7'],
      [NaN, 'NaN'],
      [Infinity, 'Infinity'],
      [-Infinity, '-Infinity'],
    ];
    for (const [x, s] of cases) assert.equal(javaDoubleToString(x), s, String(x));
  });
  it('round-trips every double', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => Object.is(Number(javaDoubleToString(x)), x)));
  });
  it('in plain notation, prints the shortest digits of the scientific form (the fast path agrees with the general one)', () => {
    // The general form, spelt out: shortest digits and exponent from toExponential, placed by hand.
    const plain = (x: number): string => {
      const [mantissa, expText] = Math.abs(x).toExponential().split('e');
      const digits = mantissa.replace('.', '');
      const exp = Number(expText);
      const sign = x < 0 ? '-' : '';
      if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
      const frac = digits.slice(exp + 1);
      return `${sign}${digits.slice(0, exp + 1).padEnd(exp + 1, '0')}.${frac === '' ? '0' : frac}`;
    };
    const inRange = fc.oneof(
      fc.double({ min: 1e-3, max: 9999999.999999998, noNaN: true }),
      fc.integer({ min: 1, max: 9999999 }),
      fc.integer({ min: -9999999, max: 9999999 }).map((n) => n / 100),
    );
    fc.assert(fc.property(inRange, fc.boolean(), (x, negative) => x === 0 || javaDoubleToString(negative ? -x : x) === plain(negative ? -x : x)));
  });
});

describe('DecimalFormat rounding', () => {
  it('rounds HALF_EVEN on the exact binary value', () => {
    assert.equal(round2(0.125), 0.12); // exactly representable tie → even
    assert.equal(round2(0.375), 0.38);
    assert.equal(round2(1.005), 1); // 1.005 is 1.00499999999999989… in binary
    assert.equal(round2(2.675), 2.67); // 2.67499999999999982236431605997495353221893310546875
    assert.equal(round2(1.015), 1.01); // 1.0149999999999999023003738329862244427204132080078125
    assert.equal(round2(1.025), 1.02); // 1.024999999999999911182158029987…
    assert.equal(round2(3868.0943), 3868.09);
    assert.equal(round2(-0.125), -0.12);
    assert.equal(round2(40), 40);
    assert.equal(round6(2 / 13), 0.153846);
    assert.equal(round6(1 / 3), 0.333333);
    assert.ok(Number.isNaN(round6(NaN)));
    assert.equal(round6(Infinity), Infinity);
    assert.equal(roundHalfEven(1e20 + 0.5, 2), 1e20);
  });
  it('takes the same value in doubles as in exact integer arithmetic, ties and near-ties included', () => {
    // Near-ties: k + 1/2 units of the last digit, and its neighbouring doubles a few ulps away.
    const nearTie = fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(2, 6), fc.integer({ min: -4, max: 4 })).map(([k, digits, ulps]) => {
      const x = (k + 0.5) / 10 ** digits;
      return { x: x + ulps * Number.EPSILON * Math.abs(x), digits };
    });
    const any = fc.tuple(fc.double({ min: -1e13, max: 1e13, noNaN: true }), fc.constantFrom(2, 6)).map(([x, digits]) => ({ x, digits }));
    fc.assert(
      fc.property(fc.oneof(nearTie, any), ({ x, digits }) => Object.is(roundHalfEven(x, digits), roundHalfEvenExact(x, digits))),
      { numRuns: 5000 },
    );
  });
  it('never moves a value by more than half a unit of the last digit', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (x) => {
        const r = round2(x);
        return Math.abs(r - x) <= 0.005 + Math.abs(x) * 1e-15 && Math.abs(r * 100 - Math.round(r * 100)) < 1e-3 * Math.max(1, Math.abs(r));
      }),
    );
  });
});

describe('prettyJson', () => {
  it('prints like Jackson DefaultPrettyPrinter', () => {
    const text = prettyJson({
      attribution: { url: 'u', text: '© t' },
      apiVersion: '1',
      metadata: undefined,
      result: [
        { timestamp: '2015-01-01T00:00:00Z', value: 40 },
        { timestamp: 't2', value: NaN },
      ],
      empty: [],
      obj: {},
      status: 400n,
      nested: [['a', 'b'], [1.5]],
    });
    assert.equal(
      text,
      [
        '{',
        '  "attribution" : {',
        '    "url" : "u",',
        '    "text" : "© t"',
        '  },',
        '  "apiVersion" : "1",',
        '  "result" : [ {',
        '    "timestamp" : "2015-01-01T00:00:00Z",',
        '    "value" : 40.0',
        '  }, {',
        '    "timestamp" : "t2",',
        '    "value" : "NaN"',
        '  } ],',
        '  "empty" : [ ],',
        '  "obj" : { },',
        '  "status" : 400,',
        '  "nested" : [ [ "a", "b" ], [ 1.5 ] ]',
        '}',
      ].join('\n'),
    );
  });
  it('is valid JSON for any value tree', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        JSON.parse(prettyJson(v as never));
      }),
    );
  });
});

describe('writeCsv', () => {
  it('writes comments, header and quoted or unquoted rows', () => {
    assert.equal(
      writeCsv({ comments: ['Copyright URL: x'], header: ['timestamp', 'value'], rows: [['2014-01-01T00:00:00Z', '42.0']], quoteRows: true }),
      '# Copyright URL: x\ntimestamp;value\n"2014-01-01T00:00:00Z";"42.0"\n',
    );
    assert.equal(
      writeCsv({ comments: [], header: ['timestamp', 'a;b', 'q"'], rows: [['t', '1.0', '2.0']], quoteRows: false }),
      'timestamp;"a;b";"q"""\nt;1.0;2.0\n',
    );
  });
});

test('prettyJsonPaced writes the same text as prettyJson, asking for turns between the members of outer containers', async () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.double(),
      fc.string(),
      fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.option(tie('value'), { nil: undefined }), { maxKeys: 4 }),
    ),
  })).value as fc.Arbitrary<JsonValue>;
  await fc.assert(
    fc.asyncProperty(json, async (v) => {
      let asked = 0;
      const paced = await prettyJsonPaced(v, () => {
        asked++;
        return asked % 3 === 0 ? Promise.resolve() : undefined;
      });
      assert.equal(paced, prettyJson(v));
    }),
  );
  // A v1 answer's shape: the turns come between groups and between the items of each series.
  let asked = 0;
  const doc = {
    groupByResult: Array.from({ length: 3 }, (_, g) => ({
      result: Array.from({ length: 4 }, (_, i) => ({ timestamp: `t${i}`, value: g + i })),
      groupByObject: `g${g}`,
    })),
  };
  assert.equal(
    await prettyJsonPaced(doc, () => {
      asked++;
      return undefined;
    }),
    prettyJson(doc),
  );
  assert.ok(asked >= 3 * 4, `asked ${asked} times`);
});

test('RecordsLayout writes the records as prettyJson writes the same objects, at the level they go', () => {
  const records = fc.array(
    fc.record({ from: fc.string({ maxLength: 6 }), to: fc.string({ maxLength: 6 }), value: fc.double(), value2: fc.double(), ratio: fc.double() }),
    { maxLength: 6 },
  );
  fc.assert(
    fc.property(records, fc.boolean(), (rs, withRatio) => {
      const fixed = rs.map((r) => ({ fromTimestamp: r.from, toTimestamp: r.to }));
      const names = withRatio ? ['value', 'value2', 'ratio'] : ['value'];
      const columns = withRatio ? [rs.map((r) => r.value), rs.map((r) => r.value2), rs.map((r) => r.ratio)] : [rs.map((r) => r.value)];
      const objects = rs.map((r, i) => (withRatio ? { ...fixed[i], value: r.value, value2: r.value2, ratio: r.ratio } : { ...fixed[i], value: r.value }));
      // Ungrouped (the array a member of the answer) and grouped (a member of each group).
      assert.equal(prettyJson({ result: new RecordsLayout(fixed, names, 1).write(columns) }), prettyJson({ result: objects }));
      const groupsText = prettyJson({ groupByResult: [{ result: new RecordsLayout(fixed, names, 2).write(columns), groupByObject: 'g' }] });
      assert.equal(groupsText, prettyJson({ groupByResult: [{ result: objects, groupByObject: 'g' }] }));
    }),
  );
  assert.throws(() => prettyJson([new RecordsLayout([], ['value'], 2).write([[]])]), /level 2 placed at level 0/);
});
