import { removeCreated } from './global_cgroups';

export default function globalTeardown(): void {
  removeCreated();
}
