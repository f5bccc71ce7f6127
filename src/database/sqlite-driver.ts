/**
 * The better-sqlite3 module the SQLite data source uses.
 *
 * better-sqlite3 12 (the major TypeORM 1 declares) wraps its objects in node::ObjectWrap. Built
 * with Node 24.19+ headers, that class aborts the process when V8 collects a statement or database
 * outside a JavaScript context (`RemoveEnvironmentCleanupHook: (env) != nullptr`, nodejs/node#65446),
 * which happens in normal operation. better-sqlite3 13 (node-addon-api, same JavaScript API) is not
 * affected but needs Node-API 10 (Node 22.14+; on older Node it crashes at once). So: 13 where
 * Node-API 10 is there, 12 elsewhere (Node 20).
 */
export function sqliteDriver(): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return Number(process.versions.napi) >= 10 ? require('better-sqlite3-13') : require('better-sqlite3');
}
