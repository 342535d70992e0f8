// One images library per test: its own temp root with a content store and a metadata DB.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalContentStore } from '../../../internal/content/local';
import { MetadataDB, type FileSync } from '../../../internal/metadata/db';
import { ImageService, type ImageServiceOptions } from '../../../internal/images/service';

export interface ImagesEnv {
  root: string;
  content: LocalContentStore;
  db: MetadataDB;
  images: ImageService;
  blobs(): string[];
  ingests(): string[];
  close(): void;
}

/** `fileSync` stands in for the fsync of the DB's WAL (MetadataDB.open), to fail it. */
export function imagesEnv(opts: Partial<ImageServiceOptions> = {}, fileSync?: FileSync): ImagesEnv {
  const root = mkdtempSync(join(tmpdir(), 'berth-images-'));
  const content = new LocalContentStore(root);
  const db = MetadataDB.open(join(root, 'meta.db'), undefined, fileSync);
  const images = new ImageService({ db, content, ...opts });
  return {
    root,
    content,
    db,
    images,
    blobs: () => readdirSync(content.blobsDir).map((h) => `sha256:${h}`).sort(),
    ingests: () => readdirSync(content.ingestDir),
    close: () => {
      db.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
