// web/ is organised by feature (see README's layout table): a feature folder's files are its
// own; the rest of web/ uses a feature only through its index.ts, and the shared layers below
// the features (trace/, kit/) use no feature at all. Tests and examples may reach inside.
import path from 'node:path';

const LAYERS = new Set(['trace', 'run', 'kit', 'engine', 'scenarios', 'app', 'sw', 'scripts']);
// Layers that sit below every feature: they may use only each other and the engine.
const BASE = new Set(['trace', 'kit', 'engine']);

function folderOf(file, webRoot) {
  const rel = path.relative(webRoot, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'features are used through their index; trace/ and kit/ use no feature' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    if (/\.(test|example)\.tsx?$/.test(file)) return {};
    const webRoot = path.join(context.cwd, 'web');
    const from = folderOf(file, webRoot);
    if (!from) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      if (source.value.endsWith('.css')) return;
      const target = path.resolve(path.dirname(file), source.value);
      const to = folderOf(target, webRoot) ?? (path.relative(webRoot, target) || null);
      if (!to || to === from) return;
      const feature = !LAYERS.has(to);
      if (BASE.has(from) && !BASE.has(to))
        context.report({
          node,
          message: `web/${from}/ sits below the features and run/: it cannot import web/${to}/`,
        });
      else if (feature && path.relative(path.join(webRoot, to), target) !== '')
        context.report({
          node,
          message: `import the ${to} feature through its index ('${path.relative(path.dirname(file), path.join(webRoot, to)) || '.'}'), not its file`,
        });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
    };
  },
};

export default { rules: { 'feature-boundaries': rule } };
