// Colours of the protocol-cache view: one per layer (Okabe-Ito, distinguishable with the common
// colour-vision deficiencies; data lines also carry a stripe), and the latency's parts.
export const LAYER_COLORS: readonly string[] = [
  '#E69F00', // socket/user
  '#0072B2', // TCP
  '#56B4E9', // UDP
  '#009E73', // IP
  '#CC79A7', // FDDI driver
  '#F0E442', // x-kernel msg
  '#999999', // x-kernel event
  '#D55E00', // checksum
];
export const STALL_COLORS = { cpu: '#0072B2', l2: '#E69F00', memory: '#D55E00' } as const;
export const SERVED_LABELS = [
  'L1 hit',
  'L1 miss, served by the L2',
  'L2 miss, served by memory',
  'ideal (counted a hit)',
] as const;
