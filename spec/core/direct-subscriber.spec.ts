import { Observable, Subject } from 'rxjs';
import { DirectSubscriber } from '../../lib/core/direct-subscriber.js';

describe('DirectSubscriber', () => {
  const recorder = () => {
    const seen: string[] = [];
    const subscriber = new DirectSubscriber<number>({
      next: (value) => seen.push(`next ${value}`),
      error: (err) => seen.push(`error ${String(err)}`),
      complete: () => seen.push('complete'),
    });
    return { seen, subscriber };
  };

  it('is subscribed with as it is, and passes values, then the completion', () => {
    const { seen, subscriber } = recorder();
    const subject = new Subject<number>();
    const subscription = subject.subscribe(subscriber);
    expect(subscription).toBe(subscriber);
    subject.next(1);
    subject.next(2);
    subject.complete();
    expect(seen).toEqual(['next 1', 'next 2', 'complete']);
    expect(subscriber.closed).toBe(true);
  });

  it('ignores what comes after an error, and runs the source teardown', () => {
    const { seen, subscriber } = recorder();
    let tornDown = false;
    new Observable<number>((inner) => {
      inner.next(1);
      inner.error('boom');
      return () => {
        tornDown = true;
      };
    }).subscribe(subscriber);
    subscriber.next(2);
    subscriber.complete();
    expect(seen).toEqual(['next 1', 'error boom']);
    expect(tornDown).toBe(true);
  });

  it('hears nothing once unsubscribed, and tears the source down', () => {
    const { seen, subscriber } = recorder();
    const subject = new Subject<number>();
    subject.subscribe(subscriber);
    subject.next(1);
    subscriber.unsubscribe();
    subject.next(2);
    subject.complete();
    expect(seen).toEqual(['next 1']);
    expect(subject.observed).toBe(false);
  });
});
