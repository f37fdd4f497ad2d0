/**
 * `npm run bench:scale` is a bench, not a test: this only checks that it runs
 * on a small site and reports what an operator reads from it (each build's
 * wall time, CPU time and peak memory, and the portal's ratios to both
 * references). Its figures are not asserted: they live in bench/README.md.
 */
import {spawnSync} from 'node:child_process';
import {ROOT} from '../../scripts/support/siteCopy';

const NUMBER = String.raw`\d+(?:\.\d+)?`;

test('npm run bench:scale -- 50 builds the references and the portal and prints its table', () => {
  const run = spawnSync('npm', ['run', '--silent', 'bench:scale', '--', '50'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {...process.env, BENCH_PAIRS: '1', BENCH_RECORD: '0'},
  });
  // The bench's stderr says why when it fails.
  expect({status: run.status, stderr: run.stderr}).toEqual({status: 0, stderr: expect.any(String)});
  const rows = run.stdout.split('\n');
  for (const build of ['reference', 'reference + search', 'portal']) {
    expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^\\| ${build.replace('+', '\\+')} \\| ${NUMBER} \\| ${NUMBER} \\| ${NUMBER} \\|$`)));
  }
  for (const reference of ['reference', 'reference \\+ search']) {
    expect(rows).toContainEqual(
      expect.stringMatching(new RegExp(`^portal / ${reference}: wall ${NUMBER}×, CPU ${NUMBER}×, peak memory ${NUMBER}×$`)),
    );
  }
}, 600_000);

test('npm run bench:scale refuses a page count it cannot generate, saying how to call it', () => {
  const run = spawnSync('npm', ['run', '--silent', 'bench:scale', '--', 'many'], {cwd: ROOT, encoding: 'utf8'});
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('usage: npm run bench:scale -- <pages to generate');
});
