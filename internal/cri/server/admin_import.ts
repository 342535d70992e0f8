// Admin/ImportImage: loads an OCI layout or `docker save` archive from a path on the daemon's
// host, unpacks each image into committed snapshots, records it, and answers the names and IDs
// recorded (what `berthctl images import` prints).
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { ImportImageRequest__Output } from '../../api/gen/berth/admin/v1/ImportImageRequest';
import type { ImportImageResponse } from '../../api/gen/berth/admin/v1/ImportImageResponse';
import { invalidArgument, notFound, permissionDenied, wrap } from '../../errdefs/errors';
import { normalizeReference } from '../../images/reference';
import { errnoCode } from '../../sys/fs';
import { gatedUnpack } from '../snapshot_gc';
import { forgetImageFsUsage } from './image_fs_info';
import type { CriService } from './service';

/** Checks that `path` is an absolute path to a regular file berthd can read. */
async function checkArchivePath(path: string): Promise<void> {
  if (path === '') throw invalidArgument('import image: path is empty');
  if (!isAbsolute(path)) throw invalidArgument(`import image: path ${JSON.stringify(path)} is not absolute`);
  try {
    const st = await stat(path);
    if (!st.isFile()) throw invalidArgument(`import image: ${path} is not a regular file`);
    await access(path, constants.R_OK);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw notFound(`import image: archive ${path} does not exist`);
    if (code === 'EACCES' || code === 'EPERM') throw permissionDenied(`import image: archive ${path} is not readable by berthd`);
    throw err;
  }
}

export async function importImage(svc: CriService, req: ImportImageRequest__Output): Promise<ImportImageResponse> {
  const rt = svc.rt;
  await checkArchivePath(req.path);
  let name: string | undefined;
  if (req.name !== '') {
    try {
      name = normalizeReference(req.name);
    } catch (err) {
      throw wrap(err, `import image ${req.path}: name`);
    }
  }
  const logger = svc.logger.with({ archive: req.path });
  const gated = gatedUnpack(rt.snapshotter, rt.content, rt.images, logger);
  let imported = false;
  try {
    const records = await rt.images.import(req.path, { name, unpack: gated.unpack });
    logger.info('imported images', { images: records.map((r) => r.name) });
    imported = true;
    return { images: records.map((r) => ({ name: r.name, id: r.configDigest })) };
  } finally {
    gated.release(imported);
    forgetImageFsUsage(rt);
  }
}
