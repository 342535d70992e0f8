import { recordExisting } from './global_cgroups';

export default function globalSetup(): void {
  recordExisting();
}
