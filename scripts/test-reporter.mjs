// The test reporter of `npm test`: the spec reporter's tree of test names and failures, without
// durations (timings belong in bench/, not in the test output), closed by one plain summary line.
import { inspect } from 'node:util';

function failureText(error) {
  const cause = error?.cause ?? error;
  if (cause instanceof Error) return cause.stack ?? String(cause);
  return inspect(cause, { depth: 4 });
}

export default async function* reporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  const failures = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') {
      if (event.type === 'test:stderr' || event.type === 'test:stdout') yield event.data.message;
      continue;
    }
    const { name, nesting, details, skip, todo } = event.data;
    const indent = '  '.repeat(nesting);
    // A suite reports its own pass/fail after its tests; it is not counted as a test.
    const isSuite = details?.type === 'suite';
    if (event.type === 'test:pass') {
      const mark =
        skip !== undefined ? `﹣ ${name} # SKIP${typeof skip === 'string' ? ` ${skip}` : ''}` : todo !== undefined ? `﹣ ${name} # TODO` : `✔ ${name}`;
      yield `${indent}${mark}\n`;
      if (!isSuite) {
        if (skip !== undefined) counts.skipped++;
        else if (todo !== undefined) counts.todo++;
        else counts.passed++;
      }
    } else {
      yield `${indent}✖ ${name}\n`;
      if (!isSuite || details?.error?.failureType !== 'subtestsFailed') {
        const text = failureText(details?.error);
        failures.push({ name, file: event.data.file, text });
        yield `${text
          .split('\n')
          .map((l) => `${indent}  ${l}`)
          .join('\n')}\n`;
        if (!isSuite) counts.failed++;
      }
    }
  }
  if (failures.length > 0) {
    yield '\nfailing tests:\n';
    for (const f of failures) yield `\n✖ ${f.name}${f.file ? ` (${f.file})` : ''}\n${f.text}\n`;
  }
  yield `\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${counts.todo ? `, ${counts.todo} todo` : ''}\n`;
}
