import { defineCustomResource } from '@ops/core';
import { Type } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EnvironmentOptions } from './environment.js';

// Checked by `pnpm typecheck` (tsc): a CRD that defineCustomResource renders is accepted by
// Environment.start as it is, without a cast.
const Widget = defineCustomResource({
  group: 'example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [{ name: 'v1', spec: Type.Object({ size: Type.Integer() }) }],
});

describe('EnvironmentOptions.crds', () => {
  it('takes the CRDs defineCustomResource renders', () => {
    const options: EnvironmentOptions = { crds: [Widget.crd()] };
    expectTypeOf(Widget.crd()).toExtend<NonNullable<EnvironmentOptions['crds']>[number]>();
    expect(options.crds?.[0]?.metadata?.name).toBe('widgets.example.com');
  });
});
