// Types of the core's output JSON ("nicsim-results/1"), see core-cpp/README.md.

export interface Metric {
  value: number;
  unit: string;
}

export type Metrics = Record<string, Metric>;

export interface TimeSeries {
  name: string;
  unit: string;
  interval_ps: number;
  /** Time of the first sample (see seriesStart in model/chart.ts for output without it). */
  start_ps?: number;
  values: number[];
}

export interface Histogram {
  name: string;
  unit: string;
  bin_width: number;
  weights: number[];
}

export interface SweepEntry {
  value: number | string;
  /** Present only when the sweep has a series parameter. */
  series?: number | string;
  results: Metrics;
}

export interface SweepSpec {
  parameter: string;
  series_parameter?: string | null;
}

export interface Check {
  id: string;
  source: string;
  description: string;
  expected: number | string | boolean;
  simulated: number | string | boolean | null;
  unit?: string;
  tolerance?: number;
  comparison?: string;
  kind: 'exact' | 'qualitative' | string;
  /** The raw comparison: the simulated value meets the expected one. */
  pass: boolean;
  /**
   * "fitted" when some parameter was tuned on this check (its fitted_to names it), else
   * "predicted" (core-cpp/scenario/fits.hpp).
   */
  basis?: 'fitted' | 'predicted';
  /** Why a prediction misses, from the mechanism: the check is then expected to miss. */
  known_miss?: string;
  /** pass, fail, or for a known miss: known_miss (still misses) or unexpected_pass. */
  outcome?: 'pass' | 'fail' | 'known_miss' | 'unexpected_pass';
  /** The metric and sweep point the check reads. */
  metric?: string;
  at?: Record<string, unknown> | null;
  /** A claim relative to another value: expected = factor × relative_to.value. */
  factor?: number;
  relative_to?: {
    metric?: string;
    at?: Record<string, unknown> | null;
    value?: number;
  } | null;
}

export interface TraceInfo {
  records: number;
  dropped: number;
  start_ps: number;
  end_ps: number;
}

export type ParameterTree = { [key: string]: ParameterValue };
export type ParameterValue = number | string | boolean | null | ParameterValue[] | ParameterTree;

