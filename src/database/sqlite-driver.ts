/**
 * The better-sqlite3 module the SQLite data source uses.
 *
 * better-sqlite3 12 (the major TypeORM 1 declares) wraps its objects in node::ObjectWrap. Built
 * with Node 24.19+ headers, that class aborts the process when V8 collects a statement or database
 * outside a JavaScript context (`RemoveEnvironmentCleanupHook: (env) != nullptr`, nodejs/node#65446),
 * which happens in normal operation. better-sqlite3 13 (node-addon-api, same JavaScript API) is not
 * affected but needs Node-API 10 (Node 22.14+; on older Node it crashes at once). So: 13 where
 * Node-API 10 is there, 12 elsewhere (Node 20).
 *
 * 13 is an optional dependency (the npm alias `better-sqlite3-13`): it declares Node 22+, so npm
 * skips it on Node 20 (where it is not loaded) instead of warning. Installed under Node 20 and run
 * under a newer Node, node_modules lacks it: that start fails with what to do.
 */
export function sqliteDriver(): unknown {
  /* eslint-disable @typescript-eslint/no-require-imports */
  if (!(Number(process.versions.napi) >= 10)) return require('better-sqlite3');
  let path: string;
  try {
    path = require.resolve('better-sqlite3-13');
  } catch {
    throw new Error(
      `The SQLite driver for Node ${process.version} (Node-API ${process.versions.napi}), better-sqlite3 13 ` +
        '(the optional dependency better-sqlite3-13), is not installed: npm skips it when installing with Node older ' +
        'than 22 or with --omit=optional. Run `npm ci` (or `npm install`) with this Node version.',
    );
  }
  return require(path);
  /* eslint-enable @typescript-eslint/no-require-imports */
}
