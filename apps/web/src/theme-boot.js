// Sets the body's theme classes before the first paint (no flash of the wrong colours): a
// classic script first in the body (vite-theme-boot.ts puts it there), before the app. From
// the look the app last remembered (src/lib/theme.ts, RememberedTheme) and the system's
// preferences; a visitor new to this browser gets a new account's defaults, dark colours and
// reduced motion while the system prefers them. The app takes over once it has loaded.
(function () {
  var theme = { classes: [], dark: 'system', reducedMotion: 'system' };
  try {
    var stored = JSON.parse(window.localStorage.getItem('porpoise.theme') || 'null');
    if (stored && Array.isArray(stored.classes)) theme = stored;
  } catch {
    // Storage off or unreadable: the defaults.
  }
  var prefers = function (query) {
    return window.matchMedia && window.matchMedia(query).matches;
  };
  var follows = function (setting, query) {
    return setting === 'on' || (setting === 'system' && prefers(query));
  };
  var classes = theme.classes.filter(function (name) {
    return typeof name === 'string' && /^[a-z-]{1,32}$/.test(name);
  });
  if (follows(theme.dark, '(prefers-color-scheme: dark)')) classes.push('dark');
  if (follows(theme.reducedMotion, '(prefers-reduced-motion: reduce)')) classes.push('reduced-motion');
  if (classes.length > 0) document.body.className = classes.join(' ');
})();
