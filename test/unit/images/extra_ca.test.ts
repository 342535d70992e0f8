// bin/berthd hands NODE_EXTRA_CA_CERTS over under another name; berthd's first step puts it back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFERRED_EXTRA_CA_ENV, extraCaCerts, restoreDeferredExtraCaCerts } from '../../../internal/images/pull/extra_ca';
import { berthdLauncher } from '../../../hack/bundle/launcher';

describe('the deferred NODE_EXTRA_CA_CERTS', () => {
  it('is put back under its own name, and the hand-over variable is gone', () => {
    const env: NodeJS.ProcessEnv = { [DEFERRED_EXTRA_CA_ENV]: '/etc/extra ca.pem', PATH: '/bin' };
    restoreDeferredExtraCaCerts(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '/etc/extra ca.pem', PATH: '/bin' });
  });

  it('handed over empty (it was not set) leaves NODE_EXTRA_CA_CERTS unset', () => {
    const env: NodeJS.ProcessEnv = { [DEFERRED_EXTRA_CA_ENV]: '' };
    restoreDeferredExtraCaCerts(env);
    expect(env).toEqual({});
  });

  it('a NODE_EXTRA_CA_CERTS Node already had (berthd not started by bin/berthd) stays', () => {
    const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/ca.pem' };
    restoreDeferredExtraCaCerts(env);
    expect(env).toEqual({ NODE_EXTRA_CA_CERTS: '/ca.pem' });
  });

  it('reads the PEM certificates of the file, once per path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-extra-ca-'));
    try {
      const file = join(dir, 'ca.pem');
      const pem = (n: number) => `-----BEGIN CERTIFICATE-----\nAAAA${n}\n-----END CERTIFICATE-----`;
      writeFileSync(file, `# two of them\n${pem(1)}\n\n${pem(2)}\n`);
      expect(extraCaCerts({ NODE_EXTRA_CA_CERTS: file })).toEqual({ file, certs: [pem(1), pem(2)] });
      writeFileSync(file, pem(3));
      expect(extraCaCerts({ NODE_EXTRA_CA_CERTS: file })?.certs).toEqual([pem(1), pem(2)]);
      expect(extraCaCerts({})).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("bin/berthd's line drops it from Node's environment and hands it over, then runs node with the flags", () => {
    const [shebang] = berthdLauncher(['--max-semi-space-size=1']).text.split('\n');
    expect(shebang).toBe(
      `#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS ${DEFERRED_EXTRA_CA_ENV}=\${NODE_EXTRA_CA_CERTS} node --max-semi-space-size=1`,
    );
  });
});
