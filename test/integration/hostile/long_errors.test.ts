// Errors carrying megabytes of another program's output (a shim's stderr at `start`, a CNI
// plugin's error JSON, runc's stderr relayed by the shim). Node's HTTP/2 sends no header field
// over 64 KiB, so such an error once never reached the client, and every other call on its
// connection stalled until the connection was dropped: with a kubelet, one bad pod failed the
// node's CRI calls. Now the caller gets the error, clipped, and the connection goes on serving.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { MAX_ERROR_CHARS } from '../../../internal/errdefs/clip_text';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';
import { runtimeHandlersToml } from '../../harness/berth_env';

jest.setTimeout(180_000);

/** A shell line printing `bytes` of `char` to stderr. */
const noise = (bytes: number, char: string) => `head -c ${bytes} /dev/zero | tr '\\0' ${char} >&2`;

describe('errors with megabytes of another program in them', () => {
  let env: BerthEnv;
  const file = (name: string) => join(env.dir, name);

  beforeAll(async () => {
    env = await createBerthEnv({
      extraToml: (dir) =>
        runtimeHandlersToml({ 'noisy-shim': { runtimeType: join(dir, 'noisy-shim') }, 'noisy-runc': { binaryName: join(dir, 'noisy-runc') } }),
    });
    // A shim whose `start` fails with 10 MB on stderr (the real shim prints its panics there).
    writeFileSync(file('noisy-shim'), `#!/bin/sh\ncase " $* " in *" start "*) ${noise(10_000_000, 'S')}; exit 1;; esac\nexit 0\n`);
    // A runc whose create fails with a 1 MB error in its JSON log, which the shim hands on.
    writeFileSync(
      file('noisy-runc'),
      `#!/bin/sh
log=; prev=
for a; do [ "$prev" = --log ] && log=$a; prev=$a; done
for a; do
  [ "$a" = create ] || continue
  { printf '{"level":"error","msg":"'; head -c 1000000 /dev/zero | tr '\\0' R; printf '"}\\n'; } >>"$log"
  exit 1
done
exec runc "$@"
`,
    );
    for (const name of ['noisy-shim', 'noisy-runc']) chmodSync(file(name), 0o755);
    await env.start();
  });
  afterAll(async () => {
    await env?.close();
  });

  /**
   * Runs `failing` while the same connection keeps asking Version, as a kubelet's one CRI connection
   * does; returns the failure, after checking every Version was answered.
   */
  async function failWhileServing(failing: Promise<unknown>) {
    let settled = false;
    const versions: Array<Promise<unknown>> = [];
    const outcome = callError(failing).finally(() => (settled = true));
    while (!settled) {
      versions.push(env.client.runtime.Version({}, deadline(30_000)));
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all(versions);
    return outcome;
  }

  function expectClipped(details: string, head: RegExp, char: string) {
    expect(details).toMatch(head);
    expect(details).toMatch(new RegExp(`${char}{1000} … \\(\\d+ characters left out\\) … ${char}{1000}`));
    expect(details.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
  }

  it("a shim's start failing with 10 MB of stderr: RunPodSandbox fails with it clipped, the connection serves on", async () => {
    const err = await failWhileServing(env.client.runtime.RunPodSandbox({ config: env.podConfig('noisy-shim'), runtime_handler: 'noisy-shim' }, deadline()));
    expect(err.code).toBe(GrpcStatus.UNKNOWN);
    expectClipped(err.details, /noisy-shim.*start.*failed \(exit 1\)/, 'S');
    expect(leaks(env.host())).toEqual([]);
  });

  it("runc's create failing with a 1 MB error: RunPodSandbox fails with it clipped, the connection serves on", async () => {
    const err = await failWhileServing(env.client.runtime.RunPodSandbox({ config: env.podConfig('noisy-runc'), runtime_handler: 'noisy-runc' }, deadline()));
    expectClipped(err.details, /OCI runtime create failed/, 'R');
    expect(leaks(env.host())).toEqual([]);
  });

  it('a CNI plugin failing with a 300 kB error message: RunPodSandbox fails with it clipped, the connection serves on', async () => {
    // Its ADD fails; its DEL (the undo) succeeds, or the pod would be kept for a later removal.
    const plugin = env.cni.writePlugin(
      'noisy-cni',
      `#!/bin/sh\n[ "$CNI_COMMAND" = DEL ] && exit 0\nprintf '{"cniVersion":"1.0.0","code":11,"msg":"'\nhead -c 300000 /dev/zero | tr '\\0' M\nprintf '"}'\nexit 1\n`,
    );
    const conf = join(env.cni.confDir, '00-noisy.conflist');
    writeFileSync(conf, JSON.stringify({ cniVersion: '1.0.0', name: 'noisy', plugins: [{ type: 'noisy-cni' }] }));
    try {
      const err = await failWhileServing(env.client.runtime.RunPodSandbox({ config: env.podConfig('noisy-cni') }, deadline()));
      expectClipped(err.details, /CNI plugin "noisy-cni" ADD on network "noisy"/, 'M');
      expect(leaks(env.host())).toEqual([]);
    } finally {
      rmSync(conf, { force: true });
      rmSync(plugin, { force: true });
    }
  });
});
