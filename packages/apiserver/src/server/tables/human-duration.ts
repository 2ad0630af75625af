/** How long ago, as kubectl prints ages: `45s`, `3m12s`, `5h`, `12d`. */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 120) return `${s}s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 10) return `${minutes}m${s % 60 ? `${s % 60}s` : ''}`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return `${hours}h${minutes % 60 ? `${minutes % 60}m` : ''}`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 8) return `${days}d${hours % 24 ? `${hours % 24}h` : ''}`;
  if (days < 365 * 2) return `${days}d`;
  return `${Math.floor(days / 365)}y`;
}
