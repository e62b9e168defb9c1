// Bundles src/main.js into dist/app.js and copies the static files: `npm run build`.
import { build } from "esbuild";
import { cpSync, mkdirSync, rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist");
await build({
  entryPoints: ["src/main.js"],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  outfile: "dist/app.js",
  sourcemap: true,
});
cpSync("public", "dist", { recursive: true });
console.log("built client-js/dist");
