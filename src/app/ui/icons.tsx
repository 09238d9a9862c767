import type { LucideIcon, LucideProps } from 'lucide-react';
import {
  ArrowLeft,
  Check,
  ChevronDown,
  ChevronLeft,
  Circle,
  Columns3,
  Copyright,
  CreditCard,
  Database,
  Download,
  Ellipsis,
  ExternalLink,
  Eye,
  EyeOff,
  FileText,
  Film,
  Folder,
  House,
  Image,
  Info,
  Keyboard,
  LayoutGrid,
  Link,
  List,
  Lock,
  LogOut,
  Mail,
  Maximize,
  Menu,
  Minimize,
  Minus,
  MonitorPlay,
  Pause,
  Pencil,
  Play,
  Plus,
  RefreshCw,
  ScanSearch,
  Scissors,
  Search,
  Settings,
  Shield,
  Sparkles,
  Tag,
  Trash2,
  TriangleAlert,
  Upload,
  Volume2,
  VolumeX,
  X,
} from 'lucide-react';

/** Lucide's icons (ISC), tree-shaken per icon; the app names them by what they do, not how they look. */
export type IconProps = LucideProps;

/** The app draws its icons at 20 px with a 1.8 stroke (lucide's default is 24 px, 2); call sites size them further. */
function icon(Lucide: LucideIcon, filled = false) {
  return function AppIcon(p: IconProps) {
    return <Lucide size={20} strokeWidth={1.8} {...(filled && { fill: 'currentColor' })} {...p} />;
  };
}

export const IconHome = icon(House);
export const IconLibrary = icon(MonitorPlay);
export const IconSearch = icon(Search);
export const IconSettings = icon(Settings);
export const IconTag = icon(Tag);
export const IconMenu = icon(Menu);
export const IconChevronLeft = icon(ChevronLeft);
export const IconChevronDown = icon(ChevronDown);
export const IconArrowLeft = icon(ArrowLeft);
export const IconEye = icon(Eye);
export const IconEyeOff = icon(EyeOff);
export const IconCheck = icon(Check);
export const IconCircle = icon(Circle);
export const IconClose = icon(X);
export const IconAlert = icon(TriangleAlert);
export const IconInfo = icon(Info);
export const IconKeyboard = icon(Keyboard);
export const IconMail = icon(Mail);
export const IconLogout = icon(LogOut);
export const IconShield = icon(Shield);
export const IconFile = icon(FileText);
export const IconCopyright = icon(Copyright);
export const IconExternal = icon(ExternalLink);
export const IconLock = icon(Lock);
export const IconCard = icon(CreditCard);
export const IconSparkle = icon(Sparkles);
export const IconGrid = icon(LayoutGrid);
export const IconList = icon(List);
export const IconUpload = icon(Upload);
export const IconMinus = icon(Minus);
export const IconPlus = icon(Plus);
export const IconMore = icon(Ellipsis);
export const IconTrash = icon(Trash2);
export const IconPencil = icon(Pencil);
export const IconDownload = icon(Download);
export const IconRefresh = icon(RefreshCw);
export const IconFilm = icon(Film);
export const IconColumns = icon(Columns3);
export const IconDatabase = icon(Database);
export const IconFolder = icon(Folder);
export const IconSimilar = icon(ScanSearch);
export const IconImage = icon(Image);
export const IconLink = icon(Link);
export const IconVolume = icon(Volume2);
export const IconMuted = icon(VolumeX);
export const IconFullscreen = icon(Maximize);
export const IconFullscreenExit = icon(Minimize);
export const IconTrim = icon(Scissors);
/** Play and pause are drawn filled, like the players users know. */
export const IconPlay = icon(Play, true);
export const IconPause = icon(Pause, true);

/** The Clipseek mark: a play triangle inside a search lens. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="clipseek-logo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#9d86ff" />
          <stop offset="1" stopColor="#5b8cff" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#clipseek-logo)" />
      <circle cx="14.5" cy="14.5" r="7" fill="none" stroke="#fff" strokeWidth="2.4" />
      <path d="m12.6 11.4 5 3.1-5 3.1z" fill="#fff" />
      <path d="m20 20 5 5" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}
