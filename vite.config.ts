// Builds the renderer (renderer/) into dist/ui, served by `longhaul ui` and loaded by Electron.
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [svelte({ configFile: 'svelte.config.js' })],
  build: {
    outDir: '../dist/ui',
    emptyOutDir: true,
    target: 'es2022',
    // Report the real sizes; the budget is checked by test/renderer/bundle-size.test.ts.
    reportCompressedSize: true,
    modulePreload: { polyfill: false },
  },
});
