// The lean door to reading one destination on this machine (issue 25): the function the Session's
// inspect answers from (sessionDestinations.ts), for a front end that must start fast (the CLI's cold
// `inspect`) and so cannot wait for the Session, the API table and zod. One implementation: both call
// this. Must stay lean (no zod, no API schemas, no hash pool): coldStart.test.ts holds it.

export { inspectDestination, type DestinationInspection } from '../engine/inspectDestination';
