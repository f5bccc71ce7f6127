/**
 * Jest transform for the ESM-only packages in node_modules (the NestJS 12 packages).
 *
 * The app is CommonJS; at run time Node loads those packages through require(esm). Jest has its
 * own module loader, which can require() ESM only on Node >= 24.9 (and with
 * --experimental-vm-modules). To run the same suite on Node 20 and 24, such files are compiled
 * to CommonJS here with TypeScript's transpiler. `import.meta` has no CommonJS syntax, so its uses
 * are rewritten first (`url`, `dirname`, `filename`, `resolve()`), and a top-level
 * `const require = createRequire(import.meta.url)` is dropped: the module's own `require` is the same
 * thing in CommonJS. Files that are not ESM pass through untouched.
 */
const { createHash } = require('node:crypto');
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const ts = require('typescript');

const packageTypes = new Map();

/** The "type" of the package.json nearest to `directory`. */
function packageType(directory) {
  if (packageTypes.has(directory)) return packageTypes.get(directory);
  const manifest = join(directory, 'package.json');
  let type;
  if (existsSync(manifest)) type = JSON.parse(readFileSync(manifest, 'utf8')).type ?? 'commonjs';
  else type = dirname(directory) === directory ? 'commonjs' : packageType(dirname(directory));
  packageTypes.set(directory, type);
  return type;
}

const isEsm = (filename) => filename.endsWith('.mjs') || (filename.endsWith('.js') && packageType(dirname(filename)) === 'module');

/** CommonJS stand-ins for `import.meta` and top-level `const require = createRequire(import.meta.url)`. */
function importMetaToCommonJs(context) {
  const f = context.factory;
  const requireCall = (name) => f.createCallExpression(f.createIdentifier('require'), undefined, [f.createStringLiteral(name)]);
  const fileUrl = (pathExpression) =>
    f.createPropertyAccessExpression(
      f.createCallExpression(f.createPropertyAccessExpression(requireCall('node:url'), 'pathToFileURL'), undefined, [pathExpression]),
      'href',
    );
  const isImportMeta = (node) => ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword && node.name.text === 'meta';
  const isRequireDeclaration = (statement) =>
    ts.isVariableStatement(statement) &&
    statement.declarationList.declarations.length === 1 &&
    ts.isIdentifier(statement.declarationList.declarations[0].name) &&
    statement.declarationList.declarations[0].name.text === 'require';

  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node) && isImportMeta(node.expression)) {
      switch (node.name.text) {
        case 'url':
          return fileUrl(f.createIdentifier('__filename'));
        case 'filename':
          return f.createIdentifier('__filename');
        case 'dirname':
          return f.createIdentifier('__dirname');
        case 'resolve':
          return f.createArrowFunction(
            undefined,
            undefined,
            [f.createParameterDeclaration(undefined, undefined, 'specifier')],
            undefined,
            undefined,
            fileUrl(
              f.createCallExpression(f.createPropertyAccessExpression(f.createIdentifier('require'), 'resolve'), undefined, [
                f.createIdentifier('specifier'),
              ]),
            ),
          );
      }
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (sourceFile) => {
    const statements = sourceFile.statements.filter((statement) => !isRequireDeclaration(statement));
    return ts.visitEachChild(f.updateSourceFile(sourceFile, statements), visit, context);
  };
}

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  allowJs: true,
  sourceMap: true,
  inlineSources: true,
};

/** This file's own text is part of every cache key, so a change here recompiles everything. */
const transformerKey = createHash('sha256').update(ts.version).update(readFileSync(__filename)).digest('hex');

module.exports = {
  getCacheKey(source, filename) {
    return createHash('sha256').update(transformerKey).update(filename).update('\0').update(source).digest('hex');
  },
  process(source, filename) {
    if (!isEsm(filename)) return { code: source };
    const output = ts.transpileModule(source, {
      fileName: filename.replace(/\.mjs$/, '.js'),
      compilerOptions,
      transformers: { before: [importMetaToCommonJs] },
    });
    return { code: output.outputText, map: output.sourceMapText };
  },
};
