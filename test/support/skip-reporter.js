// Says once, after the summary, which suites skipped tests and why (a missing TEST_MYSQL_URL, a
// missing Chromium, no tmpfs), instead of each suite warning on its own somewhere in the log.
'use strict';

const { existsSync, writeSync } = require('node:fs');
const { relative } = require('node:path');

function reasons() {
  const out = [];
  if (!process.env.TEST_MYSQL_URL) {
    out.push(
      'TEST_MYSQL_URL is not set: the MySQL variants were skipped (SQLite only). Run them with TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/test npm test',
    );
  }
  if (!process.env.TEST_POSTGRES_URL) {
    out.push(
      'TEST_POSTGRES_URL is not set: the PostgreSQL variants were skipped. Run them with TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres npm test',
    );
  }
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromium) && process.env.REQUIRE_BROWSER !== '1') {
    out.push(
      `no browser at ${chromium}: the console's browser suites were skipped. Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  if (process.getuid && process.getuid() !== 0) {
    out.push('not root: the full-disk suite (it mounts a small tmpfs of its own) was skipped');
  }
  return out;
}

class SkipReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.testResults
      .filter((file) => file.numPendingTests > 0)
      .map((file) => `  ${relative(process.cwd(), file.testFilePath)}: ${file.numPendingTests} skipped`);
    if (skipped.length === 0) return;
    const why = reasons().map((line) => `  - ${line}`);
    const notice = `\nSKIPPED tests (${skipped.length} ${skipped.length === 1 ? 'suite' : 'suites'}):\n${skipped.join('\n')}\n${why.length ? `Why:\n${why.join('\n')}\n` : ''}`;
    // Jest prints its summary after the reporters' onRunComplete: the notice goes last, at exit.
    process.once('exit', () => writeSync(2, notice));
  }
}

module.exports = SkipReporter;
