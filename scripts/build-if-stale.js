#!/usr/bin/env node
// `npm start` runs this first: it builds when dist/ is missing or any build input is newer than
// the last build, so an edited source file never runs as old code. Plain Node, no dependencies.
'use strict';
const { existsSync, readdirSync, statSync, utimesSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const INPUTS = ['src', 'package.json', 'package-lock.json', 'scripts/build.js', 'tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time under `path` (a file or a directory, walked), 0 when absent. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), info.mtimeMs);
}

const builtAt = existsSync(stamp) && existsSync(join(root, 'dist', 'main.js')) ? statSync(stamp).mtimeMs : 0;
const changedAt = Math.max(...INPUTS.map((input) => newest(join(root, input))));
if (builtAt > 0 && changedAt <= builtAt) process.exit(0);

process.stdout.write(
  builtAt === 0 ? 'No build yet: building (npm run build)...\n' : 'Sources changed since the last build: rebuilding (npm run build)...\n',
);
const startedAt = Date.now();
const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// The stamp records when the build started: a file saved during the build triggers the next one.
writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
utimesSync(stamp, new Date(startedAt), new Date(startedAt));
