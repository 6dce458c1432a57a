// node:test reporter: one line per test, failures with their error, and a
// final "N passed, M failed" line that CI greps.
export default async function* reporter(source) {
	let passed = 0;
	let failed = 0;
	const failures = [];
	for await (const event of source) {
		const data = event.data ?? {};
		if (data.details?.type === 'suite') {
			continue;
		}
		if (event.type === 'test:pass') {
			if (data.skip || data.todo) {
				continue;
			}
			passed++;
			yield `ok   ${data.name} (${Math.round(data.details?.duration_ms ?? 0)} ms)\n`;
		} else if (event.type === 'test:fail') {
			failed++;
			const err = data.details?.error;
			const cause = err?.cause ?? err;
			const msg = String(cause?.stack ?? cause?.message ?? cause ?? 'failed');
			failures.push(`FAIL ${data.name}\n${msg.replace(/^/gm, '     ')}\n`);
			yield `FAIL ${data.name}\n`;
		} else if (event.type === 'test:stderr' || event.type === 'test:stdout') {
			yield data.message ?? '';
		}
	}
	for (const f of failures) {
		yield f;
	}
	yield `${passed} passed, ${failed} failed\n`;
}
