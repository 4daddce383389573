/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The API document browser's files (Swagger UI) go out with the app: intranets have no CDN. */
function apiDocsAssets(): Plugin {
  return {
    name: 'api-docs-assets',
    apply: 'build',
    generateBundle() {
      for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
        const path = fileURLToPath(new URL(`./node_modules/swagger-ui-dist/${file}`, import.meta.url));
        this.emitFile({ type: 'asset', fileName: `api-docs/${file}`, source: readFileSync(path) });
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), apiDocsAssets()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8000', changeOrigin: true },
      '/static': { target: 'http://127.0.0.1:8000', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    // The benchmark reads the manifest to tell route chunks from the entry.
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (id.includes('echarts') || id.includes('zrender')) return 'echarts';
          return undefined;
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 20_000,
  },
});
