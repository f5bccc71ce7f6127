// The console imports its npm libraries by the URLs the gateway serves them at (/console/vendor/...,
// see console-vendor-files.ts); for the type-check these URLs stand for the packages' own types.
declare module '*/console/vendor/preact.mjs' {
  export * from 'preact';
}
declare module '*/console/vendor/preact-hooks.mjs' {
  export * from 'preact/hooks';
}
declare module '*/console/vendor/htm.mjs' {
  import htm from 'htm';
  export default htm;
}
declare module '*/console/vendor/uplot.esm.js' {
  import uPlot from 'uplot';
  export default uPlot;
}
