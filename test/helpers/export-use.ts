/**
 * Which exported names no other file imports: the export-use test's checker.
 * Reads each file's top-level imports and exports with the TypeScript parser
 * (a Svelte file: its <script> blocks), resolves relative specifiers the way
 * the build does (`./x.js` is `./x.ts`), and counts a name as used when another
 * file imports it by name, by namespace (`* as`), by `export *`, by a dynamic
 * `import()` or by an `import('./x.js').Name` type.
 */
import path from 'node:path';
import ts from 'typescript';

/** A name a file exports, and its line (1-based). */
interface ExportedName {
  file: string;
  name: string;
  line: number;
}

/** What one file takes from another: names, or '*' for all of them. */
interface Use {
  spec: string;
  names: string[] | '*';
}

/** The code of a file as TypeScript: a Svelte component's <script> blocks, lines kept in place. */
function scriptOf(file: string, text: string): string {
  if (!file.endsWith('.svelte')) return text;
  // Blank everything outside <script> so line numbers stay those of the file.
  let out = '';
  let last = 0;
  for (const m of text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    const start = (m.index ?? 0) + m[0].indexOf('>') + 1;
    out += text.slice(last, start).replace(/[^\n]/g, ' ') + (m[1] ?? '');
    last = start + (m[1] ?? '').length;
  }
  return out + text.slice(last).replace(/[^\n]/g, ' ');
}

function hasExport(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function isDefault(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** The names a statement exports (none when it has no `export`). */
function exportedBy(st: ts.Statement): string[] {
  if (ts.isExportAssignment(st)) return ['default'];
  if (ts.isExportDeclaration(st)) {
    const clause = st.exportClause;
    return clause && ts.isNamedExports(clause) ? clause.elements.map((e) => e.name.text) : [];
  }
  if (!hasExport(st)) return [];
  if (isDefault(st)) return ['default'];
  if (ts.isVariableStatement(st)) return st.declarationList.declarations.flatMap((d) => bindingNames(d.name));
  const named = st as ts.Statement & { name?: ts.Node };
  return named.name && ts.isIdentifier(named.name) ? [named.name.text] : [];
}

/** Every import, re-export, dynamic import and import type of a file. */
function usesOf(source: ts.SourceFile): Use[] {
  const uses: Use[] = [];
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const c = st.importClause;
      const names: string[] = [];
      let all = false;
      if (c?.name) names.push('default');
      if (c?.namedBindings && ts.isNamespaceImport(c.namedBindings)) all = true;
      if (c?.namedBindings && ts.isNamedImports(c.namedBindings)) for (const e of c.namedBindings.elements) names.push((e.propertyName ?? e.name).text);
      uses.push({ spec: st.moduleSpecifier.text, names: all ? '*' : names });
    }
    if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.exportClause;
      const names = clause && ts.isNamedExports(clause) ? clause.elements.map((e) => (e.propertyName ?? e.name).text) : '*';
      uses.push({ spec: st.moduleSpecifier.text, names });
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg)) uses.push({ spec: arg.text, names: '*' });
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const q = node.qualifier;
      const first = q && (ts.isIdentifier(q) ? q.text : ts.isQualifiedName(q) ? leftmost(q) : null);
      uses.push({ spec: node.argument.literal.text, names: first ? [first] : '*' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

function leftmost(q: ts.QualifiedName): string {
  let n: ts.EntityName = q;
  while (ts.isQualifiedName(n)) n = n.left;
  return n.text;
}

/** The file a relative specifier names, among `known` (null: a package, or not a source file here). */
function resolveSpecifier(from: string, spec: string, known: (file: string) => boolean): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find(known) ?? null;
}

/** The exported names of `files` (path → text) that no other file among them imports. */
export function unusedExports(files: ReadonlyMap<string, string>): ExportedName[] {
  const exported: ExportedName[] = [];
  const used = new Map<string, Set<string> | '*'>();
  const known = (f: string): boolean => files.has(f);
  for (const [file, text] of files) {
    const source = ts.createSourceFile(file, scriptOf(file, text), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    for (const st of source.statements) {
      const line = source.getLineAndCharacterOfPosition(st.getStart(source)).line + 1;
      for (const name of exportedBy(st)) exported.push({ file, name, line });
    }
    for (const u of usesOf(source)) {
      const target = resolveSpecifier(file, u.spec, known);
      if (!target || target === file) continue;
      const had = used.get(target);
      if (u.names === '*' || had === '*') used.set(target, '*');
      else used.set(target, new Set([...(had ?? []), ...u.names]));
    }
  }
  return exported.filter((e) => {
    const u = used.get(e.file);
    return u !== '*' && !u?.has(e.name);
  });
}
