// The file store an API process uses: the one its ports name, or the disk under DATA_DIR/files.
import { join } from 'node:path';
import type { AppDeps } from '../deps.ts';
import { type FileStore, diskFileStore } from './store.ts';

const defaults = new WeakMap<AppDeps['config'], FileStore>();

export function filesOf(deps: Pick<AppDeps, 'config' | 'files'>): FileStore {
  if (deps.files) return deps.files;
  let store = defaults.get(deps.config);
  if (!store) defaults.set(deps.config, (store = diskFileStore(join(deps.config.dataDir, 'files'))));
  return store;
}
