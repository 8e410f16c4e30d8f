import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `npm run dev` sends API, socket and demo-shop traffic: the server started by `npm start`. */
const SERVER = process.env.REHEARSE_SERVER_URL ?? 'http://localhost:4000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  define: {
    // Changes with every build, so a query cache persisted by an older build is dropped.
    __BUILD_ID__: JSON.stringify(Date.now().toString(36)),
  },
  server: {
    proxy: {
      '/api': { target: SERVER, changeOrigin: true, ws: true },
      '/ws': { target: SERVER, changeOrigin: true, ws: true },
      '/demo-shop': { target: SERVER, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
});
