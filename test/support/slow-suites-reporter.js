// Lists, once after the summary, the suites that took longest (wall time of each file on its worker),
// so a slow CI run says where its time went. Only on a run of more than SLOWEST files (a whole suite).
'use strict';

const { writeSync } = require('node:fs');
const { relative } = require('node:path');

const SLOWEST = 30;

class SlowSuitesReporter {
  onRunComplete(_contexts, results) {
    const files = results.testResults.filter((file) => file.perfStats && file.perfStats.end > file.perfStats.start);
    if (files.length <= SLOWEST) return;
    const seconds = (file) => (file.perfStats.end - file.perfStats.start) / 1000;
    const total = files.reduce((sum, file) => sum + seconds(file), 0);
    const rows = files
      .sort((a, b) => seconds(b) - seconds(a))
      .slice(0, SLOWEST)
      .map((file) => `  ${seconds(file).toFixed(1).padStart(7)} s  ${relative(process.cwd(), file.testFilePath)}`);
    const notice = `\nSLOWEST suites (of ${files.length}, ${Math.round(total)} s of worker time in all):\n${rows.join('\n')}\n`;
    // After Jest's own summary, as the skip notice.
    process.once('exit', () => writeSync(2, notice));
  }
}

module.exports = SlowSuitesReporter;
