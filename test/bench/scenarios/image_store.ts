// Image-store steps the two image scenarios share, all through CRI and untimed: wait until an
// image is (or is no longer) visible, and remove it so the next round starts from nothing.
import { isUnimplemented, RpcFailed } from '../errors';
import type { Peer } from '../peers/peer';
import { pollUntil } from '../peers/ready';

const opts = () => ({ deadline: Date.now() + 60_000 });
const VISIBLE_TIMEOUT_MS = 30_000;

async function isPresent(peer: Peer, ref: string): Promise<boolean> {
  const res = await peer.cri.image.ImageStatus({ image: { image: ref } }, opts());
  return res.image !== null && res.image.id !== '';
}

/** Waits (bounded) until ImageStatus agrees with `present`; a peer without ImageStatus is not waited for. */
export async function waitImage(peer: Peer, ref: string, present: boolean): Promise<void> {
  try {
    const ok = await pollUntil(async () => (await isPresent(peer, ref)) === present, VISIBLE_TIMEOUT_MS);
    if (!ok) throw new Error(`${peer.name}: image ${ref} still ${present ? 'absent' : 'present'} after ${VISIBLE_TIMEOUT_MS} ms`);
  } catch (err) {
    if (!isUnimplemented(err)) throw err;
  }
}

/**
 * RemoveImage and wait until it is gone (containerd deletes synchronously, collecting its content
 * and snapshots). False when the peer has no RemoveImage: the next round would not start clean.
 */
export async function removeImage(peer: Peer, ref: string): Promise<boolean> {
  try {
    await peer.cri.image.RemoveImage({ image: { image: ref } }, opts());
  } catch (err) {
    if (isUnimplemented(err)) return false;
    throw new RpcFailed('RemoveImage', err);
  }
  await waitImage(peer, ref, false);
  return true;
}
