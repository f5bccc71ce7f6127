import { join } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const CONTROLLERS = ['src/videos/videos.controller.ts', 'src/generations/generations.controller.ts'].map((path) => join(ROOT, path));

/** The controllers as `npm run build` emits them: through @nestjs/swagger's compiler plugin, which adds a response per route. */
async function emitWithSwaggerPlugin(): Promise<Map<string, string>> {
  const plugin = await import('@nestjs/swagger/plugin');
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.build.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  const program = ts.createProgram({ rootNames: CONTROLLERS, options: { ...parsed.options, noEmit: false } });
  const emitted = new Map<string, string>();
  for (const file of CONTROLLERS) {
    program.emit(
      program.getSourceFile(file),
      (name, text) => {
        if (name.endsWith('.js')) emitted.set(file, text);
      },
      undefined,
      false,
      { before: [plugin.before({ introspectComments: true, classValidatorShim: true }, program)] },
    );
  }
  return emitted;
}

describe('the cancel routes in the built API documentation', () => {
  it('answer 200 with the task, never the 201 a POST defaults to', async () => {
    const emitted = await emitWithSwaggerPlugin();
    expect([...emitted.keys()].sort()).toEqual([...CONTROLLERS].sort());
    for (const [file, text] of emitted) {
      const cancel = text.slice(text.indexOf("/cancel')"), text.indexOf('"cancel", null)'));
      expect({ file, status201: cancel.includes('status: 201') }).toEqual({ file, status201: false });
      expect(cancel).toMatch(/status: 200/);
    }
  }, 120_000);
});
