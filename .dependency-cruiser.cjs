/** Import rules from docs/architecture.md: arrows point down, the domain stays pure. */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No cycles at all, type-only imports included: a type that two modules share lives in a leaf module both import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'packages/domain imports decimal.js and zod, nothing else (tests may use vitest and fast-check).',
      severity: 'error',
      from: { path: '^packages/domain/src', pathNot: '\\.spec\\.ts$' },
      to: { pathNot: ['^packages/domain/src', 'node_modules/(decimal\\.js|zod)/'] },
    },
    {
      name: 'contracts-are-schemas',
      comment: 'packages/contracts imports zod and the pure domain only.',
      severity: 'error',
      from: { path: '^packages/contracts/src', pathNot: '\\.spec\\.ts$' },
      to: { pathNot: ['^packages/(contracts|domain)/src', 'node_modules/(decimal\\.js|zod)/'] },
    },
    {
      name: 'packages-never-import-apps',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-stays-in-the-browser',
      comment: 'The web app uses contracts and the pure domain; never the store, pdf or api.',
      severity: 'error',
      from: { path: '^apps/web/src' },
      to: { path: '^(packages/(store|pdf|testkit)|apps/(api|cli))/' },
    },
    {
      name: 'no-node-builtins-in-the-browser-or-domain',
      severity: 'error',
      from: { path: '^(packages/(domain|contracts)|apps/web)/src', pathNot: '\\.spec\\.tsx?$' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|dist|test-output)' },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
