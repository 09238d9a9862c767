import path from 'node:path';
import { remoteDuration } from '../../adapters/media/ffprobe';
import { ytDlp } from '../../adapters/media/ytdlp';
import { EXTERNAL_MAX_BYTES, EXTERNAL_MAX_SECONDS } from '../../../contract';
import type { Platform } from '../../platform';
import type { AccountService } from '../accounts/account.service';
import type { RateRepository } from '../accounts/rate.repository';
import type { librariesModule } from '../libraries/libraries.module';
import type { ServerModule } from '../module';
import type { IngestBilling, StorageQuota } from '../ports';
import { quickDuration } from '../upload/upload.module';
import { externalRoutes } from './external.routes';
import { ExternalService } from './external.service';

/** Link import: links read by yt-dlp through the egress proxy, imported as media of a library. */
export function externalModule(
  p: Platform,
  lib: ReturnType<typeof librariesModule>,
  d: { quota: StorageQuota; credits: IngestBilling; rates: RateRepository },
) {
  const allowLoopback = p.egress.allowLoopback;
  const external = new ExternalService({
    library: lib.libraries,
    access: lib.access,
    media: lib.media,
    blobs: p.blobs,
    queue: p.queue,
    quota: d.quota,
    reader: ytDlp({
      bin: p.config.ytDlpPath,
      proxy: p.egress.url,
      insecureTls: allowLoopback.size > 0,
      maxBytes: EXTERNAL_MAX_BYTES,
      maxSeconds: EXTERNAL_MAX_SECONDS,
      peekTimeoutMs: 60_000,
      downloadTimeoutMs: 30 * 60_000,
    }),
    balance: d.credits.balance,
    rates: d.rates,
    allowLoopback,
    workDir: path.join(p.workDir, 'links'),
    durationOf: quickDuration,
    durationAt: (url) => remoteDuration(url, p.egress.url),
  });
  return {
    external,
    module: (accounts: AccountService): ServerModule => ({ routes: (app) => externalRoutes(app, accounts, external) }),
  };
}
