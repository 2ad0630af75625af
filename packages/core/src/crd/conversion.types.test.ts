import type { ObjectMeta } from '@ops/api';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Conversion,
  CustomResourceSpokeVersion,
  SpokeConversion,
  SpokeConversions,
} from './conversion.js';
import { defineConversion } from './conversion.js';
import type { HubData } from './conversion-data.js';
import { conversionData } from './conversion-data.js';
import { v1alpha1, type Widget, type WidgetV1alpha1, widget } from './test-widget.js';

describe('conversion types', () => {
  it('names the spokes: every version but the storage one', () => {
    expectTypeOf<CustomResourceSpokeVersion<typeof widget>>().toEqualTypeOf<'v1alpha1'>();
    expectTypeOf<keyof SpokeConversions<typeof widget>>().toEqualTypeOf<'v1alpha1'>();
  });

  it('types each spoke conversion by the two schemas', () => {
    expectTypeOf<Conversion<typeof widget, 'v1alpha1'>>().toEqualTypeOf<
      SpokeConversion<Widget, WidgetV1alpha1>
    >();
    expectTypeOf(v1alpha1.toHub).parameter(0).toEqualTypeOf<WidgetV1alpha1>();
    expectTypeOf(v1alpha1.toHub).returns.toEqualTypeOf<Widget>();
    expectTypeOf<WidgetV1alpha1['spec']>().toEqualTypeOf<{ replicas: number; color?: string }>();
    expectTypeOf<Widget['spec']['scale']>().toEqualTypeOf<{ replicas: number; max?: number }>();
    // @ts-expect-error the hub is not a spoke conversion's version
    expectTypeOf<Conversion<typeof widget, 'v1'>>().toBeObject();
  });

  it('refuses conversions that return the wrong version or miss a spoke', () => {
    // Only compiled, never called: both would throw.
    const wrong = () =>
      defineConversion(widget, {
        v1alpha1: {
          // @ts-expect-error toHub must return the hub (v1), not the spoke
          toHub: (spoke: WidgetV1alpha1) => spoke,
          fromHub: v1alpha1.fromHub,
        },
      });
    // @ts-expect-error v1alpha1 is missing
    const missing = () => defineConversion(widget, {});
    expectTypeOf(wrong).toBeFunction();
    expectTypeOf(missing).toBeFunction();
  });

  it('types the kept hub data by the hub schema', () => {
    const data = conversionData(widget);
    expectTypeOf(data.restore).returns.toEqualTypeOf<{
      metadata: ObjectMeta;
      kept: HubData<Widget> | undefined;
    }>();
    expectTypeOf<NonNullable<HubData<Widget>['spec']>>().toEqualTypeOf<{
      scale?: { replicas?: number; max?: number };
      color?: string;
    }>();
    // @ts-expect-error the hub has no spec.size
    data.save({ metadata: {} }, { spec: { size: 1 } });
  });
});
