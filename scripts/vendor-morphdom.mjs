// The vendored morphdom (src/machiavel/web/vendor/morphdom.js) is the pinned npm package's
// ES module, byte for byte, after a comment carrying the package's name, version and MIT
// licence. `node scripts/vendor-morphdom.mjs` writes it; with `--check` it fails unless the
// file is exactly that, so the copy served to browsers is verifiably unmodified.
import { readFileSync, writeFileSync } from "node:fs";

const PACKAGE = "node_modules/morphdom";
const TARGET = "src/machiavel/web/vendor/morphdom.js";

function expected() {
  const { version } = JSON.parse(readFileSync(`${PACKAGE}/package.json`, "utf8"));
  const pinned = JSON.parse(readFileSync("package.json", "utf8")).devDependencies.morphdom;
  if (version !== pinned) throw new Error(`node_modules has morphdom ${version}, package.json pins ${pinned}: run npm ci`);
  const licence = readFileSync(`${PACKAGE}/LICENSE`, "utf8").trim().replaceAll("*/", "* /");
  const header = `/*! morphdom ${version} (npm: morphdom/dist/morphdom-esm.js, unmodified below this comment)\n\n${licence}\n*/\n`;
  return Buffer.concat([Buffer.from(header, "utf8"), readFileSync(`${PACKAGE}/dist/morphdom-esm.js`)]);
}

const want = expected();
if (process.argv.includes("--check")) {
  let have;
  try {
    have = readFileSync(TARGET);
  } catch {
    have = Buffer.alloc(0);
  }
  if (!have.equals(want)) {
    console.error(`${TARGET} differs from the pinned morphdom package: run node scripts/vendor-morphdom.mjs`);
    process.exit(1);
  }
  console.log(`${TARGET}: the pinned morphdom, unmodified`);
} else {
  writeFileSync(TARGET, want);
  console.log(`wrote ${TARGET}`);
}
