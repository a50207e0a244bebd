/** The Jackson-style JSON writer, Java double printing, DecimalFormat rounding and the CSV writer. */
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { javaDoubleToString } from './java-double.js';
import { round2, round6, roundHalfEven } from './decimal-format.js';
import { prettyJson, prettyJsonPaced, type JsonValue } from './pretty-json.js';
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
