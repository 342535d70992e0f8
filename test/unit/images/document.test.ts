// Image documents (index, manifest, config) are read whole into memory, so their size is checked
// first: a hostile image must not make berthd allocate what it claims or what it stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Digest } from '../../../internal/content/digest';
import { LocalContentStore } from '../../../internal/content/local';
import type { Descriptor } from '../../../internal/content/types';
import { MAX_CONFIG_BYTES, MAX_MANIFEST_BYTES, readDocument } from '../../../internal/images/document';
import { kindOf } from '../../../internal/errdefs/errors';
import { MediaType, parseManifest } from '../../../internal/images/oci';
import { resolveImage } from '../../../internal/images/walk';

let root: string;
let content: LocalContentStore;
let readWhole: string[];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'berth-doc-'));
  content = new LocalContentStore(root);
  readWhole = [];
  const readBytes = content.readBytes.bind(content);
  content.readBytes = (digest: string) => {
    readWhole.push(digest);
    return readBytes(digest);
  };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function store(mediaType: string, data: Buffer | object): Promise<Descriptor> {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(JSON.stringify(data));
  const desc = { mediaType, digest: sha256Digest(bytes), size: bytes.length };
  await content.writeBytes(desc, bytes);
  return desc;
}

/** A valid config whose JSON is at least `size` bytes long (a long label pads it). */
function config(size = 0): object {
  return { architecture: 'amd64', os: 'linux', config: { Labels: { pad: 'x'.repeat(size) } }, rootfs: { type: 'layers', diff_ids: [] } };
}

async function image(configDoc: object, manifestPad = 0): Promise<{ target: Descriptor; configDesc: Descriptor }> {
  const configDesc = await store(MediaType.ociConfig, configDoc);
  const target = await store(MediaType.ociManifest, {
    schemaVersion: 2,
    mediaType: MediaType.ociManifest,
    config: configDesc,
    layers: [],
    annotations: { pad: 'x'.repeat(manifestPad) },
  });
  return { target, configDesc };
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  if (err === undefined) throw new Error('expected a rejection');
  expect(kindOf(err)).toBe('InvalidArgument');
  return err;
}

describe('image document size limits', () => {
  it('resolves an image of ordinary size', async () => {
    const { target, configDesc } = await image(config(100));
    const resolved = await resolveImage(content, target);
    expect(resolved.configDesc.digest).toBe(configDesc.digest);
  });

  it('refuses a config past MAX_CONFIG_BYTES without reading it', async () => {
    const { target, configDesc } = await image(config(MAX_CONFIG_BYTES));
    const err = await rejection(resolveImage(content, target));
    expect(err.message).toContain(`blob ${configDesc.digest}`);
    expect(err.message).toContain(`larger than the ${MAX_CONFIG_BYTES}-byte limit`);
    expect(readWhole).not.toContain(configDesc.digest);
  });

  it('refuses a manifest past MAX_MANIFEST_BYTES without reading it', async () => {
    const { target } = await image(config(10), MAX_MANIFEST_BYTES);
    const err = await rejection(resolveImage(content, target));
    expect(err.message).toContain(`larger than the ${MAX_MANIFEST_BYTES}-byte limit`);
    expect(readWhole).toEqual([]);
  });

  it('refuses by the stored size when the descriptor understates it', async () => {
    const big = await store(MediaType.ociConfig, Buffer.alloc(MAX_CONFIG_BYTES + 1, 0x20));
    const err = await rejection(readDocument(content, { ...big, size: 100 }, MAX_CONFIG_BYTES, 'config'));
    expect(err.message).toBe(`config is ${MAX_CONFIG_BYTES + 1} bytes, larger than the ${MAX_CONFIG_BYTES}-byte limit`);
    expect(readWhole).toEqual([]);
  });

  it('refuses by the descriptor before touching the store', async () => {
    const claimed = { mediaType: MediaType.ociManifest, digest: sha256Digest(Buffer.from('absent')), size: 1 << 30 };
    const err = await rejection(readDocument(content, claimed, MAX_MANIFEST_BYTES, 'manifest'));
    expect(err.message).toMatch(/manifest is 1073741824 bytes/);
  });
});

describe('descriptor sizes', () => {
  const layer = (size: number) => ({ mediaType: MediaType.ociLayerGzip, digest: `sha256:${'a'.repeat(64)}`, size });
  const manifest = (size: number) =>
    Buffer.from(JSON.stringify({ schemaVersion: 2, config: { ...layer(2), mediaType: MediaType.ociConfig }, layers: [layer(size)] }));

  it('takes any size a number holds exactly, and refuses one past 2^53-1 (1e300 printed as "1")', () => {
    expect(parseManifest('m', manifest(Number.MAX_SAFE_INTEGER)).layers[0]!.size).toBe(Number.MAX_SAFE_INTEGER);
    for (const size of [1e300, 2 ** 60]) {
      const err = (() => {
        try {
          return parseManifest('m', manifest(size));
        } catch (e) {
          return e;
        }
      })();
      expect(kindOf(err)).toBe('InvalidArgument');
    }
  });
});
