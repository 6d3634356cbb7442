// Hand-written typings of the embind module produced by core-cpp/scripts/build-wasm.sh
// (web/engine/wasm/nicsim_core.js + nicsim_core.wasm). Contract: core-cpp/README.md.

export interface NicsimCoreModule {
  /** JSON array of {path, message}; empty array when the scenario is valid. */
  validate(scenario: string, overrides: string): string;
  /**
   * validate() and the checks run() adds for the access log this instance holds (that one is
   * loaded, what replaying it costs): JSON array of {path, message}, empty when a run would start.
   */
  validateRun(scenario: string, overrides: string): string;
  /** Output JSON (nicsim-results/1) or {"errors":[{path,message}]}. */
  run(scenario: string, overrides: string): string;
  /**
   * run() in three steps (core-cpp/api/api.hpp), for the worker pool: the main run, whose
   * document has an empty sweep and, when there is one, "pending": {sweep_points, checks,
   * main_point?, setups, main_setup} (the point the main run already is, with its entry; what
   * each point's run and the main run build first and keep, for the pool to keep together); …
   */
  runMain(scenario: string, overrides: string): string;
  /** … one sweep point's entry {value, series?, results} (index into pending.sweep_points); … */
  runPoint(scenario: string, overrides: string, index: number): string;
  /**
   * … and the complete document (byte-identical to run()): entries is a JSON array in order,
   * null at main_point's index.
   */
  finish(scenario: string, overrides: string, main: string, entries: string): string;
  /**
   * Keeps an access log's requests (file id and content bytes of request i) for the runs that
   * follow with workload.trace "log"; returns how many. Empty arrays forget it.
   */
  setAccessLog(files: Uint32Array, bytes: Uint32Array): number;
  /** Starts parsing an access log (Common or Combined Log Format); drops a parse under way. */
  accessLogBegin(): void;
  /** The file's next bytes, cut anywhere. False once the parser takes no more: stop reading. */
  accessLogFeed(bytes: Uint8Array): boolean;
  /**
   * The report as JSON (web/webserver/accessLog.ts AccessLogReport). Unless refused, the log becomes
   * the one the runs replay, and their output carries the report as "access_log", as the CLI's
   * --log does.
   */
  accessLogFinish(): string;
  /** The requests the runs replay (copies): request i is (files[i], bytes[i]). */
  accessLogRequests(): { files: Uint32Array; bytes: Uint32Array };
  /** Copy of the last run's trace records, 40 bytes each, little-endian. */
  traceBytes(): Uint8Array;
  /** JSON array of trace kind names, index = kind id. */
  traceKindNames(): string;
  /** JSON array of component names, index = component id. */
  componentNames(): string;
  /** JSON {events:[{name,label,hardware,code_bytes}], paths:[{name,event,label}], table_3_4}. */
  tigonInfo(): string;
  /** Runs a queue whose handlers only schedule their successors; returns events fired. */
  nullLoop(events: number): number;
  /** JSON array of parameter specs (path, type, range, default, unit, origin). */
  parameterInfo(): string;
}

export interface NicsimCoreOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Instantiates the module itself (here: from a WebAssembly.Module compiled once, elsewhere). */
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ) => object;
  locateFile?: (path: string, scriptDirectory: string) => string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

export type CreateNicsimCore = (opts?: NicsimCoreOptions) => Promise<NicsimCoreModule>;

declare const createNicsimCore: CreateNicsimCore;
export default createNicsimCore;
