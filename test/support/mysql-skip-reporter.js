// Says once, at the end of the run, that the MySQL variants of the e2e suites did not run
// (each suite used to warn on its own, with a code frame, once per file).
'use strict';

class MysqlSkipReporter {
  onRunComplete() {
    if (process.env.TEST_MYSQL_URL) return;
    process.stderr.write('\nTEST_MYSQL_URL is not set: the MySQL variants of the e2e suites were SKIPPED (SQLite only).\n' + 'Run them with TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/test npm test\n');
  }
}

module.exports = MysqlSkipReporter;
