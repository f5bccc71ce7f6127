// `npm run catalog:export [-- <path>]`: this release's builtin catalog as a catalog feed document
// ({version: 1, models: [...]}), on stdout or into <path> (the repository's copy: catalog/builtin-catalog.json).
import { writeFileSync } from 'node:fs';
import { builtinCatalogFile, catalogFileText } from '../src/families/builtin-catalog-file';
import { FAMILIES } from '../src/families/family-registry';

const text = catalogFileText(builtinCatalogFile(FAMILIES));
const path = process.argv[2];
if (path) {
  writeFileSync(path, text);
  process.stderr.write(`wrote ${path} (${Buffer.byteLength(text)} bytes)\n`);
} else process.stdout.write(text);
