// The bandwidth capability from a pod's annotations, as containerd's toCNIBandWidth and the
// kubelet's ExtractPodBandwidthResources: rates in bits per second, between 1k and 1P, and the burst
// left to the plugin's maximum (containerd passes math.MaxUint32).
import { invalidArgument, messageOf } from '../errdefs/errors';
import { quantityValue } from './quantity';
import type { BandwidthLimits } from './types';

export const INGRESS_BANDWIDTH_ANNOTATION = 'kubernetes.io/ingress-bandwidth';
export const EGRESS_BANDWIDTH_ANNOTATION = 'kubernetes.io/egress-bandwidth';

/** containerd's burst for every limit it passes (math.MaxUint32 bits). */
export const BANDWIDTH_BURST = 4_294_967_295;

const MIN_RATE = 1_000n; // "1k"
const MAX_RATE = 1_000_000_000_000_000n; // "1P"

function rate(annotations: Record<string, string>, key: string): number | undefined {
  const text = annotations[key];
  if (text === undefined) return undefined;
  let value: bigint;
  try {
    value = quantityValue(text);
  } catch (err) {
    throw invalidArgument(`reading pod bandwidth annotations: ${key}: ${messageOf(err)}`);
  }
  if (value < MIN_RATE) throw invalidArgument(`reading pod bandwidth annotations: ${key}=${text}: resource is unreasonably small (< 1kbit)`);
  if (value > MAX_RATE) throw invalidArgument(`reading pod bandwidth annotations: ${key}=${text}: resource is unreasonably large (> 1Pbit)`);
  return Number(value); // <= 1e15: exact as a double
}

/**
 * The pod's bandwidth limits, or undefined when it has neither annotation. InvalidArgument for a
 * value that is no quantity or is out of range, as containerd refuses the pod.
 */
export function podBandwidth(annotations: Record<string, string>): BandwidthLimits | undefined {
  const ingress = rate(annotations, INGRESS_BANDWIDTH_ANNOTATION);
  const egress = rate(annotations, EGRESS_BANDWIDTH_ANNOTATION);
  if (ingress === undefined && egress === undefined) return undefined;
  return {
    ...(ingress === undefined ? {} : { ingressRate: ingress, ingressBurst: BANDWIDTH_BURST }),
    ...(egress === undefined ? {} : { egressRate: egress, egressBurst: BANDWIDTH_BURST }),
  };
}
