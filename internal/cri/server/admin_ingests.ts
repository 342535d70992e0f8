// Admin/ListIngests: the content writes under way, as containerd's content ListStatuses answers
// them; berthctl polls it to draw pull and import progress. Each write is a temp file under the
// content store's ingest directory named "<digest hex>.<pid>.<random>" ("computed.…" when the
// digest is learnt from the bytes), whose size is the bytes written so far.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ingest } from '../../api/gen/berth/admin/v1/Ingest';
import type { ListIngestsRequest__Output } from '../../api/gen/berth/admin/v1/ListIngestsRequest';
import type { ListIngestsResponse } from '../../api/gen/berth/admin/v1/ListIngestsResponse';
import type { ContentStore } from '../../content/types';
import { errnoCode } from '../../sys/fs';
import type { CriService } from './service';

const INGEST_NAME = /^([a-f0-9]{64}|computed)\.\d+\.[a-f0-9]+$/;

/** The content store's ingest directory, when it keeps writes in one (the local store does). */
function ingestDirOf(content: ContentStore): string | undefined {
  const dir = (content as Partial<{ ingestDir: unknown }>).ingestDir;
  return typeof dir === 'string' ? dir : undefined;
}

export async function listIngests(svc: CriService, _req: ListIngestsRequest__Output): Promise<ListIngestsResponse> {
  const dir = ingestDirOf(svc.rt.content);
  if (dir === undefined) return { ingests: [] };
  const ingests: Ingest[] = [];
  for (const name of await readdir(dir)) {
    const label = INGEST_NAME.exec(name)?.[1];
    if (label === undefined) continue;
    try {
      const st = await stat(join(dir, name));
      ingests.push({ ref: label === 'computed' ? '' : `sha256:${label}`, offset: String(st.size) });
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err; // committed or abandoned since readdir
    }
  }
  return { ingests };
}
