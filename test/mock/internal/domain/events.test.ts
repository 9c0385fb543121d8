import { describe, expect, it } from 'vitest';
import { createEventBus, type MockEvent } from '../../../support/mock-internals/domain.ts';

const reset: MockEvent = { kind: 'sandbox.reset' };
const moved: MockEvent = { kind: 'clock.moved', ms: 1000 };

describe('event bus', () => {
  it('tells every listener in the order they subscribed, and stops telling one that unsubscribed', () => {
    const bus = createEventBus();
    const heard: string[] = [];
    const offA = bus.on((e) => heard.push(`a:${e.kind}`));
    bus.on((e) => heard.push(`b:${e.kind}`));
    bus.emit(reset);
    offA();
    bus.emit(moved);
    expect(heard).toEqual(['a:sandbox.reset', 'b:sandbox.reset', 'b:clock.moved']);
  });

  it('says whether anyone listens', () => {
    const bus = createEventBus();
    expect(bus.listening).toBe(false);
    const off = bus.on(() => {});
    expect(bus.listening).toBe(true);
    off();
    expect(bus.listening).toBe(false);
  });

  it('keeps telling the others when a listener throws, and hands the throw to onListenerError', () => {
    const errors: unknown[] = [];
    const bus = createEventBus((e) => errors.push(e));
    const heard: string[] = [];
    bus.on(() => {
      throw new Error('listener broke');
    });
    bus.on((e) => heard.push(e.kind));
    bus.emit(reset);
    expect(heard).toEqual(['sandbox.reset']);
    expect(errors).toHaveLength(1);
  });
});
