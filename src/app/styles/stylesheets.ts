// Every stylesheet of the app, in the order of the cascade the screens were written against: screen rules
// first, then the shell, the tokens and the ui primitives, which win ties of equal specificity (a screen
// overrides a primitive with a more specific selector). The screens' code is split by route, their CSS is
// not: a lazy screen's stylesheet would be appended after these and win those ties instead. All of it is
// ~12 kB gzip. main.tsx imports this first; the files' own imports of their CSS then add nothing.
// The legal pages' stylesheet loads with them (it shares no selectors with the rest). layout.css comes first:
// its shared layouts are what the screens' own rules adjust.
import './layout.css';
import '../screens/auth/auth.css';
import '../upload/upload.css';
import '../upload/link/link.css';
import '../screens/libraries/libraries.css';
import '../media/media.css';
import '../moment/moment.css';
import '../merge/merge.css';
import '../timeline/timeline.css';
import '../screens/library/library.css';
import '../screens/search/search.css';
import '../screens/workspace/workspace.css';
import '../screens/settings/billing.css';
import '../screens/settings/settings.css';
import '../shell/shell.css';
import '../screens/pricing/pricing.css';
import './global.css';
import '../ui/ui.css';
