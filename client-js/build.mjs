// Bundles src/main.js into dist/app.js and copies the static files: `npm run build`.
// The new files are built aside and then renamed into dist/ one by one, so a server serving dist/
// meanwhile (a test run in another shell) never sees a missing or half-written file.
import { build } from "esbuild";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";

const tmp = mkdtempSync("dist-new-");
try {
  const result = await build({
    entryPoints: ["src/main.js"],
    bundle: true,
    minify: true,
    format: "esm",
    target: ["es2020"],
    outfile: `${tmp}/app.js`,
    sourcemap: true,
    loader: { ".md": "text" }, // the rules page bundles docs/rules.md and docs/rules.zh.md
  });
  // a warning is a bug in waiting (a label defined twice: the second silently wins): fail the build
  if (result.warnings.length) throw new Error(`esbuild: ${result.warnings.length} warning(s), see above`);
  cpSync("public", tmp, { recursive: true });
  mkdirSync("dist", { recursive: true });
  for (const name of readdirSync(tmp)) renameSync(`${tmp}/${name}`, `dist/${name}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log("built client-js/dist");
