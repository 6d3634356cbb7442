// Results of the full-system server written by hand for the bottleneck tests: NASA without a
// cache (PCI-bound, Fig 4.6) and with 16 MB per NIC (the CPU the busiest), as the preset
// "Anatomy of a web request" measures them.
import type { Metrics } from '../engine/types';

export const metrics = (values: Record<string, number>): Metrics =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v, unit: '' }]));

export const NASA_NONE = metrics({
  bus_utilization: 0.964,
  host_cpu_utilization: 0.722,
  web_disk_utilization: 0,
  web_bottleneck: 0,
  bus_content_share: 0.588,
  bus_overhead_share: 0.327,
  web_file_cache_hit_rate: 1,
  content_traffic_reduction: 0,
  bus_util_content: 0.567,
  bus_util_network_headers: 0.06,
  bus_util_wait: 0.2,
  bus_util_idle: 0.036,
});

export const NASA_16MB = metrics({
  bus_utilization: 0.296,
  host_cpu_utilization: 0.91,
  web_disk_utilization: 0,
  web_bottleneck: 1,
  bus_content_share: 0.129,
  bus_overhead_share: 0.488,
  web_file_cache_hit_rate: 1,
  content_traffic_reduction: 0.945,
});
