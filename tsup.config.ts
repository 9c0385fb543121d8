import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';

// One entry per public subpath (package.json `exports`), plus the CLI.
const entries = {
  index: 'src/index.ts',
  legacy: 'src/legacy.ts',
  mock: 'src/mock/index.ts',
  webhook: 'src/webhook/index.ts',
  pact: 'src/pact/index.ts',
  cli: 'src/cli/main.ts',
};

export default defineConfig({
  entry: Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file))),
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  sourcemap: false,
  splitting: true,
  treeshake: true,
});
