import { PROTO_LAYER_COLORS, PROTO_STALL_COLORS } from '../kit/palette';

// Colours of the protocol-cache view: one per layer (Okabe-Ito, distinguishable with the common
// colour-vision deficiencies; data lines also carry a stripe), and the latency's parts.
export const LAYER_COLORS = PROTO_LAYER_COLORS;
export const STALL_COLORS = PROTO_STALL_COLORS;
export const SERVED_LABELS = [
  'L1 hit',
  'L1 miss, served by the L2',
  'L2 miss, served by memory',
  'ideal (counted a hit)',
] as const;
