import { Avatar as RadixAvatar } from 'radix-ui';

/** Initials from a name, else from the email's local part ("ada.lovelace@" -> "AL"). */
export function initialsOf(name: string | undefined, email: string | undefined): string {
  const source = name?.trim() || email?.split('@')[0] || '?';
  const parts = source.split(/[\s._-]+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0]![0]! + parts[1]![0]! : source.slice(0, 2);
  return letters.toUpperCase();
}

export function Avatar({ name, email, src, size = 32 }: { name?: string; email?: string; src?: string; size?: number }) {
  return (
    <RadixAvatar.Root className="avatar" style={{ width: size, height: size, fontSize: Math.round(size * 0.4) }}>
      {src && <RadixAvatar.Image className="avatar__image" src={src} alt="" />}
      <RadixAvatar.Fallback className="avatar__fallback">{initialsOf(name, email)}</RadixAvatar.Fallback>
    </RadixAvatar.Root>
  );
}
