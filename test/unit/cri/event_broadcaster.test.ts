// The CRI event fan-out: what a subscriber reads, and how its subscription ends.
import { EventBroadcaster, type CriEvent } from '../../../internal/cri/events/broadcaster';

const event = (containerId: string): CriEvent => ({
  containerId,
  type: 'CONTAINER_STARTED_EVENT',
  createdAt: '1',
  sandboxId: 'pod',
});

describe('EventBroadcaster', () => {
  it('hands every subscriber each event, in order', async () => {
    const bus = new EventBroadcaster();
    const [a, b] = [bus.subscribe(), bus.subscribe()];
    bus.publish(event('c1'));
    bus.publish(event('c2'));
    for (const s of [a, b]) expect([(await s.next())?.containerId, (await s.next())?.containerId]).toEqual(['c1', 'c2']);
  });

  it('at shutdown ends a waiting subscription, marked as shut down', async () => {
    const bus = new EventBroadcaster();
    const s = bus.subscribe();
    const waiting = s.next();
    bus.shutdown();
    expect(await waiting).toBeUndefined();
    expect(s.shutDown).toBe(true);
    expect(bus.subscriberCount).toBe(0);
  });

  it('at shutdown still delivers what a subscriber had not read yet', async () => {
    const bus = new EventBroadcaster();
    const s = bus.subscribe();
    bus.publish(event('c1'));
    bus.shutdown();
    expect((await s.next())?.containerId).toBe('c1');
    expect(await s.next()).toBeUndefined();
  });

  it('after shutdown hands out subscriptions that are already ended', async () => {
    const bus = new EventBroadcaster();
    bus.shutdown();
    const s = bus.subscribe();
    bus.publish(event('c1'));
    expect(await s.next()).toBeUndefined();
    expect(s.shutDown).toBe(true);
    expect(bus.subscriberCount).toBe(0);
  });

  it('does not mark a subscription its client closed as shut down', () => {
    const bus = new EventBroadcaster();
    const s = bus.subscribe();
    s.close();
    bus.shutdown();
    expect(s.shutDown).toBe(false);
  });
});
