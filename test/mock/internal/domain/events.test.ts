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

  it('says whether anyone listens to a kind', () => {
    const bus = createEventBus();
    expect(bus.wants('sandbox.reset')).toBe(false);
    const off = bus.on(() => {});
    expect(bus.wants('sandbox.reset')).toBe(true);
    expect(bus.wants('token.issued')).toBe(true);
    off();
    expect(bus.wants('sandbox.reset')).toBe(false);
  });

  it('tells a listener of some kinds only those kinds, and wants only the kinds someone listens to', () => {
    const bus = createEventBus();
    const heard: string[] = [];
    const off = bus.on((e) => heard.push(`a:${e.kind}`), ['clock.moved']);
    expect(bus.wants('clock.moved')).toBe(true);
    expect(bus.wants('sandbox.reset')).toBe(false);
    bus.emit(reset);
    bus.emit(moved);
    // A later listener of every kind is told both, and the kinds' listeners are worked out again.
    bus.on((e) => heard.push(`b:${e.kind}`));
    expect(bus.wants('sandbox.reset')).toBe(true);
    bus.emit(reset);
    bus.emit(moved);
    off();
    bus.emit(moved);
    expect(heard).toEqual(['a:clock.moved', 'b:sandbox.reset', 'a:clock.moved', 'b:clock.moved', 'b:clock.moved']);
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
