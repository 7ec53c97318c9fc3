import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chooseStagingName,
  interruptedStagingNames,
  isStagingFolderName,
  parseStagingMarker,
  STAGING_DIR_NAME,
  STAGING_MARKER_KIND,
  stagingMarkerText,
  type StagingMarker,
} from './staging';

const marker: StagingMarker = {
  kind: STAGING_MARKER_KIND,
  version: 1,
  created: '2026-06-05T09:30:00Z',
  mode: 'force',
  source: { id: 'reports', digest: `sha256:${'a'.repeat(64)}` },
  plannedAt: '2026-06-05T09:29:00Z',
  pipeline_id: 'p',
  destination_id: 'd',
};
const markerText = stagingMarkerText(marker);

describe('the interrupted-replace rule', () => {
  it('counts a staging-named folder only with a valid marker', () => {
    expect(interruptedStagingNames([{ name: STAGING_DIR_NAME, markerText }], [])).toEqual([STAGING_DIR_NAME]);
    expect(interruptedStagingNames([{ name: STAGING_DIR_NAME, markerText: undefined }], [])).toEqual([]);
    expect(interruptedStagingNames([{ name: STAGING_DIR_NAME, markerText: '{"kind":"something else"}' }], [])).toEqual([]);
    expect(interruptedStagingNames([{ name: 'site', markerText }], [])).toEqual([]);
  });

  it('never counts a folder the valid state records outputs in, even with a marker-shaped file', () => {
    expect(interruptedStagingNames([{ name: STAGING_DIR_NAME, markerText }], ['.distributor-staging/staging.json'])).toEqual([]);
    expect(interruptedStagingNames([{ name: STAGING_DIR_NAME, markerText }], ['.distributor-staging-old/x'])).toEqual([STAGING_DIR_NAME]);
  });

  it('recognises the hex-suffixed names apply uses when the plain one is taken', () => {
    expect(isStagingFolderName('.distributor-staging-0a1b2c3d')).toBe(true);
    expect(isStagingFolderName('.distributor-staging-XYZ')).toBe(false);
    expect(isStagingFolderName('.distributor-staging/x')).toBe(false);
  });

  it('never throws on any marker text, and accepts only what it wrote', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseStagingMarker(text);
        if (parsed) expect(parsed.kind).toBe(STAGING_MARKER_KIND);
      }),
    );
    expect(parseStagingMarker(markerText)).toEqual(marker);
  });
});

describe('chooseStagingName', () => {
  it('takes the plain name when it is free, else a hex name that is free', () => {
    expect(
      chooseStagingName(
        () => false,
        () => '00000000',
      ),
    ).toBe(STAGING_DIR_NAME);
    const taken = new Set([STAGING_DIR_NAME, `${STAGING_DIR_NAME}-00000000`]);
    const randoms = ['00000000', 'deadbeef'];
    expect(
      chooseStagingName(
        (name) => taken.has(name),
        () => randoms.shift() as string,
      ),
    ).toBe(`${STAGING_DIR_NAME}-deadbeef`);
  });

  it('never returns a taken name', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[0-9a-f]{8}$/), { minLength: 1, maxLength: 5 }), fc.boolean(), (hexes, plainTaken) => {
        const taken = new Set(hexes.slice(0, -1).map((hex) => `${STAGING_DIR_NAME}-${hex}`));
        if (plainTaken) taken.add(STAGING_DIR_NAME);
        const queue = [...hexes, 'ffffffff', 'eeeeeeee'];
        let name: string;
        try {
          name = chooseStagingName(
            (candidate) => taken.has(candidate),
            () => queue.shift() ?? '12345678',
          );
        } catch {
          return;
        }
        expect(taken.has(name)).toBe(false);
        expect(isStagingFolderName(name)).toBe(true);
      }),
    );
  });
});
