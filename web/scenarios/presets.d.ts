// The preset catalogue the build makes from scenarios/*.json (catalogPlugin.ts): a
// PresetCatalogue, which index.ts reads it as (a declaration here cannot import that type).
declare module 'virtual:nicsim-presets' {
  const catalogue: unknown;
  export default catalogue;
}
