import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.ts';

export default defineConfig({
  test: {
    projects,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // V8 in Node 24 can abort a worker ('Check failed: jit_page_->allocations_.erase(addr) == 1')
    // when many PGlite WebAssembly instances are made and freed, on CPUs with memory protection
    // keys (PKU), as this machine and CI have: its bookkeeping of protected JIT pages gets out of
    // step. Seen once in a full run (the fuzz suite). Without the keys that bookkeeping is off; the
    // tests lose nothing (it guards against exploits, not bugs). nodejs/node#64500.
    execArgv: ['--no-memory-protection-keys'],
  },
});
