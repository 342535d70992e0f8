// One images library per test: its own temp root with a content store and a metadata DB.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalContentStore } from '../../../internal/content/local';
import { MetadataDB } from '../../../internal/metadata/db';
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

export function imagesEnv(opts: Partial<ImageServiceOptions> = {}): ImagesEnv {
  const root = mkdtempSync(join(tmpdir(), 'berth-images-'));
  const content = new LocalContentStore(root);
  const db = MetadataDB.open(join(root, 'meta.db'));
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
