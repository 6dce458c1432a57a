// Benchmark (not a test): the cost of turning one `planls/plan` reply into
// sidebar nodes, which runs on every planls/stateChanged. Run with
// `npm run -s bench`; prints ms per refresh for a few plan sizes.

import { decodePlan } from '../../src/protocol';
import { buildTree, statusBarText } from '../../src/treeModel';

function reply(items: number): unknown {
	const statuses = ['pending', 'in_progress', 'completed', 'deferred'];
	const groups = [];
	for (let g = 0; g < Math.ceil(items / 10); g++) {
		const list = [];
		for (let i = 0; i < 10 && g * 10 + i < items; i++) {
			const id = g * 10 + i + 1;
			list.push({
				id,
				subject: `Item ${id}: do the thing with \`code\` and a fairly long description of what it means`,
				status: statuses[id % 4],
				blocked: id % 7 === 0,
				blockedBy: id % 7 === 0 ? [id - 1] : [],
				evidence: id % 4 === 2 ? `commit ${id.toString(16)}` : '',
				reason: id % 4 === 3 ? 'later' : '',
				owner: '',
				activeForm: '',
				drift: 'same',
				range: { start: { line: id * 2, character: 0 }, end: { line: id * 2, character: 80 } },
			});
		}
		groups.push({ name: `Group ${g}`, items: list });
	}
	return { root: 'file:///w', planUri: 'file:///w/PLAN.md', exists: true, approved: true, title: 'Bench', open: items / 2, total: items, groups };
}

function bench(items: number): void {
	const raw = JSON.parse(JSON.stringify(reply(items)));
	const expansion = new Map<string, boolean>();
	const run = () => {
		const plan = decodePlan(raw);
		if (!plan) {
			throw new Error('decode failed');
		}
		buildTree('ready', [plan], expansion);
		statusBarText([plan]);
	};
	for (let i = 0; i < 20; i++) {
		run();
	}
	let n = 0;
	const t0 = process.hrtime.bigint();
	let elapsed = 0n;
	// At least 1 s of samples, so the figure is stable on a busy machine.
	while (elapsed < 1_000_000_000n) {
		run();
		n++;
		elapsed = process.hrtime.bigint() - t0;
	}
	const ms = Number(elapsed) / 1e6 / n;
	console.log(`BenchmarkRefresh/items=${items}\t${n} runs\t${ms.toFixed(4)} ms/op`);
}

for (const n of [10, 100, 1000, 5000]) {
	bench(n);
}
