// Which entries of a manifest's `layers` make the rootfs (containerd's images.IsLayerType), and
// a Docker schema 1 manifest named as such.
import { kindOf } from '../../../internal/errdefs/errors';
import { imageLayers, isLayerType, MediaType, parseManifest } from '../../../internal/images/oci';

const desc = (mediaType: string, n: number) => ({ mediaType, digest: `sha256:${String(n).padStart(64, '0')}`, size: n });

describe('layer media types', () => {
  it('are any OCI layer type and Docker rootfs diffs, foreign ones included', () => {
    for (const mt of [
      MediaType.ociLayer,
      MediaType.ociLayerGzip,
      MediaType.ociLayerZstd,
      'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip',
      MediaType.dockerLayer,
      MediaType.dockerLayerGzip,
      'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip',
      'application/vnd.docker.image.rootfs.diff.tar+zstd',
    ]) {
      expect([mt, isLayerType(mt)]).toEqual([mt, true]);
    }
    for (const mt of ['application/vnd.example.sig', 'application/vnd.example.layer+gzip', MediaType.ociConfig, 'application/vnd.in-toto+json']) {
      expect([mt, isLayerType(mt)]).toEqual([mt, false]);
    }
  });

  it('leave out a signature listed among the layers, keeping the order of the rest', () => {
    const manifest = { layers: [desc(MediaType.ociLayerGzip, 1), desc('application/vnd.example.sig', 2), desc(MediaType.dockerLayerGzip, 3)] };
    expect(imageLayers(manifest).map((l) => l.size)).toEqual([1, 3]);
  });

  it('a schema 1 manifest is refused as what it is', () => {
    const schema1 = Buffer.from(JSON.stringify({ schemaVersion: 1, name: 'x', tag: 'v1', fsLayers: [], history: [] }));
    let caught: unknown;
    try {
      parseManifest('manifest sha256:abc', schema1);
    } catch (err) {
      caught = err;
    }
    expect(kindOf(caught)).toBe('InvalidArgument');
    expect((caught as Error).message).toBe('manifest sha256:abc: a Docker schema 1 manifest, which berth does not read (push the image again with a current tool)');
  });
});
