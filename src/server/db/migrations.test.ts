import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A migration runs once per database, possibly long after it was written, and must then do what it
// did when it was written: it imports kysely and files of its own folder (migrations/frozen/ holds
// the copies of live code some need), never live code that may change under it.
const dir = path.join(import.meta.dirname, 'migrations');

function files(d: string): string[] {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? files(p) : /\.ts$/.test(e.name) ? [p] : [];
  });
}

/** Every module specifier a file names: imports (type-only too), re-exports and dynamic imports. */
function specifiers(file: string): string[] {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!))
      out.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('migrations', () => {
  it('import nothing from outside their folder but kysely', () => {
    const outside = files(dir).flatMap((file) =>
      specifiers(file)
        .filter((s) => (s.startsWith('.') ? path.relative(dir, path.resolve(path.dirname(file), s)).startsWith('..') : s !== 'kysely'))
        .map((s) => `${path.relative(dir, file)} imports ${s}`),
    );
    expect(outside).toEqual([]);
  });
});
