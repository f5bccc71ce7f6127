#!/usr/bin/env node
// `npm run build`: compiles src/ into dist/ with the TypeScript compiler API, what `nest build` did
// (without @nestjs/cli, whose toolchain requires Node 22+):
//   1. deletes dist/;
//   2. type-checks and emits tsconfig.build.json's files, with the @nestjs/swagger compiler plugin
//      (the DTO and controller metadata the OpenAPI document is built from);
//   3. copies the assets the gateway reads from disk (ASSETS below, from src/ into dist/).
// Any type error fails the build (exit 1), after emitting, as `nest build` did.
//
// `node scripts/build.js --watch` (`npm run start:dev`): the same, then recompiles on every change
// to src/ (only what changed), copies changed assets again, and (re)starts `node dist/main.js`
// after each build without errors.
'use strict';
const { cpSync, existsSync, rmSync, watch } = require('node:fs');
const { join, relative } = require('node:path');
const { spawn } = require('node:child_process');
const ts = require('typescript');

const root = join(__dirname, '..');
const TSCONFIG = join(root, 'tsconfig.build.json');
/** Directories under src/ copied as they are into dist/ (the console's browser files, the simulator's sample media). */
const ASSETS = ['console/public', 'simulator/assets'];
/** @nestjs/swagger's plugin options (see https://docs.nestjs.com/openapi/cli-plugin). */
const SWAGGER_PLUGIN_OPTIONS = { introspectComments: true, classValidatorShim: true };

const formatHost = {
  getCanonicalFileName: (path) => path,
  getCurrentDirectory: () => root,
  getNewLine: () => ts.sys.newLine,
};

/** The parsed tsconfig.build.json: compiler options and root file names. */
function readConfig() {
  const parsed = ts.getParsedCommandLineOfConfigFile(TSCONFIG, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.formatDiagnostic(diagnostic, formatHost));
    },
  });
  if (parsed.errors.length > 0) throw new Error(ts.formatDiagnostics(parsed.errors, formatHost));
  return parsed;
}

/** Copies one asset path (a file or a directory) from src/ into dist/, or removes it from dist/ when gone from src/. */
function copyAsset(srcRoot, outDir, path) {
  const from = join(srcRoot, path);
  const to = join(outDir, path);
  if (existsSync(from)) cpSync(from, to, { recursive: true, force: true });
  else rmSync(to, { recursive: true, force: true });
}

async function main() {
  const watchMode = process.argv.includes('--watch');
  // ESM package: loaded by import(), and it imports the same `typescript` module this script uses.
  const swaggerPlugin = await import('@nestjs/swagger/plugin');
  const config = readConfig();
  const { options } = config;
  const srcRoot = options.rootDir;
  const outDir = options.outDir;

  rmSync(outDir, { recursive: true, force: true });
  if (!watchMode) {
    const program = ts.createProgram({ rootNames: config.fileNames, options, projectReferences: config.projectReferences });
    const emitResult = program.emit(undefined, undefined, undefined, undefined, {
      before: [swaggerPlugin.before(SWAGGER_PLUGIN_OPTIONS, program)],
    });
    for (const asset of ASSETS) copyAsset(srcRoot, outDir, asset);
    const diagnostics = ts.getPreEmitDiagnostics(program).concat(emitResult.diagnostics);
    if (diagnostics.length > 0) {
      const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
      process.stderr.write(format(diagnostics, formatHost));
      process.stderr.write(`Found ${diagnostics.length} error(s).\n`);
      process.exit(1);
    }
    return;
  }

  // Watch mode: the app runs as a child process, restarted after each build without errors.
  let app;
  let startAgain = false;
  const startApp = () => {
    if (app) {
      startAgain = true;
      app.kill('SIGTERM');
      return;
    }
    app = spawn(process.execPath, [join(outDir, 'main.js')], { cwd: root, stdio: 'inherit' });
    app.on('exit', () => {
      app = undefined;
      if (startAgain) {
        startAgain = false;
        startApp();
      }
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (!app) process.exit(0);
      startAgain = false;
      app.on('exit', () => process.exit(0));
      app.kill(signal);
    });
  }
  let errors = 0;
  const host = ts.createWatchCompilerHost(
    TSCONFIG,
    {},
    ts.sys,
    ts.createEmitAndSemanticDiagnosticsBuilderProgram,
    (diagnostic) => {
      process.stderr.write(ts.formatDiagnosticsWithColorAndContext([diagnostic], formatHost));
    },
    (diagnostic, _newLine, _options, errorCount) => {
      process.stdout.write(`${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}\n`);
      if (errorCount !== undefined) errors = errorCount;
    },
  );
  const createProgram = host.createProgram;
  host.createProgram = (...args) => {
    const builder = createProgram(...args);
    const emit = builder.emit;
    builder.emit = (targetSourceFile, writeFile, cancellationToken, emitOnlyDts, transformers = {}) =>
      emit(targetSourceFile, writeFile, cancellationToken, emitOnlyDts, {
        ...transformers,
        before: [swaggerPlugin.before(SWAGGER_PLUGIN_OPTIONS, builder.getProgram()), ...(transformers.before ?? [])],
      });
    return builder;
  };
  const afterProgramCreate = host.afterProgramCreate;
  host.afterProgramCreate = (builder) => {
    afterProgramCreate?.(builder);
    if (errors === 0) startApp();
  };
  for (const asset of ASSETS) copyAsset(srcRoot, outDir, asset);
  ts.createWatchProgram(host);

  // Assets: copied again on change (debounced), then the app restarts as `nest start --watch` did.
  let assetTimer;
  const changed = new Set();
  for (const asset of ASSETS) {
    watch(join(srcRoot, asset), { recursive: true }, (_event, name) => {
      if (name) changed.add(join(asset, name.toString()));
      clearTimeout(assetTimer);
      assetTimer = setTimeout(() => {
        for (const path of changed) copyAsset(srcRoot, outDir, path);
        process.stdout.write(`Assets copied: ${[...changed].map((path) => relative(root, join(srcRoot, path))).join(', ')}\n`);
        changed.clear();
        startApp();
      }, 150);
    });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