/** A value of the nested parameter tree by its dotted path ("system.bus.clock_mhz"). */
export function paramAt(tree: ParameterTree | undefined, path: string): unknown {
  let cur: unknown = tree;
  for (const k of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** Where a Tigon event's handler runs: one CPU, both (under the semaphore), none, or either (dynamic). */
export type EventCpu = 'A' | 'B' | 'both' | 'none' | 'either';

/** One Tigon event as the configured firmware handles it (index = event id). */
export interface SystemTigonEvent {
  name: string;
  label: string;
  hardware: boolean;
  code_bytes: number;
  /** Its partition parameter ("system.tigon.partition.send_data_ready"). */
  parameter: string;
  cpu: EventCpu;
  /** Its handler takes the hardware semaphore. */
  semaphore: boolean;
}

/** What a choice of system.tigon.firmware runs (partition null: custom, the partition parameters). */
export interface SystemFirmwareChoice {
  firmware: string;
  cpu_b: boolean;
  partition: EventCpu[] | null;
}

/** One thing two handlers share (Tables 3.2 and 3.3), as the core's tigon_shares says. */
export interface SystemTigonShare {
  /** The two events (a < b). */
  a: number;
  b: number;
  kind: 'read channel' | 'write channel' | 'data';
  /** "the DMA read channel", "the producer index of …". */
  what: string;
  source: 'Table 3.2' | 'Table 3.3';
  /** Both handlers update it: on different CPUs they take the semaphore. */
  lock: boolean;
}

/** The Tigon as the core built it: the firmware in force and its dispatch rules. */
export interface SystemTigon {
  firmware: string;
  dispatch: 'static' | 'dynamic';
  code_in_sram: boolean;
  data_in_sram: boolean;
  clock_ps: number;
  events: SystemTigonEvent[];
  paths: Array<{ name: string; event: number; label: string }>;
  /** CPU A and B: whether the firmware runs on it, and its event mask before any record. */
  cpus: Array<{ name: 'A' | 'B'; runs: boolean; mask: number }>;
  priority: string;
  /** Event names that take turns on a CPU (the one that ran last is masked while the other waits). */
  alternate: string[];
  table_3_4: EventCpu[];
  /** Update Send Consumer DMAs its index to the host (RELEASE), else publishes it for PIO. */
  send_consumer_by_dma: boolean;
  /** Every pair of events that shares something, as this system's firmware runs them. */
  shares: SystemTigonShare[];
  firmware_choices: Record<string, SystemFirmwareChoice>;
}

export interface SystemBus {
  model: 'pci' | 'fixed';
  protocol: 'pci' | 'pci-x';
  width_bits: number;
  clock_mhz: number;
  cycle_ps: number;
  overhead_cycles?: number;
  arbitration_cycles?: number;
  memory_latency_ps?: number;
  write_wait_cycles?: number;
  target_wait_cycles?: number;
  initial_latency_limit_cycles?: number;
  delayed_slots?: number;
  retry_gap_cycles?: number;
  /** After a Retry or a disconnect the master requests again this long after the tenure's end. */
  retry_gap_ps?: number;
  read_disconnect_bytes?: number;
  bridge_read_mbps?: number;
  write_buffer_bytes?: number;
  latency_timer_cycles?: number;
  dual_address?: boolean;
  mmrbc_bytes?: number | null;
}

/** Frame and header layout as the core builds frames (null: no such header in this run). */
export interface SystemFrame {
  ethernet_header_bytes: number;
  ip_header_bytes: number;
  udp_header_bytes: number | null;
  tcp_header_bytes: number | null;
  /** Bytes before a TCP frame's payload (Ethernet + IP + TCP). */
  segment_header_bytes: number | null;
  crc_bytes: number;
  /** The recorded frame size includes the CRC (false: the wire adds it). */
  crc_in_frame: boolean;
  min_frame_bytes: number | null;
  mtu_bytes: number;
  preamble_bytes: number;
  ifg_bytes: number;
}

export interface SystemRings {
  send: number;
  receive: number;
  return: number | null;
  send_bd_bytes: number | null;
  receive_bd_bytes: number | null;
  return_bd_bytes: number | null;
  index_bytes: number | null;
  dma_queue_depth: number | null;
}

/** The configured system as the core built it (core-cpp/README.md, "system"). */
export interface SystemInfo {
  nic_model: string;
  nics: number;
  clocks_ps: { bus: number | null; tigon_cpu: number | null; host_cpu: number | null };
  bus: SystemBus | null;
  frame: SystemFrame;
  rings: SystemRings | null;
  tigon: SystemTigon | null;
}

export interface RunOutput {
  format: string;
  scenario: string;
  seed: number;
  parameters: ParameterTree;
  system: SystemInfo;
  results: Metrics;
  series: TimeSeries[];
  histograms: Histogram[];
  sweep: SweepEntry[];
  sweep_spec: SweepSpec | null;
  checks: Check[];
  trace: TraceInfo;
  /**
   * A main run whose sweep is still running (core's run_main): the points to come, in the order
   * of `sweep`, and how many checks wait for them. Absent from a complete document.
   */
  pending?: SweepPending;
}

export interface SweepPending {
  sweep_points: Array<{ value: number | string; series?: number | string }>;
  checks: number;
  /**
   * The sweep point whose parameters are the main run's own, with its entry: the main run is
   * that point's run, so nobody runs it again (finish takes null in its place).
   */
  main_point?: { index: number; entry: SweepEntry };
  /**
   * What each point's run builds first and its instance keeps for later runs (a web run's
   * generated trace), by index: points with the same non-empty key share it. "": nothing.
   */
  setups?: string[];
  /** The same for the main run. */
  main_setup?: string;
}

export interface ValidationError {
  path: string;
  message: string;
}

export function isErrorOutput(x: unknown): x is { errors: ValidationError[] } {
  return typeof x === 'object' && x !== null && Array.isArray((x as { errors?: unknown }).errors);
}

/** One entry of the core's parameterInfo(). */
export interface ParameterSpec {
  path: string;
  type: 'number' | 'integer' | 'choice' | 'boolean' | 'string' | string;
  unit?: string;
  default?: unknown;
  min?: number;
  max?: number;
  choices?: unknown[];
  description?: string;
  /** Where the value comes from: a source reference, or "chosen: why" for a modelling choice. */
  origin?: string;
  /** The checks ("<preset id>#<reference id>") this parameter was fitted to; absent if none. */
  fitted_to?: string[];
  /** Only powers of two are accepted (cache and line sizes, ways). */
  power_of_two?: boolean;
  /** Only whole multiples of this are accepted (32-bit words). */
  step?: number;
  /**
   * A step set by another parameter: value × factor must be a whole multiple of the value at
   * path, or 0 (a NIC data cache of whole blocks). Absent when the parameter has none.
   */
  multiple_of?: { path: string; factor: number };
}
