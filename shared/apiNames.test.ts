import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiErrorCodeSchema, eventNames, http, isEventName, jobMethods, streamHelloSchema } from './api';
import {
  API_ERROR_CODES,
  EVENT_NAMES,
  helloInstance,
  http as httpWithoutSchemas,
  isEventNameOnWire,
  isJobMethodName,
  JOB_METHOD_NAMES,
} from './apiNames';

describe('the API names without the schemas', () => {
  it('lists exactly the job methods the table declares', () => {
    expect([...JOB_METHOD_NAMES].sort()).toEqual([...jobMethods].sort());
  });

  it('lists exactly the events the table declares', () => {
    expect([...EVENT_NAMES].sort()).toEqual([...eventNames].sort());
  });

  it('lists exactly the error codes the error schema accepts', () => {
    expect([...API_ERROR_CODES].sort()).toEqual([...apiErrorCodeSchema.options].sort());
  });

  it('is the one wire constant table the schemas module hands out', () => {
    expect(http).toBe(httpWithoutSchemas);
  });

  it('tells an event or job method name as the table does, for any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...eventNames, ...jobMethods, 'ready', 'scanEntry', 'constructor', '__proto__'), fc.string()),
        (name) => {
          expect(isEventNameOnWire(name)).toBe(isEventName(name));
          expect(isJobMethodName(name)).toBe((jobMethods as string[]).includes(name));
        },
      ),
    );
  });

  it('reads a hello the way streamHelloSchema does, for any JSON value', () => {
    const hello = fc.oneof(
      fc.record({ instance: fc.string({ maxLength: 220 }) }),
      fc.record({ instance: fc.anything() }),
      fc.jsonValue(),
      fc.constant({ instance: 'x'.repeat(200) }),
      fc.constant({ instance: 'x'.repeat(201) }),
    );
    fc.assert(
      fc.property(hello, (data) => {
        const checked = streamHelloSchema.safeParse(data);
        expect(helloInstance(data)).toBe(checked.success ? checked.data.instance : undefined);
      }),
    );
  });
});
