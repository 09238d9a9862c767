import { API, type HealthInfo } from '../../contract';
import { apiClient } from './instance';

let health: Promise<HealthInfo> | null = null;

/** `GET /health`, asked once per page load (a failed ask is asked again next time). */
export function serverHealth(): Promise<HealthInfo> {
  health ??= apiClient.request<HealthInfo>(API.health, { auth: 'none' }).catch((err: unknown) => {
    health = null;
    throw err;
  });
  return health;
}
