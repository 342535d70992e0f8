// Which leftover temp mounts of an older berth (os.tmpdir()/berth-mount-XXXXXX) a start may remove:
// only those showing a directory under its own snapshotter root, on the same filesystem.
import { legacyTempMounts } from '../../../internal/mount/legacy_temp_mounts';
import { parseMountInfo } from '../../../internal/mount/mount_info';

const line = (id: number, device: string, root: string, mountPoint: string) =>
  `${id} 1 ${device} ${root.replace(/ /g, '\\040')} ${mountPoint.replace(/ /g, '\\040')} rw,relatime shared:1 - ext4 /dev/x rw`;

describe('legacyTempMounts', () => {
  it('finds mounts of directories under the root on the root filesystem, also deleted ones', () => {
    const mounts = parseMountInfo(
      [
        line(1, '254:0', '/', '/'),
        line(2, '0:25', '/', '/tmp'),
        line(3, '254:0', '/var/lib/berth/overlayfs/snapshots/4/fs', '/tmp/berth-mount-AbC123'),
        line(4, '254:0', '/var/lib/berth/overlayfs/trash/2-3cf0f1be/fs//deleted', '/tmp/berth-mount-UWbUg1'),
        line(5, '254:0', '/var/lib/other/overlayfs/snapshots/4/fs', '/tmp/berth-mount-Other1'),
        line(6, '254:0', '/var/lib/berth/overlayfs2/snapshots/1/fs', '/tmp/berth-mount-Prefix'),
        line(7, '254:0', '/var/lib/berth/overlayfs/snapshots/5/fs', '/tmp/sub/berth-mount-Deeper'),
        line(8, '254:0', '/var/lib/berth/overlayfs/snapshots/6/fs', '/tmp/berth-mount-notmine-'),
        line(9, '8:1', '/var/lib/berth/overlayfs/snapshots/7/fs', '/tmp/berth-mount-OtherD'),
        line(10, '254:0', '/var/lib/berth/overlayfs', '/tmp/berth-mount-Whole1'),
      ].join('\n'),
    );
    expect(legacyTempMounts('/var/lib/berth/overlayfs', '/tmp', mounts)).toEqual(['/tmp/berth-mount-AbC123', '/tmp/berth-mount-UWbUg1']);
  });

  it('reads the root as a path within its own filesystem, mounted elsewhere', () => {
    const mounts = parseMountInfo(
      [
        line(1, '254:0', '/', '/'),
        line(2, '8:1', '/srv', '/var/lib/berth'),
        line(3, '8:1', '/srv/overlayfs/snapshots/4/fs', '/tmp/berth-mount-Mine01'),
        line(4, '8:1', '/var/lib/berth/overlayfs/snapshots/4/fs', '/tmp/berth-mount-NotMe1'),
        line(5, '8:1', '/srv/overlayfs/snapshots/9/fs', '/tmp/berth-mount-Mine01'),
      ].join('\n'),
    );
    expect(legacyTempMounts('/var/lib/berth/overlayfs', '/tmp', mounts)).toEqual(['/tmp/berth-mount-Mine01']);
  });

  it('finds overlays of directories under the root (a layer applied on its parents), not of others', () => {
    const overlay = (id: number, mountPoint: string, options: string) => `${id} 1 0:${40 + id} / ${mountPoint} rw,relatime - overlay overlay rw,${options}`;
    const mounts = parseMountInfo(
      [
        line(1, '254:0', '/', '/'),
        overlay(2, '/tmp/berth-mount-Ovl001', 'lowerdir=/var/lib/berth/overlayfs/snapshots/2/fs:/var/lib/berth/overlayfs/snapshots/1/fs,upperdir=/var/lib/berth/overlayfs/snapshots/3/fs,workdir=/var/lib/berth/overlayfs/snapshots/3/work'),
        overlay(3, '/tmp/berth-mount-Ovl002', 'lowerdir=/var/lib/berth/overlayfs/snapshots/2/fs:/var/lib/berth/overlayfs/snapshots/1/fs'),
        overlay(4, '/tmp/berth-mount-Other2', 'lowerdir=/var/lib/other/overlayfs/snapshots/2/fs:/var/lib/other/overlayfs/snapshots/1/fs'),
        overlay(5, '/tmp/not-a-berth-mount', 'lowerdir=/var/lib/berth/overlayfs/snapshots/2/fs:/var/lib/berth/overlayfs/snapshots/1/fs'),
      ].join('\n'),
    );
    expect(legacyTempMounts('/var/lib/berth/overlayfs', '/tmp', mounts)).toEqual(['/tmp/berth-mount-Ovl001', '/tmp/berth-mount-Ovl002']);
  });

  it('unescapes paths with spaces', () => {
    const mounts = parseMountInfo([line(1, '254:0', '/', '/'), line(2, '254:0', '/data dir/overlayfs/snapshots/1/fs', '/tmp/berth-mount-Spc123')].join('\n'));
    expect(legacyTempMounts('/data dir/overlayfs', '/tmp', mounts)).toEqual(['/tmp/berth-mount-Spc123']);
  });
});
