// Small helpers of the e2e test: named steps with timings, polling with a
// deadline, and screenshots.
'use strict';

const path = require('path');

/** step runs fn, printing its name and duration; errors carry the step name. */
async function step(name, fn) {
	const t0 = Date.now();
	process.stdout.write(`- ${name} ... `);
	try {
		const v = await fn();
		console.log(`ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
		return v;
	} catch (err) {
		console.log('FAILED');
		if (err instanceof Error) {
			err.message = `${name}: ${err.message}`;
		}
		throw err;
	}
}

/** waitFor polls fn (every 250 ms) until it returns a truthy value, or throws after timeoutMs. */
async function waitFor(what, timeoutMs, fn) {
	const deadline = Date.now() + timeoutMs;
	let last;
	for (;;) {
		try {
			const v = await fn();
			if (v) {
				return v;
			}
		} catch (err) {
			last = err;
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${last.message || last})` : ''}`);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
}

/** shot saves a full-window screenshot as <outDir>/<name>.png. */
async function shot(page, outDir, name, clip) {
	await page.screenshot({ path: path.join(outDir, `${name}.png`), clip });
}

module.exports = { step, waitFor, shot };
