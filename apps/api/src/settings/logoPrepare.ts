// One path for every logo the API keeps or draws: the uploaded file is sniffed by its bytes, a
// raster image is decoded and re-encoded (logoImage.ts), an SVG sanitised with its embedded
// rasters re-encoded (logo.ts). Only the result is stored. Logos stored before this existed go
// through the same path the first time a PDF needs them (repository.ts, logoForPdf).
import { createHash } from 'node:crypto';
import { SETTINGS_MESSAGES } from '@tradie/contracts';
import { createSvgSanitiser, LOGO_CONTENT_TYPES, sniffLogo, type LogoKind, type SvgSanitiser } from './logo.ts';
import { decodeSlot } from '../security/uploadGate.ts';
import { normaliseRaster } from './logoImage.ts';

export type PreparedLogo =
  | { ok: true; kind: LogoKind; contentType: string; bytes: Buffer; sha256: string }
  | { ok: false; detail: string };

let sanitiser: Promise<SvgSanitiser> | undefined;
/** One sanitiser per process (a jsdom window), made on first use. */
const svgSanitiser = (): Promise<SvgSanitiser> =>
  (sanitiser ??= createSvgSanitiser(normaliseRaster).catch((e: unknown) => {
    sanitiser = undefined;
    throw e;
  }));

const prepared = (kind: LogoKind, bytes: Buffer): PreparedLogo => ({
  ok: true,
  kind,
  contentType: LOGO_CONTENT_TYPES[kind],
  bytes,
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

/** The logo to keep for the uploaded `bytes`, or the reason (a sentence for the screen) it is refused. */
export function prepareLogo(bytes: Uint8Array): Promise<PreparedLogo> {
  // Decoded in one of the process's few decode places (security/uploadGate.ts): a burst waits its turn.
  return decodeSlot.run(() => prepareLogoNow(bytes));
}

async function prepareLogoNow(bytes: Uint8Array): Promise<PreparedLogo> {
  const sniffed = sniffLogo(bytes);
  if (!sniffed) return { ok: false, detail: SETTINGS_MESSAGES.logoWrongType };
  if (sniffed.kind === 'svg') {
    const result = await (await svgSanitiser()).sanitise(sniffed.text);
    if (result.ok) return prepared('svg', Buffer.from(result.svg, 'utf8'));
    const detail = {
      not_svg: SETTINGS_MESSAGES.logoWrongType,
      unreadable: SETTINGS_MESSAGES.logoUnreadableSvg,
      image_unreadable: SETTINGS_MESSAGES.logoSvgImageUnreadable,
      too_many_images: SETTINGS_MESSAGES.logoSvgTooManyImages,
    }[result.reason];
    return { ok: false, detail };
  }
  const raster = await normaliseRaster(sniffed.bytes);
  if (!raster.ok) return { ok: false, detail: raster.reason === 'too_many_pixels' ? SETTINGS_MESSAGES.logoTooManyPixels : SETTINGS_MESSAGES.logoUnreadableImage };
  return prepared(raster.kind, raster.bytes);
}
