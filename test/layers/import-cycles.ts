/**
 * Import cycles among source files: a cycle ties its files into one layer
 * however the folders rank them (neither end can be read, tested or moved
 * without the other). Type imports count, as they do for the layers.
 */
import path from 'node:path';
import { importSpecifiers } from '../helpers/imports.js';

/** `./x.js` from `file` → the `.ts` source it names (`./X.svelte` as it is), or null for a package. */
function resolveSource(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
}

/**
 * The cycles among `sources` (file → its text): each as the files of one
 * strongly connected component, sorted, the components sorted too. Empty
 * when the import graph has no cycle.
 */
export function importCycles(sources: ReadonlyMap<string, string>): string[][] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const to = importSpecifiers(text)
      .map((s) => resolveSource(file, s))
      .filter((t): t is string => t !== null && sources.has(t));
    edges.set(file, [...new Set(to)]);
  }
  // Tarjan's strongly connected components, iterative: a deep import chain must not overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of sources.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const out = edges.get(top.node)!;
      if (top.edge < out.length) {
        const to = out[top.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || edges.get(top.node)!.includes(top.node)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
